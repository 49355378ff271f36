import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CheckCircle2, ChevronDown, ClipboardCheck, MapPin, Navigation, Package, Phone } from 'lucide-react';
import { CONSUMABLE_KIND_LABELS } from '@maillon/common/enums';
import type { WorkParts } from '@maillon/common/schemas/parts';
import { formatDate, formatDistance, formatDuration } from '@maillon/common/format';
import type { RouteStop, WorkMission } from '@maillon/common/schemas/field-work';
import { PendingMark } from '@/components/offline/pending-mark';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { refusalOf } from '@/lib/offline/queued-request';
import { useSaveProgress } from '../api/work-save-progress';
import { toDateInputValue, WorkVisitSlot } from './work-visit-slot';

export function mapsDirectionsUrl(mission: Pick<WorkMission, 'location' | 'title'>): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(mission.location?.trim() || mission.title)}`;
}

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** What this phone changed on a device and the server may not show yet (decision 023). */
export interface DeviceOverlay {
  isCompleted?: boolean;
  /** "YYYY-MM-DD", or null when the date was removed. */
  plannedVisitDate?: string | null;
  /** The time window queued with the date (null: the whole day). */
  visitWindow?: WorkMission['progress']['visitWindow'];
  visitStartTime?: string | null;
  visitEndTime?: string | null;
  /** A change waits for the network. */
  waiting: boolean;
  /** A change of the visit report (draft, photo, complete report) waits for the network. */
  reportWaiting?: boolean;
}

interface WorkDeviceCardProps {
  mission: WorkMission;
  index: number;
  technicianId: string;
  /** Recruté: the device can be changed; a finished lot is read-only. */
  editable: boolean;
  /** Leg from the previous stop, after "Trier pour économiser ma route". */
  leg: RouteStop | undefined;
  overlay: DeviceOverlay | undefined;
  /** Parts coming for this device in the lot's parcels (issue 20). */
  parts?: WorkParts[number]['parts'] | undefined;
  onChanged: () => void;
}

const PARCEL_STATE = { draft: 'colis en préparation', in_transit: 'colis en route', delivered: 'colis reçu', cancelled: 'colis annulé' } as const;

/** « 2 pièces · colis reçu »: the least advanced parcel decides (everything is received only when all are). */
function partsSummary(parts: NonNullable<WorkDeviceCardProps['parts']>) {
  const order = ['draft', 'in_transit', 'delivered'] as const;
  const state = order.find((status) => parts.some((p) => p.shipmentStatus === status)) ?? 'delivered';
  return { count: parts.length, state, received: state === 'delivered' };
}

/**
 * One device of the lot (spec §2 Recruté view), compact for a phone (decision 023): one row with the route order, the
 * site, its status and planned date, and one-tap call and directions; a tap opens today's full card.
 */
export function WorkDeviceCard({ mission, index, technicianId, editable, leg, overlay, parts, onChanged }: WorkDeviceCardProps) {
  const coming = parts && parts.length > 0 ? partsSummary(parts) : null;
  const titleId = useId();
  const detailsId = useId();
  const [expanded, setExpanded] = useState(false);
  const savedDay = overlay?.plannedVisitDate !== undefined ? (overlay.plannedVisitDate ?? '') : toDateInputValue(mission.progress.plannedVisitDate);
  const done = overlay?.isCompleted ?? mission.progress.isCompleted;
  const saveProgress = useSaveProgress();

  const save = (patch: { isCompleted: boolean }) => saveProgress.send({ missionId: mission.id, technicianId, title: mission.title, patch });

  const toggle = (checked: boolean) => {
    save({ isCompleted: checked }).catch((error: unknown) =>
      toast({ title: 'Erreur de sauvegarde', description: refusalOf(error).message || 'Réessayez le toggle', variant: 'destructive' }),
    );
  };

  const plannedLabel = savedDay ? `Passage le ${formatDate(`${savedDay}T12:00:00Z`)}` : 'Date à prévoir';
  // What the site answered through its link, visible without opening the card (issue 19).
  const appointment = mission.appointment;
  const siteAnswer =
    appointment?.response === 'proposed' && !appointment.decision
      ? { label: 'Date proposée par le site', variant: 'warning' as const }
      : appointment?.response === 'confirmed'
        ? { label: 'Confirmé par le site', variant: 'success' as const }
        : null;

  return (
    <li>
      <article aria-labelledby={titleId} className={cn('rounded-lg border bg-card shadow-xs', done && 'border-success/40 bg-success-soft/30')}>
        <div className="flex items-center gap-1 py-1.5 pl-2 pr-1.5">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={() => setExpanded((value) => !value)}
            className="flex min-h-12 min-w-0 flex-1 items-center gap-2 rounded-md px-1 py-1 text-left focus-visible:outline-2 focus-visible:outline-ring"
          >
            <span className="grid size-7 shrink-0 place-items-center rounded-full bg-muted text-xs font-semibold tabular-nums">
              {index + 1}
            </span>
            <span className="grid min-w-0 flex-1 gap-0.5">
              <span id={titleId} className="line-clamp-2 break-words text-sm font-semibold leading-snug">
                {mission.title}
              </span>
              <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-muted-foreground">
                <Badge variant={done ? 'success' : 'warning'} className="px-1.5 py-0">
                  {done ? 'Effectué' : 'À faire'}
                </Badge>
                <span className="truncate">{plannedLabel}</span>
                {siteAnswer ? (
                  <Badge variant={siteAnswer.variant} className="px-1.5 py-0">
                    {siteAnswer.label}
                  </Badge>
                ) : null}
                {coming ? (
                  <Badge variant={coming.received ? 'success' : 'info'} className="px-1.5 py-0">
                    <Package className="size-3" aria-hidden="true" />
                    {coming.count} pièce{coming.count > 1 ? 's' : ''} · {PARCEL_STATE[coming.state]}
                  </Badge>
                ) : null}
                {overlay?.waiting ? <PendingMark /> : null}
              </span>
            </span>
            <ChevronDown className={cn('size-4 shrink-0 text-muted-foreground transition-transform', expanded && 'rotate-180')} aria-hidden="true" />
          </button>
          {/* One tap: call the site, get directions (spec's Y ALLER, also in the full card). */}
          {mission.telSite ? (
            <Button asChild variant="ghost" size="icon" className="size-11 shrink-0 rounded-full text-primary">
              <a href={telHref(mission.telSite)} aria-label={`Appeler le site : ${mission.title}`}>
                <Phone aria-hidden="true" />
              </a>
            </Button>
          ) : null}
          <Button asChild variant="ghost" size="icon" className="size-11 shrink-0 rounded-full text-primary">
            <a href={mapsDirectionsUrl(mission)} target="_blank" rel="noopener noreferrer" aria-label={`Itinéraire : ${mission.title}`}>
              <Navigation aria-hidden="true" />
            </a>
          </Button>
        </div>

        {expanded ? (
          <div id={detailsId} className="grid gap-3 border-t px-4 pb-4 pt-3">
            <div className="grid min-w-0 gap-1">
              <span className="text-xs font-medium text-muted-foreground">
                {index + 1}. {mission.defibrillatorModel || 'Modèle non spécifié'}
              </span>
              <h4 className="break-words font-semibold leading-snug">{mission.title}</h4>
            </div>

            {parts && parts.length > 0 ? (
              <section aria-label="Pièces prévues pour ce défibrillateur" className="grid gap-1 rounded-md bg-info-soft/40 px-3 py-2 text-sm">
                <p className="flex items-center gap-1.5 font-medium">
                  <Package className="size-4 text-info" aria-hidden="true" /> Pièces prévues
                </p>
                <ul className="grid gap-0.5">
                  {parts.map((part) => (
                    <li key={`${part.shipmentId}-${part.kind}`} className="break-words">
                      {part.itemLabel} <span className="text-muted-foreground">({CONSUMABLE_KIND_LABELS[part.kind].toLowerCase()}, {PARCEL_STATE[part.shipmentStatus]})</span>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}

            <dl className="grid gap-1.5 text-sm">
              <div className="flex flex-wrap gap-x-1.5">
                <dt className="text-muted-foreground">N° de série :</dt>
                <dd className="break-all font-mono">{mission.serialNumber || 'Non renseigné'}</dd>
              </div>
              {mission.location ? (
                <div className="flex gap-1.5">
                  <dt>
                    <MapPin className="mt-0.5 size-4 text-muted-foreground" aria-label="Adresse" />
                  </dt>
                  <dd className="break-words">{mission.location}</dd>
                </div>
              ) : null}
              <div className="flex gap-1.5">
                <dt>
                  <Phone className="mt-0.5 size-4 text-muted-foreground" aria-label="Téléphone du site" />
                </dt>
                <dd>
                  {mission.telSite ? (
                    <a className="font-medium text-primary underline-offset-4 hover:underline" href={telHref(mission.telSite)}>
                      {mission.telSite}
                    </a>
                  ) : (
                    'Téléphone non renseigné'
                  )}
                </dd>
              </div>
              {mission.observations ? (
                <div className="grid gap-0.5">
                  <dt className="text-muted-foreground">Commentaire :</dt>
                  <dd className="whitespace-pre-line break-words">{mission.observations}</dd>
                </div>
              ) : null}
              {mission.progress.adminComments ? (
                <div className="grid gap-0.5 rounded-md bg-info-soft px-2 py-1.5">
                  <dt className="font-medium text-info">Commentaire de l’administrateur :</dt>
                  <dd className="whitespace-pre-line break-words">{mission.progress.adminComments}</dd>
                </div>
              ) : null}
              {leg ? (
                <div className="flex flex-wrap gap-x-1.5 text-muted-foreground">
                  <dt>Trajet depuis l’étape précédente :</dt>
                  <dd className="font-medium text-foreground">
                    {leg.distance === null ? 'Distance inconnue' : `${formatDistance(leg.distance)} · ${formatDuration(leg.duration)}`}
                  </dd>
                </div>
              ) : null}
            </dl>

            <WorkVisitSlot mission={mission} technicianId={technicianId} editable={editable} overlay={overlay} onChanged={onChanged} />

            <label className="flex min-h-11 cursor-pointer items-center justify-between gap-3 rounded-md border bg-background px-3 py-2">
              <span className="flex items-center gap-2 text-sm font-medium">
                {done ? 'Effectué' : 'À faire'}
                {overlay?.waiting && overlay.isCompleted !== undefined ? <PendingMark /> : null}
              </span>
              <Switch checked={done} disabled={!editable} onCheckedChange={toggle} aria-label={`Effectué : ${mission.title}`} />
            </label>

            <div className="grid grid-cols-2 gap-2">
              {mission.completionLink && !done ? (
                <Button asChild variant="default" size="lg">
                  <a href={mission.completionLink} target="_blank" rel="noopener noreferrer">
                    <CheckCircle2 aria-hidden="true" />
                    COMPLÉTER
                  </a>
                </Button>
              ) : (
                <Button variant="default" size="lg" disabled>
                  <CheckCircle2 aria-hidden="true" />
                  COMPLÉTER
                </Button>
              )}
              <Button asChild variant="outline" size="lg">
                <a href={mapsDirectionsUrl(mission)} target="_blank" rel="noopener noreferrer">
                  <Navigation aria-hidden="true" />
                  Y ALLER
                </a>
              </Button>
              <Button asChild variant="secondary" size="lg" className="col-span-2">
                <Link to={paths.technician.visitReport.getHref(mission.id)} aria-label={`Rapport de visite : ${mission.title}`}>
                  <ClipboardCheck aria-hidden="true" />
                  Rapport de visite
                  {overlay?.reportWaiting ? <PendingMark className="text-current" /> : null}
                </Link>
              </Button>
            </div>
          </div>
        ) : null}
      </article>
    </li>
  );
}
