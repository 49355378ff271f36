import { Link } from 'react-router';
import { usePageMeta } from '@/hooks/use-page-meta';

export function NotFoundRoute() {
  usePageMeta({ title: 'Page Not Found' });
  return (
    <main className="grid min-h-dvh place-items-center px-6 text-center">
      <div className="grid gap-3">
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="text-2xl font-semibold">Page Not Found</h1>
        <p className="max-w-md text-sm text-muted-foreground">
          The page you are looking for does not exist. Developer hint: check the route table in web/src/app/router.tsx.
        </p>
        <Link to="/" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          Back to home
        </Link>
      </div>
    </main>
  );
}
