import { useState } from 'react';
import { Link } from 'react-router';
import { CalendarDays, ChevronDown, Eye, EyeOff, Pencil, Trash2, Truck, Users } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { formatDate, formatEuros, formatEurosShort } from '@maillon/common/format';
import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import type { Mission } from '@maillon/common/schemas/admin-missions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState, Spinner } from '@/components/ui/feedback';
import { toast, toastError } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useDeleteBatch } from '../api/delete-batch';
import { useMissions } from '../api/get-missions';
import { LOT_MISSIONS_PAGE_SIZE } from '../api/keys';
import { MissionRow } from './mission-row';

export interface Selection {
  isSelected: (id: string) => boolean;
  set: (ids: string[], selected: boolean) => void;
}

/** The missions of a lot, loaded when the card is opened, each selectable for Organiser. */
export function LotMissions({ batchId, search, selection, onEditMission }: { batchId: string; search: string; selection: Selection; onEditMission: (m: Mission) => void }) {
  const missions = useMissions({ batchId, search: search || undefined, limit: LOT_MISSIONS_PAGE_SIZE, offset: 0 });
  if (missions.isPending) return <Spinner label="Chargement des missions..." className="py-4" />;
  if (missions.isError) return <ErrorState error={missions.error} />;
  if (missions.data.items.length === 0) {
    return <p className="px-4 py-3 text-sm text-muted-foreground">{search ? 'Aucune mission du lot ne correspond à la recherche' : 'Aucune mission dans ce lot'}</p>;
  }
  return (
    <ul className="divide-y" aria-label="Missions du lot">
      {missions.data.items.map((mission) => (
        <MissionRow
          key={mission.id}
          mission={mission}
          selected={selection.isSelected(mission.id)}
          onSelectedChange={(selected) => selection.set([mission.id], selected)}
          onEdit={onEditMission}
        />
      ))}
    </ul>
  );
}

interface LotCardProps {
  lot: AdminBatch;
  search: string;
  selection: Selection;
  onEdit: (lot: AdminBatch) => void;
  onAts: (lot: AdminBatch) => void;
  onEditMission: (mission: Mission) => void;
  /** Actions composed by the app (the « Colis proposé » of the shipments feature). */
  extraActions?: React.ReactNode;
}

/** An active lot: price "Offre HT pour 100%", server figures, Modifier, Supprimer, ATS, Voir Colis. */
export function LotCard({ lot, search, selection, onEdit, onAts, onEditMission, extraActions }: LotCardProps) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteBatch();
  const visible = lot.visibility === 'visible';
  const atsDisabled = !visible && lot.applicationCount === 0;
  const progress = lot.defibrillatorsSum > 0 ? Math.round((lot.defibrillatorsDone / lot.defibrillatorsSum) * 100) : 0;
  const titleId = `lot-${lot.id}-title`;

  const onDelete = async () => {
    try {
      await remove.mutateAsync(lot.id);
      toast({ title: 'Lot supprimé avec succès', variant: 'success' });
    } catch (error) {
      toastError('Erreur lors de la suppression', error);
    }
  };

  return (
    <Card className="flex flex-col" aria-labelledby={titleId} role="article">
      <div className="grid gap-3 p-4">
        <div className="flex items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <h3 id={titleId} className="font-semibold leading-tight">
              {lot.title}
            </h3>
            {lot.description ? <p className="line-clamp-2 text-sm text-muted-foreground">{lot.description}</p> : null}
          </div>
          <Badge variant={visible ? 'success' : 'secondary'}>
            {visible ? <Eye className="size-3" aria-hidden="true" /> : <EyeOff className="size-3" aria-hidden="true" />}
            {visible ? 'Visible' : 'Invisible'}
          </Badge>
        </div>

        <dl className="grid grid-cols-3 gap-3 rounded-md bg-muted px-3 py-2.5 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Offre HT pour 100%</dt>
            <dd className="text-base font-semibold tabular-nums">{formatEurosShort(lot.price)}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Défibrillateurs</dt>
            <dd className="text-base font-semibold tabular-nums">
              {lot.defibrillatorsDone}/{lot.defibrillatorsSum}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Par défibrillateur</dt>
            <dd className="text-base font-semibold tabular-nums">{formatEuros(lot.amountPerDefib)}</dd>
          </div>
        </dl>
        {lot.defibrillatorsSum > 0 ? (
          <div className="h-1.5 overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Avancement" aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
            <div className="h-full bg-success" style={{ width: `${progress}%` }} />
          </div>
        ) : null}

        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          {lot.deadline ? (
            <span className="flex items-center gap-1.5">
              <CalendarDays className="size-4" aria-hidden="true" /> Échéance {formatDate(lot.deadline)}
            </span>
          ) : null}
          <span className="flex items-center gap-1.5">
            <Users className="size-4" aria-hidden="true" />
            {lot.applicationCount} candidature{lot.applicationCount > 1 ? 's' : ''}
            {lot.pendingApplicationCount ? ` (${lot.pendingApplicationCount} en attente)` : ''}
          </span>
        </div>
        {lot.recruitedTechnician ? (
          <p className="text-sm">
            Technicien retenu :{' '}
            <strong>
              {lot.recruitedTechnician.firstName} {lot.recruitedTechnician.lastName}
            </strong>
          </p>
        ) : null}
        {lot.departments.length || lot.tags.length ? (
          <div className="flex flex-wrap gap-1.5">
            {lot.departments.map((code) => (
              <Badge key={code} variant="outline">
                {formatDepartment(code)}
              </Badge>
            ))}
            {lot.tags.map((tag) => (
              <Badge key={tag} variant="info">
                {tag}
              </Badge>
            ))}
          </div>
        ) : null}
      </div>

      <div className="mt-auto flex flex-wrap items-center gap-2 border-t px-4 py-3">
        <Button size="sm" variant="outline" onClick={() => onEdit(lot)}>
          <Pencil aria-hidden="true" /> Modifier
        </Button>
        <ConfirmDialog
          trigger={
            <Button size="sm" variant="outline" disabled={lot.defibrillatorsSum > 0} title={lot.defibrillatorsSum > 0 ? 'Videz le lot pour pouvoir le supprimer' : undefined}>
              <Trash2 aria-hidden="true" /> Supprimer
            </Button>
          }
          title={`Supprimer le lot « ${lot.title} » ?`}
          description="Le lot est vide : il sera supprimé définitivement, avec ses candidatures."
          confirmLabel="Supprimer"
          onConfirm={onDelete}
        />
        <Button size="sm" onClick={() => onAts(lot)} disabled={atsDisabled} title={atsDisabled ? 'Rendez le lot visible pour recevoir des candidatures' : undefined}>
          <Users aria-hidden="true" /> ATS
        </Button>
        {lot.hasShipments ? (
          <Button size="sm" variant="outline" asChild>
            <Link to={paths.admin.dashboard.getHref({ tab: 'shipments', batchId: lot.id })}>
              <Truck aria-hidden="true" /> Voir Colis
            </Link>
          </Button>
        ) : null}
        {extraActions}
        <Button size="sm" variant="ghost" className="ml-auto" aria-expanded={open} onClick={() => setOpen(!open)}>
          Missions ({lot.defibrillatorsSum}) <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
        </Button>
      </div>
      {open ? (
        <div className="border-t">
          <LotMissions batchId={lot.id} search={search} selection={selection} onEditMission={onEditMission} />
        </div>
      ) : null}
    </Card>
  );
}
