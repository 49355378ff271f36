import { useState } from 'react';
import { AlertTriangle, PackageCheck, PackageOpen, Truck } from 'lucide-react';
import { formatDay } from '@maillon/common/device-rules';
import { CONSUMABLE_KIND_LABELS, SHIPMENT_STATUS_LABELS } from '@maillon/common/enums';
import type { LotParts } from '@maillon/common/schemas/parts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { ErrorState, Spinner } from '@/components/ui/feedback';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCreatePartsShipment } from '../api/create-parts-shipment';
import { useLotParts, useUnusedParts } from '../api/get-lot-parts';
import { useShipShipment } from '../api/ship-shipment';

const REFERENCE_LABEL = { visit: 'visite prévue', deadline: 'échéance du lot', today: 'aujourd’hui' } as const;

function deviceName(d: { serialNumber: string | null; siteName: string | null }) {
  return [d.siteName, d.serialNumber ? `n° ${d.serialNumber}` : null].filter(Boolean).join(' · ') || 'Défibrillateur';
}

/** The badge of a lot whose parcel is late or due: not shipped N days before the first planned visit. */
export function ParcelDueBadge({ parts }: { parts: Pick<LotParts, 'late' | 'shipBy' | 'shipped'> }) {
  if (parts.late) {
    return (
      <Badge variant="danger">
        <AlertTriangle className="size-3" aria-hidden="true" /> Colis en retard (à expédier avant le {formatDay(parts.shipBy)})
      </Badge>
    );
  }
  if (parts.shipped) return <Badge variant="success">Colis expédié</Badge>;
  if (parts.shipBy) return <Badge variant="warning">À expédier avant le {formatDay(parts.shipBy)}</Badge>;
  return null;
}

