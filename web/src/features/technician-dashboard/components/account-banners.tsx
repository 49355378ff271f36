import { Link } from 'react-router';
import { AlertTriangle, Clock } from 'lucide-react';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button } from '@/components/ui/button';
import type { TechnicianCounts } from '../api/get-technician-counts';

/** Moderation notice for pending accounts and the red training banner (spec §2). */
export function AccountBanners({ technician, counts, formationHref }: { technician: Technician; counts: TechnicianCounts | undefined; formationHref: string }) {
  const remaining = counts ? counts.formation.total - counts.formation.read : 0;
  return (
    <div className="mb-5 grid gap-3 empty:hidden">
      {technician.status === 'pending' ? (
        <div role="status" className="flex items-start gap-3 rounded-lg border border-warning/30 bg-warning-soft px-4 py-3 text-sm">
          <Clock className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
          <p>
            Votre inscription est en cours de modération. Vous pouvez déjà suivre la formation et consulter les lots ; vous pourrez
            postuler dès que votre compte sera validé.
          </p>
        </div>
      ) : null}
      {counts && counts.formation.total > 0 && remaining > 0 ? (
        <div role="alert" className="flex flex-col gap-3 rounded-lg bg-primary px-4 py-3 text-sm text-primary-foreground sm:flex-row sm:items-center">
          <AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
          <p className="flex-1 font-medium">
            Il vous reste {remaining} modules de formations sur {counts.formation.total} à compléter avant de pouvoir activer votre compte.
          </p>
          <Button variant="secondary" size="sm" asChild>
            <Link to={formationHref}>Me former</Link>
          </Button>
        </div>
      ) : null}
    </div>
  );
}
