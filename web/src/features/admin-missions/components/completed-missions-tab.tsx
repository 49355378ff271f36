import { useState } from 'react';
import { CheckCircle2, MapPin, Search } from 'lucide-react';
import { formatDepartment } from '@maillon/common/departments';
import { formatDate, formatEuros } from '@maillon/common/format';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { useMissions } from '../api/get-missions';
import { useDebouncedValue } from '../hooks/use-debounced-value';

const PAGE_SIZE = 24;

/** Missions terminées: read-only cards of completed missions. */
export function CompletedMissionsTab() {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim());
  const [offset, setOffset] = useState(0);
  const missions = useMissions({ status: 'completed', search: search || undefined, limit: PAGE_SIZE, offset });

  return (
    <section className="grid gap-5">
      <PageHeader title="Missions terminées" description="Les défibrillateurs traités, lot par lot." />
      <div className="relative w-full max-w-md">
        <label htmlFor="completed-search" className="sr-only">
          Rechercher une mission terminée
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          id="completed-search"
          type="search"
          className="pl-9"
          placeholder="Titre, lieu, n° de série, modèle…"
          value={searchText}
          onChange={(event) => {
            setSearchText(event.target.value);
            setOffset(0);
          }}
        />
      </div>
      {missions.isPending ? (
        <div className="grid gap-4 lg:grid-cols-2 xl:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-40" />
          ))}
        </div>
      ) : missions.isError ? (
        <ErrorState error={missions.error} />
      ) : missions.data.items.length === 0 ? (
        <EmptyState icon={<CheckCircle2 />} title="Aucune mission terminée" />
      ) : (
        <>
          <ul className="grid gap-4 lg:grid-cols-2 xl:grid-cols-3">
            {missions.data.items.map((mission) => (
              <li key={mission.id}>
                <Card className="grid h-full gap-2 p-4">
                  <div className="flex items-start justify-between gap-2">
                    <h3 className="font-semibold leading-tight">{mission.title}</h3>
                    <Badge variant="info">Terminée</Badge>
                  </div>
                  {mission.batchTitle ? <p className="text-sm text-muted-foreground">Lot : {mission.batchTitle}</p> : null}
                  <p className="text-sm">{[mission.serialNumber && `N° ${mission.serialNumber}`, mission.defibrillatorModel].filter(Boolean).join(' · ')}</p>
                  {mission.location ? (
                    <p className="flex items-start gap-1.5 text-sm text-muted-foreground">
                      <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> {mission.location}
                    </p>
                  ) : null}
                  <div className="mt-auto flex flex-wrap items-center gap-1.5 pt-1">
                    {mission.visitType ? <Badge variant="secondary">{mission.visitType}</Badge> : null}
                    {mission.department ? <Badge variant="outline">{formatDepartment(mission.department)}</Badge> : null}
                    <span className="ml-auto text-xs text-muted-foreground">
                      {formatEuros(mission.budget)}
                      {mission.deadline ? ` · ${formatDate(mission.deadline)}` : ''}
                    </span>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          <Pager offset={offset} limit={PAGE_SIZE} total={missions.data.total} onChange={setOffset} label="Pages des missions terminées" />
        </>
      )}
    </section>
  );
}