function ProposalBody({ parts }: { parts: LotParts }) {
  const create = useCreatePartsShipment();
  const ship = useShipShipment();
  const unused = useUnusedParts(parts.batchId, Boolean(parts.shipment));
  const toCheck = parts.devices.filter((d) => d.toCheck.length > 0);

  const onCreate = () =>
    create.mutate(parts.batchId, {
      onSuccess: (result) =>
        toast({
          title: result.created ? 'Colis créé en brouillon' : 'Le colis de ce lot existe déjà',
          description: `${parts.title} — modifiable dans Expéditions`,
          variant: 'success',
        }),
      onError: (error) => toastError('Erreur lors de la création du colis', error),
    });
  const onShip = (id: string) =>
    ship.mutate(id, {
      onSuccess: () => toast({ title: 'Expédition marquée comme expédiée', description: parts.title, variant: 'success' }),
      onError: (error) => toastError("Erreur lors de l'expédition", error),
    });

  return (
    <div className="grid gap-5 text-sm">
      <dl className="grid grid-cols-2 gap-3 rounded-md bg-muted px-3 py-2.5">
        <div>
          <dt className="text-xs text-muted-foreground">Technicien</dt>
          <dd className="font-medium">{parts.technician?.name ?? 'Aucun technicien retenu'}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Point relais</dt>
          <dd className="font-medium">{parts.technician?.relayPoint ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Première visite prévue</dt>
          <dd className="font-medium">{parts.firstVisitDate ? formatDay(parts.firstVisitDate) : 'Aucune date fixée'}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Marge d’expiration</dt>
          <dd className="font-medium">{parts.marginDays} jours</dd>
        </div>
      </dl>
      <div className="-mt-2">
        <ParcelDueBadge parts={parts} />
      </div>

      <section aria-labelledby={`parts-items-${parts.batchId}`} className="grid gap-2">
        <h3 id={`parts-items-${parts.batchId}`} className="font-semibold">
          Pièces à envoyer
        </h3>
        {parts.items.length === 0 ? (
          <p className="text-muted-foreground">Aucune pièce n’expire avant les visites (marge comprise).</p>
        ) : (
          <table className="w-full text-left">
            <thead className="text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="w-12 py-1 pr-2">Qté</th>
                <th scope="col" className="py-1 pr-2">Pièce</th>
                <th scope="col" className="py-1">Pour</th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {parts.items.map((item) => (
                <tr key={item.itemLabel} className="align-top">
                  <td className="py-1.5 pr-2 font-semibold tabular-nums">{item.quantity}</td>
                  <td className="py-1.5 pr-2">{item.itemLabel}</td>
                  <td className="py-1.5 text-muted-foreground">{item.devices.map(deviceName).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {toCheck.length > 0 ? (
        <section aria-labelledby={`parts-check-${parts.batchId}`} className="grid gap-2">
          <h3 id={`parts-check-${parts.batchId}`} className="flex items-center gap-2 font-semibold">
            À vérifier <Badge variant="warning">{parts.toCheckCount}</Badge>
          </h3>
          <ul className="grid gap-1">
            {toCheck.map((device) => (
              <li key={device.missionId}>
                <span className="font-medium">{deviceName(device)}</span>
                {device.model ? <span className="text-muted-foreground"> ({device.model})</span> : null} :{' '}
                {device.toCheck.map((c) => (c.kind ? `${CONSUMABLE_KIND_LABELS[c.kind]} — ${c.reason.toLowerCase()}` : c.reason)).join(' ; ')}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <p className="text-xs text-muted-foreground">
        Calculé à partir des dates du parc DAE : péremption avant la date de référence de chaque appareil (
        {[...new Set(parts.devices.map((d) => REFERENCE_LABEL[d.referenceSource]))].join(', ') || 'visite prévue'}) + {parts.marginDays} jours.
      </p>

      <div className="flex flex-wrap items-center gap-2 border-t pt-4">
        {parts.shipment ? (
          <>
            <span className="flex items-center gap-2">
              <PackageCheck className="size-4 text-success" aria-hidden="true" /> Colis créé :{' '}
              <Badge variant="secondary">{SHIPMENT_STATUS_LABELS[parts.shipment.status]}</Badge>
            </span>
            {parts.shipment.status === 'draft' ? (
              <Button size="sm" className="ml-auto" disabled={ship.isPending} onClick={() => onShip(parts.shipment!.id)}>
                <Truck aria-hidden="true" /> {ship.isPending ? 'Expédition...' : 'Marquer comme expédié'}
              </Button>
            ) : null}
          </>
        ) : (
          <Button
            className="ml-auto"
            disabled={create.isPending || parts.items.length === 0 || !parts.technician}
            onClick={onCreate}
          >
            <PackageOpen aria-hidden="true" /> {create.isPending ? 'Création...' : 'Créer le colis'}
          </Button>
        )}
      </div>

      {parts.shipment ? (
        <section aria-labelledby={`parts-unused-${parts.batchId}`} className="grid gap-2">
          <h3 id={`parts-unused-${parts.batchId}`} className="font-semibold">
            Pièces non utilisées
          </h3>
          {unused.isPending ? (
            <Spinner label="Chargement des pièces non utilisées..." />
          ) : unused.isError ? (
            <ErrorState error={unused.error} />
          ) : unused.data.length === 0 ? (
            <p className="text-muted-foreground">Aucune pour l’instant : elles apparaissent après les rapports de visite.</p>
          ) : (
            <ul className="grid gap-1">
              {unused.data.map((part) => (
                <li key={`${part.shipmentId}-${part.missionId}-${part.kind}`}>
                  {part.itemLabel} — <span className="text-muted-foreground">{deviceName(part)} (à récupérer ou à garder en stock)</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}

/** « Colis proposé »: the lot's needs as a parcel, one click to create it, then the usual ship flow. */
export function ProposedParcelDialog({ batchId, title, trigger }: { batchId: string; title: string; trigger: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const parts = useLotParts(batchId, open);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Colis proposé — {title}</DialogTitle>
          <DialogDescription>Batteries et électrodes qui expirent avant les visites du lot, d’après le parc DAE.</DialogDescription>
        </DialogHeader>
        {parts.isPending ? <Spinner label="Calcul du colis..." className="py-6" /> : parts.isError ? <ErrorState error={parts.error} /> : <ProposalBody parts={parts.data} />}
      </DialogContent>
    </Dialog>
  );
}

/** The lot card's button (composed by the app into the admin missions tab). */
export function ProposedParcelButton({ batchId, title }: { batchId: string; title: string }) {
  return (
    <ProposedParcelDialog
      batchId={batchId}
      title={title}
      trigger={
        <Button size="sm" variant="outline">
          <PackageOpen aria-hidden="true" /> Colis proposé
        </Button>
      }
    />
  );
}
