import { ExternalLink, MapPin, Package, Truck, User } from 'lucide-react';
import { SHIPMENT_STATUS_LABELS } from '@maillon/common/enums';
import { formatDate } from '@maillon/common/format';
import { trackingUrl, type Shipment } from '@maillon/common/schemas/shipments';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';

const STATUS_VARIANT = { draft: 'secondary', in_transit: 'info', delivered: 'success', cancelled: 'outline' } as const;

interface ShipmentCardProps {
  shipment: Shipment;
  busy: boolean;
  onShip: () => Promise<unknown>;
  onCancel: () => Promise<unknown>;
  onEdit: () => void;
}

/** A parcel on the admin Expéditions tab; a cancelled one is dimmed and has no actions. */
export function ShipmentCard({ shipment: s, busy, onShip, onCancel, onEdit }: ShipmentCardProps) {
  const cancelled = s.status === 'cancelled';
  const title = s.missionTitle ?? 'Expédition';
  return (
    <Card className={cn('flex flex-col', cancelled && 'opacity-55')} aria-label={title}>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <CardTitle className="truncate">{title}</CardTitle>
          <p className="text-xs text-muted-foreground">
            {s.carrier}
            {s.trackingNumber ? ` · ${s.trackingNumber}` : ' · sans numéro de suivi'}
          </p>
        </div>
        <Badge variant={STATUS_VARIANT[s.status]}>{SHIPMENT_STATUS_LABELS[s.status]}</Badge>
      </CardHeader>
      <CardContent className="grid flex-1 gap-1.5 text-sm">
        <p className="flex items-center gap-2 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground">
          <User aria-hidden="true" />
          <span className="sr-only">Technicien : </span>
          {s.technicianName ?? 'Technicien supprimé'}
        </p>
        <p className="flex items-start gap-2 [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground">
          <MapPin aria-hidden="true" />
          <span className="sr-only">Destination : </span>
          <span>
            {s.destination ?? 'Aucun point relais configuré'}
            {s.destinationPostalCode ? <span className="text-muted-foreground"> · {s.destinationPostalCode}</span> : null}
          </span>
        </p>
        <p className="flex items-start gap-2 [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground">
          <Package aria-hidden="true" />
          <span className="sr-only">Contenu : </span>
          <span className={s.content ? 'whitespace-pre-line' : 'text-muted-foreground'}>{s.content || 'Contenu non précisé'}</span>
        </p>
        <p className="flex items-center gap-2 text-muted-foreground [&_svg]:size-4 [&_svg]:shrink-0">
          <Truck aria-hidden="true" />
          {s.status === 'draft' ? 'Prévu le' : s.status === 'cancelled' ? 'Date d’expédition :' : 'Expédié le'}{' '}
          {formatDate(s.shippedDate) || '—'}
          {s.deliveredDate ? ` · Réceptionné le ${formatDate(s.deliveredDate)}` : null}
        </p>
      </CardContent>
      {cancelled ? null : (
        <CardFooter className="justify-end border-t pt-4 sm:pt-4">
          {s.trackingNumber ? (
            <Button asChild variant="ghost" size="sm">
              <a href={trackingUrl(s.trackingNumber)} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" /> Suivre
              </a>
            </Button>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => toast({ title: 'Numéro de suivi non disponible', variant: 'destructive' })}
            >
              <ExternalLink aria-hidden="true" /> Suivre
            </Button>
          )}
          <Button variant="outline" size="sm" disabled={busy} onClick={onEdit}>
            Modifier
          </Button>
          {s.status !== 'delivered' ? (
            <ConfirmDialog
              title="Annuler cette expédition ?"
              description={`${title} — ${s.technicianName ?? ''}. Le colis ne sera plus suivi.`}
              confirmLabel="Annuler l'expédition"
              cancelLabel="Retour"
              onConfirm={onCancel}
              trigger={
                <Button variant="outline" size="sm" className="text-destructive" disabled={busy}>
                  Annuler
                </Button>
              }
            />
          ) : null}
          {s.status === 'draft' ? (
            <Button size="sm" disabled={busy} onClick={() => void onShip()}>
              Expédié
            </Button>
          ) : null}
        </CardFooter>
      )}
    </Card>
  );
}
