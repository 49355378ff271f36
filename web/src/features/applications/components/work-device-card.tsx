import { useId, useState } from 'react';
import { CheckCircle2, MapPin, Navigation, Phone } from 'lucide-react';
import { formatDistance, formatDuration } from '@maillon/common/format';
import type { RouteStop, WorkMission } from '@maillon/common/schemas/field-work';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { useSaveProgress } from '../api/work-save-progress';
import { WorkVisitSlot } from './work-visit-slot';

/** The spec's refresh delay after a toggle. */
const TOGGLE_REFRESH_MS = 200;

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
  const [done, setDone] = useState(mission.progress.isCompleted);
  const [doneSeen, setDoneSeen] = useState(mission.progress.isCompleted);
  if (mission.progress.isCompleted !== doneSeen) {
    setDoneSeen(mission.progress.isCompleted);
    setDone(mission.progress.isCompleted);
  }
  const saveProgress = useSaveProgress();

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

        <WorkVisitSlot mission={mission} technicianId={technicianId} editable={editable} onChanged={onChanged} />

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
        </div>
      </Card>
    </li>
  );
}
