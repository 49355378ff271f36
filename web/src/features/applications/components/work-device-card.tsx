import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CheckCircle2, ClipboardCheck, MapPin, Navigation, Phone, Send } from 'lucide-react';
import { formatDate, formatDistance, formatDuration } from '@maillon/common/format';
import { NO_SITE_EMAIL, VISIT_DATE_REQUIRED } from '@maillon/common/field-work-rules';
import type { RouteStop, WorkMission } from '@maillon/common/schemas/field-work';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { toast, toastError } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useNotifyClient } from '../api/work-notify-client';
import { useSaveProgress } from '../api/work-save-progress';

/** The spec's refresh delay after a toggle. */
const TOGGLE_REFRESH_MS = 200;

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

interface WorkDeviceCardProps {
  mission: WorkMission;
  index: number;
  technicianId: string;
  /** Recruté: the device can be changed; a finished lot is read-only. */
  editable: boolean;
  /** Leg from the previous stop, after "Trier pour économiser ma route". */
  leg: RouteStop | undefined;
  onChanged: () => void;
}

/** One device of the lot, as a card comfortable at 390 px (spec §2 Recruté view). */
export function WorkDeviceCard({ mission, index, technicianId, editable, leg, onChanged }: WorkDeviceCardProps) {
  const titleId = useId();
  const dateId = useId();
  const savedDay = toDateInputValue(mission.progress.plannedVisitDate);
  const [day, setDay] = useState(savedDay);
  const [savedSeen, setSavedSeen] = useState(savedDay);
  // A new saved date from the server (refetch) replaces the field's value.
  if (savedDay !== savedSeen) {
    setSavedSeen(savedDay);
    setDay(savedDay);
  }
  const [done, setDone] = useState(mission.progress.isCompleted);
  const [doneSeen, setDoneSeen] = useState(mission.progress.isCompleted);
  if (mission.progress.isCompleted !== doneSeen) {
    setDoneSeen(mission.progress.isCompleted);
    setDone(mission.progress.isCompleted);
  }
  const saveProgress = useSaveProgress();
  const notify = useNotifyClient();
  const [informing, setInforming] = useState(false);

  const toggle = (checked: boolean) => {
    setDone(checked);
    saveProgress.mutate(
      { missionId: mission.id, technicianId, patch: { isCompleted: checked } },
      {
        onSuccess: () => setTimeout(onChanged, TOGGLE_REFRESH_MS),
        onError: () => {
          setDone(!checked);
          toast({ title: 'Erreur de sauvegarde', description: 'Réessayez le toggle', variant: 'destructive' });
        },
      },
    );
  };

  const informClient = async () => {
    if (!day) {
      toast({ title: 'Date manquante', description: VISIT_DATE_REQUIRED, variant: 'destructive' });
      return;
    }
    setInforming(true);
    try {
      if (day !== savedDay) {
        try {
          await saveProgress.mutateAsync({ missionId: mission.id, technicianId, patch: { plannedVisitDate: day } });
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

  return (
    <li>
      <Card role="article" aria-labelledby={titleId} className={cn('grid gap-3 p-4', done && 'border-success/40 bg-success-soft/30')}>
        <div className="flex items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <span className="text-xs font-medium text-muted-foreground">
              {index + 1}. {mission.defibrillatorModel || 'Modèle non spécifié'}
            </span>
            <h4 id={titleId} className="break-words font-semibold leading-snug">
              {mission.title}
            </h4>
          </div>
          <Badge variant={done ? 'success' : 'warning'} className="shrink-0">
            {done ? 'Effectué' : 'À faire'}
          </Badge>
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
                <a className="font-medium text-primary underline-offset-4 hover:underline" href={`tel:${mission.telSite.replace(/\s+/g, '')}`}>
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
              <Input type="date" value={day} onChange={(event) => setDay(event.target.value)} className="h-11" />
            </Field>
            <Button variant="outline" size="lg" className="w-full sm:w-auto" disabled={!day || informing} onClick={() => void informClient()}>
              <Send aria-hidden="true" />
              {informing ? 'Sauvegarde...' : 'Informer client'}
            </Button>
          </div>
        ) : mission.progress.plannedVisitDate ? (
          <p className="text-sm">Passage prévu le {formatDate(mission.progress.plannedVisitDate)}</p>
        ) : null}

        <label className="flex min-h-11 cursor-pointer items-center justify-between gap-3 rounded-md border bg-background px-3 py-2">
          <span className="text-sm font-medium">{done ? 'Effectué' : 'À faire'}</span>
          <Switch
            checked={done}
            disabled={!editable || saveProgress.isPending}
            onCheckedChange={toggle}
            aria-label={`Effectué : ${mission.title}`}
          />
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
            </Link>
          </Button>
        </div>
      </Card>
    </li>
  );
}
