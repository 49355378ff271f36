import { Pencil, Send } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { MISSION_STATUS_LABELS } from '@maillon/common/enums';
import type { Mission } from '@maillon/common/schemas/admin-missions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { toast, toastError } from '@/components/ui/use-toast';
import { usePublishMission } from '../api/publish-mission';

const STATUS_VARIANT = { draft: 'warning', active: 'success', completed: 'info', cancelled: 'danger' } as const;

interface MissionRowProps {
  mission: Mission;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onEdit: (mission: Mission) => void;
}

/** A mission line with its selection box (for Organiser), Modifier and, for a draft, Publier. */
export function MissionRow({ mission, selected, onSelectedChange, onEdit }: MissionRowProps) {
  const publish = usePublishMission();
  const checkboxId = `select-${mission.id}`;
  return (
    <li className="flex items-start gap-3 px-4 py-3">
      <Checkbox
        id={checkboxId}
        className="mt-0.5"
        checked={selected}
        onCheckedChange={(checked) => onSelectedChange(checked === true)}
        aria-label={`Sélectionner ${mission.title}`}
      />
      <div className="grid min-w-0 flex-1 gap-1">
        <label htmlFor={checkboxId} className="cursor-pointer font-medium leading-tight">
          {mission.title}
        </label>
        <p className="truncate text-sm text-muted-foreground">
          {[mission.serialNumber && `N° ${mission.serialNumber}`, mission.defibrillatorModel, mission.location].filter(Boolean).join(' · ')}
        </p>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant={STATUS_VARIANT[mission.status]}>{MISSION_STATUS_LABELS[mission.status]}</Badge>
          {mission.visitType ? <Badge variant="info">{mission.visitType}</Badge> : null}
          {mission.department ? <Badge variant="outline">{formatDepartment(mission.department)}</Badge> : null}
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        {mission.status === 'draft' ? (
          <Button
            size="sm"
            variant="outline"
            loading={publish.isPending}
            onClick={async () => {
              try {
                await publish.mutateAsync(mission.id);
                toast({ title: 'Mission publiée', variant: 'success' });
              } catch (error) {
                toastError('Erreur lors de la publication', error);
              }
            }}
          >
            <Send aria-hidden="true" /> Publier
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={() => onEdit(mission)} aria-label={`Modifier ${mission.title}`}>
          <Pencil aria-hidden="true" /> Modifier
        </Button>
      </div>
    </li>
  );
}
