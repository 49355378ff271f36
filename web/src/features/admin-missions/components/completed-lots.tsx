import { useState } from 'react';
import { CheckCircle2, UserCheck } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { formatDate, formatEuros, formatEurosShort } from '@maillon/common/format';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Pager } from '@/components/ui/pager';
import { useCompletedBatches } from '../api/get-completed-batches';
import { LOTS_PAGE_SIZE } from '../api/keys';

/** Terminés: finished lots with their missions and the recruited technician (read-only). */
export function CompletedLots({ search }: { search: string }) {
  const [offset, setOffset] = useState(0);
  const lots = useCompletedBatches({ search: search || undefined, limit: LOTS_PAGE_SIZE, offset });

  if (lots.isPending) return <Skeleton className="h-48" />;
  if (lots.isError) return <ErrorState error={lots.error} />;
  if (lots.data.items.length === 0) return <EmptyState icon={<CheckCircle2 />} title={search ? 'Aucun lot terminé ne correspond à la recherche' : 'Aucun lot terminé'} />;

  return (
    <div className="grid gap-4">
      {lots.data.items.map((lot) => (
        <Card key={lot.id} className="grid gap-3 p-4" role="article" aria-labelledby={`done-${lot.id}`}>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="grid gap-1">
              <h3 id={`done-${lot.id}`} className="font-semibold">
                {lot.title}
              </h3>
              <p className="text-sm text-muted-foreground">
                Offre HT pour 100% : {formatEurosShort(lot.price)} · {lot.defibrillatorsDone}/{lot.defibrillatorsSum} défibrillateurs traités ·{' '}
                {formatEuros(lot.amountPerDefib * lot.defibrillatorsDone)} validés
              </p>
            </div>
            <Badge variant="info">
              <CheckCircle2 className="size-3" aria-hidden="true" /> Terminé
            </Badge>
          </div>
          <p className="flex items-center gap-2 text-sm">
            <UserCheck className="size-4 text-muted-foreground" aria-hidden="true" />
            {lot.recruitedTechnician ? (
              <span>
                Réalisé par{' '}
                <strong>
                  {lot.recruitedTechnician.firstName} {lot.recruitedTechnician.lastName}
                </strong>
                {lot.recruitedTechnician.companyName ? ` (${lot.recruitedTechnician.companyName})` : ''}
              </span>
            ) : (
              <span className="text-muted-foreground">Aucun technicien recruté</span>
            )}
            {lot.deadline ? <span className="text-muted-foreground">· échéance {formatDate(lot.deadline)}</span> : null}
          </p>
          {lot.missions.length ? (
            <ul className="grid gap-1 rounded-md border text-sm" aria-label={`Missions du lot ${lot.title}`}>
              {lot.missions.map((mission) => (
                <li key={mission.id} className="flex flex-wrap items-center justify-between gap-2 border-b px-3 py-2 last:border-b-0">
                  <span>
                    <span className="font-medium">{mission.title}</span>
                    <span className="text-muted-foreground">
                      {' '}
                      · {[mission.serialNumber, mission.defibrillatorModel].filter(Boolean).join(' · ')}
                    </span>
                  </span>
                  {mission.department ? <Badge variant="outline">{formatDepartment(mission.department)}</Badge> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Aucune mission réalisée dans ce lot</p>
          )}
        </Card>
      ))}
      <Pager offset={offset} limit={LOTS_PAGE_SIZE} total={lots.data.total} onChange={setOffset} label="Pages des lots terminés" />
    </div>
  );
}
