import { useId, type ReactNode } from 'react';
import { ExternalLink, PackageCheck } from 'lucide-react';
import { SHIPMENT_STATUS_LABELS } from '@maillon/common/enums';
import { formatDate } from '@maillon/common/format';
import type { Parcel } from '@maillon/common/schemas/parcels';
import { RECEIVABLE_SHIPMENT_STATUSES, trackingUrl } from '@maillon/common/shipping-rules';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PendingMark } from '@/components/offline/pending-mark';

const STATUS_VARIANTS: Record<Parcel['status'], 'info' | 'secondary' | 'success' | 'danger'> = {
  in_transit: 'info',
  draft: 'secondary',
  delivered: 'success',
  cancelled: 'danger',
};

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

/** One parcel of "Mes réceptions colis", readable at 390 px. */
export function ParcelCard({ parcel, pending, onReceive }: { parcel: Parcel; /** Marked received on this phone, not yet sent. */ pending: boolean; onReceive: () => void }) {
  const titleId = useId();
  const receivable = RECEIVABLE_SHIPMENT_STATUSES.includes(parcel.status);
  return (
    <li>
      <Card role="article" aria-labelledby={titleId} className="grid gap-3 p-4">
        <div className="flex items-start justify-between gap-3">
          <h3 id={titleId} className="min-w-0 break-words font-semibold leading-snug">
            {parcel.missionTitle || 'Colis sans mission'}
          </h3>
          <Badge variant={STATUS_VARIANTS[parcel.status]} className="shrink-0">
            {SHIPMENT_STATUS_LABELS[parcel.status] ?? parcel.status}
          </Badge>
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
          <Line label="Transporteur">{parcel.carrier}</Line>
          <Line label="N° de suivi">
            {parcel.trackingNumber ? <span className="font-mono">{parcel.trackingNumber}</span> : 'Pas encore attribué'}
          </Line>
          <Line label="Expédié le">{parcel.shippedDate ? formatDate(parcel.shippedDate) : 'Non expédié'}</Line>
          <Line label="Reçu le">{parcel.deliveredDate ? formatDate(parcel.deliveredDate) : '—'}</Line>
          <div className="col-span-2">
            <Line label="Destination">{parcel.destination || 'Non précisée'}</Line>
          </div>
          <div className="col-span-2">
            <Line label="Contenu">{parcel.content || 'Non précisé'}</Line>
          </div>
        </dl>
        <div className="grid grid-cols-1 gap-2 sm:flex sm:flex-wrap">
          {pending ? (
            <PendingMark label="Réception en attente d’envoi" className="min-h-11 text-sm" />
          ) : receivable ? (
            <Button size="lg" onClick={onReceive}>
              <PackageCheck aria-hidden="true" />
              Marquer comme reçu
            </Button>
          ) : null}
          {parcel.trackingNumber ? (
            <Button asChild size="lg" variant="outline">
              <a href={trackingUrl(parcel.trackingNumber)} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                Suivre le colis
              </a>
            </Button>
          ) : null}
        </div>
      </Card>
    </li>
  );
}
