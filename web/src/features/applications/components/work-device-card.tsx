import { useEffect, useId, useRef, useState } from 'react';
import { CheckCircle2, ChevronDown, MapPin, Navigation, Phone, Send } from 'lucide-react';
import { formatDate, formatDistance, formatDuration } from '@maillon/common/format';
import { NO_SITE_EMAIL, VISIT_DATE_REQUIRED } from '@maillon/common/field-work-rules';
import type { RouteStop, WorkMission } from '@maillon/common/schemas/field-work';
import { NetworkRequired, PendingMark } from '@/components/offline/pending-mark';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { toast, toastError } from '@/components/ui/use-toast';
import { useOnlineStatus } from '@/hooks/use-online-status';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { refusalOf } from '@/lib/offline/queued-request';
import { useNotifyClient } from '../api/work-notify-client';
import { useSaveProgress } from '../api/work-save-progress';

/** A date typed in the field is saved once the technician pauses (or leaves the field). */
const DATE_SAVE_DELAY_MS = 800;

const parisDayFormatter = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });

/** ISO date-time → the "YYYY-MM-DD" of a date input, as the day in France. */
export function toDateInputValue(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : parisDayFormatter.format(date);
}

export function mapsDirectionsUrl(mission: Pick<WorkMission, 'location' | 'title'>): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(mission.location?.trim() || mission.title)}`;
}

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** A complete day a person would plan (the date input gives partial years while one types). */
function isPlannableDay(value: string): boolean {
  const match = /^(\d{4})-\d{2}-\d{2}$/.exec(value);
  return value === '' || (match !== null && Number(match[1]) >= 2000 && Number(match[1]) <= 2100);
}

/** What this phone changed on a device and the server may not show yet (decision 018). */
export interface DeviceOverlay {
  isCompleted?: boolean;
  /** "YYYY-MM-DD", or null when the date was removed. */
  plannedVisitDate?: string | null;
  /** A change waits for the network. */
  waiting: boolean;
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
  onChanged: () => void;
}

/**
 * One device of the lot (spec §2 Recruté view), compact for a phone (decision 018): one row with the route order, the
 * site, its status and planned date, and one-tap call and directions; a tap opens today's full card.
 */
export function WorkDeviceCard({ mission, index, technicianId, editable, leg, overlay, onChanged }: WorkDeviceCardProps) {
  const titleId = useId();
  const detailsId = useId();
  const dateId = useId();
  const [expanded, setExpanded] = useState(false);
  const online = useOnlineStatus();
  const serverDay = toDateInputValue(mission.progress.plannedVisitDate);
  const savedDay = overlay?.plannedVisitDate !== undefined ? (overlay.plannedVisitDate ?? '') : serverDay;
  const [day, setDay] = useState(savedDay);
  const [savedSeen, setSavedSeen] = useState(savedDay);
  // A new saved date (from the server or this phone's queue) replaces the field's value.
  if (savedDay !== savedSeen) {
    setSavedSeen(savedDay);
    setDay(savedDay);
  }
  const done = overlay?.isCompleted ?? mission.progress.isCompleted;
  const saveProgress = useSaveProgress();
  const notify = useNotifyClient();
  const [informing, setInforming] = useState(false);
  const dateTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (dateTimer.current) clearTimeout(dateTimer.current);
    },
    [],
  );

  const save = (patch: { isCompleted?: boolean; plannedVisitDate?: string | null }) =>
    saveProgress.send({ missionId: mission.id, technicianId, title: mission.title, patch });

  const toggle = (checked: boolean) => {
    save({ isCompleted: checked }).catch((error: unknown) =>
      toast({ title: 'Erreur de sauvegarde', description: refusalOf(error).message || 'Réessayez le toggle', variant: 'destructive' }),
    );
  };

  const saveDay = (value: string) => {
    if (dateTimer.current) clearTimeout(dateTimer.current);
    dateTimer.current = null;
    if (value === savedDay || !isPlannableDay(value)) return;
    save({ plannedVisitDate: value || null }).catch((error: unknown) => toastError('Erreur de sauvegarde', error, 'Impossible de sauvegarder les données'));
  };

  const onDayChange = (value: string) => {
    setDay(value);
    if (dateTimer.current) clearTimeout(dateTimer.current);
    dateTimer.current = setTimeout(() => saveDay(value), DATE_SAVE_DELAY_MS);
  };

  const informClient = async () => {
    if (!day) {
      toast({ title: 'Date manquante', description: VISIT_DATE_REQUIRED, variant: 'destructive' });
      return;
    }
    if (dateTimer.current) clearTimeout(dateTimer.current);
    setInforming(true);
    try {
      if (day !== serverDay) {
        try {
          await save({ plannedVisitDate: day });
        } catch (error) {
          toastError('Erreur de sauvegarde', error, 'Impossible de sauvegarder les données');
          return;
        }
      }
      try {
        await notify.mutateAsync({ missionId: mission.id, technicianId, visitDate: day });
        toast({ title: 'Client informé', description: `Le client a été prévenu de votre passage le ${formatDate(`${day}T12:00:00Z`)}.`, variant: 'success' });
      } catch (error) {
        if (error instanceof ApiError && error.userMessage === NO_SITE_EMAIL) {
          toast({ title: 'Date de passage enregistrée', description: NO_SITE_EMAIL });
        } else {
          toastError('Impossible d’informer le client', error);
        }
      }
      onChanged();
    } finally {
      setInforming(false);
    }
  };

  const plannedLabel = savedDay ? `Passage le ${formatDate(`${savedDay}T12:00:00Z`)}` : 'Date à prévoir';

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

            {editable ? (
              <div className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end">
                <Field id={dateId} label="Je passerais le :">
                  <Input type="date" value={day} onChange={(event) => onDayChange(event.target.value)} onBlur={() => saveDay(day)} className="h-11" />
                </Field>
                <Button variant="outline" size="lg" className="w-full sm:w-auto" disabled={!day || informing || !online} onClick={() => void informClient()}>
                  <Send aria-hidden="true" />
                  {informing ? 'Sauvegarde...' : 'Informer client'}
                </Button>
                {!online ? <NetworkRequired className="sm:col-span-2">Informer le client demande une connexion ; la date est enregistrée sur le téléphone.</NetworkRequired> : null}
              </div>
            ) : mission.progress.plannedVisitDate ? (
              <p className="text-sm">Passage prévu le {formatDate(mission.progress.plannedVisitDate)}</p>
            ) : null}

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
            </div>
          </div>
        ) : null}
      </article>
    </li>
  );
}
