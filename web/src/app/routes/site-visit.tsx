import { Link, useParams } from 'react-router';
import { HeartPulse } from 'lucide-react';
import { SiteVisitPage } from '@/features/site-visits/components/site-visit-page';
import { usePageMeta } from '@/hooks/use-page-meta';

/** /rdv/:token — the site contact confirms the visit or proposes another date, without an account (issue 19). */
export function SiteVisitRoute() {
  usePageMeta({ title: 'Visite de votre défibrillateur' });
  const { token = '' } = useParams();
  return (
    <main className="flex min-h-dvh flex-col items-center bg-gradient-to-b from-primary-soft to-background px-4 py-6 sm:justify-center sm:py-8">
      <Link to="/" className="mb-5 flex items-center gap-2 text-xl font-bold">
        <HeartPulse className="size-7 text-primary" aria-hidden="true" /> Maillon
      </Link>
      {/* Card's markup with its classes merged by hand: no tailwind-merge on the public pages (decision 013). */}
      <div className="w-full max-w-md rounded-lg border bg-card text-card-foreground shadow-xs">
        <SiteVisitPage key={token} token={token} />
      </div>
      <p className="mt-4 max-w-md text-center text-xs text-muted-foreground">
        Maillon organise l’entretien des défibrillateurs avec des techniciens indépendants, pour une association de la chaîne de survie.
      </p>
    </main>
  );
}
