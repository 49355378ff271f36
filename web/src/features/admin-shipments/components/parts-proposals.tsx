import { PackageOpen } from 'lucide-react';
import { formatDay } from '@maillon/common/device-rules';
import { SHIPMENT_STATUS_LABELS } from '@maillon/common/enums';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { usePartsProposals } from '../api/get-parts-proposals';
import { ParcelDueBadge, ProposedParcelDialog } from './proposed-parcel-dialog';

/** Expéditions: the parcels proposed from the lots' expiry dates, each opening « Colis proposé », 20 lots at a time. */
export function PartsProposals() {
  const proposals = usePartsProposals();
  if (proposals.isPending) return <Skeleton className="mb-5 h-16" />;
  if (proposals.isError) return <ErrorState error={proposals.error} className="mb-5" />;
  const items = proposals.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="parts-proposals-title" className="mb-6 rounded-lg border bg-card p-4">
      <h2 id="parts-proposals-title" className="mb-3 font-semibold">
        Colis proposés d’après les dates de péremption
      </h2>
      <ul className="divide-y">
        {items.map((p) => (
          <li key={p.batchId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-2.5 text-sm">
            <div className="grid min-w-0 flex-1 gap-0.5">
              <span className="font-medium">{p.title}</span>
              <span className="text-muted-foreground">
                {p.technician?.name ?? 'Aucun technicien'} · {p.itemCount} pièce{p.itemCount > 1 ? 's' : ''}
                {p.toCheckCount ? ` · ${p.toCheckCount} à vérifier` : ''}
                {p.firstVisitDate ? ` · première visite le ${formatDay(p.firstVisitDate)}` : ''}
              </span>
            </div>
            <ParcelDueBadge parts={p} />
            {p.shipment && !p.shipped ? <Badge variant="secondary">Colis : {SHIPMENT_STATUS_LABELS[p.shipment.status]}</Badge> : null}
            <ProposedParcelDialog
              batchId={p.batchId}
              title={p.title}
              trigger={
                <Button size="sm" variant="outline" aria-label={`Colis proposé pour ${p.title}`}>
                  <PackageOpen aria-hidden="true" /> Colis proposé
                </Button>
              }
            />
          </li>
        ))}
      </ul>
      {proposals.hasNextPage ? (
        <div className="mt-3 flex justify-center">
          <Button variant="outline" loading={proposals.isFetchingNextPage} onClick={() => void proposals.fetchNextPage()}>
            Afficher plus de colis proposés
          </Button>
        </div>
      ) : null}
    </section>
  );
}
