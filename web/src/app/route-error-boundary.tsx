import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';

interface State {
  error: unknown;
  pathname: string;
}

class ErrorBoundary extends Component<{ pathname: string; children: ReactNode }, State> {
  override state: State = { error: undefined, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  // Another page clears the error, as the data router's boundary did.
  static getDerivedStateFromProps(props: { pathname: string }, state: State): Partial<State> | null {
    return props.pathname === state.pathname ? null : { error: undefined, pathname: props.pathname };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    // The browser's own text (a chunk that failed to load, a TypeError) is English and technical: under « Détails ».
    const detail = error instanceof Error ? (error.stack ?? error.message) : JSON.stringify(error);
    return (
      <main role="alert" className="mx-auto grid max-w-lg gap-3 p-6">
        <h1 className="text-lg font-semibold">Cette page n’a pas pu s’afficher</h1>
        <p className="text-sm">Rechargez la page : si l’application vient d’être mise à jour, la nouvelle version se charge.</p>
        <button type="button" onClick={() => window.location.reload()} className="h-12 rounded-md bg-primary px-4 font-medium text-primary-foreground">
          Recharger la page
        </button>
        <details className="text-xs">
          <summary>Détails techniques</summary>
          <pre className="whitespace-pre-wrap">{detail}</pre>
        </details>
      </main>
    );
  }
}

/** The screen of a page that throws or of a screen's code that fails to load (an old chunk after an update): says so in French and offers a reload. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary pathname={pathname}>{children}</ErrorBoundary>;
}
