import { Loader2 } from 'lucide-react';

/**
 * Spinner's markup without class merging, for the route fallbacks and the public pages: neither feedback.tsx nor
 * tailwind-merge lands in the entry chunk (decision 013). fullHeight fills the screen, as Spinner with min-h-dvh.
 */
export function PlainSpinner({ fullHeight = false }: { fullHeight?: boolean }) {
  return (
    <div
      role="status"
      className={`flex items-center justify-center gap-2 py-10 text-muted-foreground${fullHeight ? ' min-h-dvh' : ''}`}
    >
      <Loader2 className="size-5 animate-spin" aria-hidden="true" />
      <span className="text-sm">Chargement...</span>
    </div>
  );
}
