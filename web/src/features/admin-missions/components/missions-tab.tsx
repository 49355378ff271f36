import { lazy, Suspense, useCallback, useState } from 'react';
import { ChevronDown, FolderInput, Inbox, Layers, Plus, Search, ShieldAlert } from 'lucide-react';
import type { AdminBatch } from '@maillon/common/schemas/admin-lots';
import type { Mission } from '@maillon/common/schemas/admin-missions';
import { formatTotal } from '@maillon/common/format';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Input } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { Pills } from '@/components/ui/pills';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { useBatches } from '../api/get-batches';
import { useMissions } from '../api/get-missions';
import { useSystemBatch } from '../api/get-system-batch';
import { LOTS_PAGE_SIZE, UNSORTED_PAGE_SIZE } from '../api/keys';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { AtsDialog } from './ats-dialog';
import { CompletedLots } from './completed-lots';
import { LotCard, LotMissions, type Selection } from './lot-card';
import { LotFormDialog } from './lot-form-dialog';
import { CreateMissionDialog, EditMissionDialog } from './mission-form-dialog';
import { MissionRow } from './mission-row';
import { OrganiseDialog } from './organise-dialog';

type SubTab = 'active' | 'completed';
type View = 'list' | 'map';

// The map (Leaflet, the outline of France) loads only when the admin opens it.
const MissionsMap = lazy(() => import('./missions-map').then((m) => ({ default: m.MissionsMap })));

function useSelection(): Selection & { ids: string[]; clear: () => void } {
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const set = useCallback((ids: string[], value: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (value) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
  return { ids: [...selected], isSelected: (id) => selected.has(id), set, clear: () => setSelected(new Set()) };
}

/**
 * What another feature adds to each lot card of a page: a hook given the page's lots (so it can read what it needs for
 * all of them at once), answering each card's actions.
 */
export type UseLotActions = (lots: readonly AdminBatch[]) => (lot: AdminBatch) => React.ReactNode;

const NO_LOTS: readonly AdminBatch[] = [];
const useNoLotActions: UseLotActions = () => () => null;

/** Missions & Lots: "À trier", the lot cards, the system lot, Terminés; Organiser, Créer un lot, ATS. */
export function MissionsTab({ useLotActions = useNoLotActions }: { useLotActions?: UseLotActions } = {}) {
  const [subTab, setSubTab] = useState<SubTab>('active');
  const [view, setView] = useState<View>('list');
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim());
  const selection = useSelection();
  const [organiseOpen, setOrganiseOpen] = useState(false);
  const [lotForm, setLotForm] = useState<{ open: boolean; lot?: AdminBatch | undefined }>({ open: false });
  const [atsLot, setAtsLot] = useState<AdminBatch | null>(null);
  const [editMission, setEditMission] = useState<Mission | null>(null);
  const [createMissionOpen, setCreateMissionOpen] = useState(false);

  const n = selection.ids.length;
  const openOrganise = () => {
    if (n === 0) {
      toast({ title: 'Aucune mission sélectionnée', variant: 'destructive' });
      return;
    }
    setOrganiseOpen(true);
  };

  return (
    <section className="grid gap-5">
      <PageHeader
        title="Missions & Lots"
        description="Organisez les missions validées en lots, publiez-les et recrutez un technicien par lot."
        actions={
          <>
            <Button variant="outline" onClick={() => setCreateMissionOpen(true)}>
              <Plus aria-hidden="true" /> Nouvelle mission
            </Button>
            <Button variant="outline" onClick={openOrganise}>
              <FolderInput aria-hidden="true" /> Organiser ({n} selected)
            </Button>
            <Button onClick={() => setLotForm({ open: true })}>
              <Layers aria-hidden="true" /> Créer un lot
            </Button>
          </>
        }
      />

      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="relative w-full max-w-md">
          <label htmlFor="missions-search" className="sr-only">
            Rechercher une mission
          </label>
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            id="missions-search"
            type="search"
            className="pl-9"
            placeholder="Titre, lieu, département, n° de série, modèle…"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        </div>
        <div className="flex flex-wrap gap-3">
          {subTab === 'active' ? (
            <Pills
              label="Affichage"
              value={view}
              onChange={setView}
              options={[
                { value: 'list', label: 'Liste' },
                { value: 'map', label: 'Carte' },
              ]}
            />
          ) : null}
          <Pills
            label="Lots"
            value={subTab}
            onChange={setSubTab}
            options={[
              { value: 'active', label: 'Actifs' },
              { value: 'completed', label: 'Terminés' },
            ]}
          />
        </div>
      </div>

      {subTab === 'active' && view === 'map' ? (
        <Suspense fallback={<Skeleton className="h-[calc(100vh-23rem)] min-h-96" />}>
          <MissionsMap selection={selection} onOrganise={openOrganise} onClear={selection.clear} />
        </Suspense>
      ) : subTab === 'active' ? (
        <>
          <UnsortedSection key={`unsorted-${search}`} search={search} selection={selection} onEditMission={setEditMission} />
          <ActiveLots
            useLotActions={useLotActions}
            key={`lots-${search}`}
            search={search}
            selection={selection}
            onEdit={(lot) => setLotForm({ open: true, lot })}
            onAts={setAtsLot}
            onEditMission={setEditMission}
            onCreate={() => setLotForm({ open: true })}
          />
          <SystemLot search={search} selection={selection} onEditMission={setEditMission} />
        </>
      ) : (
        <CompletedLots key={`done-${search}`} search={search} />
      )}

      <OrganiseDialog open={organiseOpen} onOpenChange={setOrganiseOpen} missionIds={selection.ids} onDone={selection.clear} />
      <LotFormDialog open={lotForm.open} lot={lotForm.lot} onOpenChange={(open) => setLotForm((current) => ({ ...current, open }))} />
      <AtsDialog lot={atsLot} onOpenChange={(open) => !open && setAtsLot(null)} />
      <EditMissionDialog mission={editMission} onOpenChange={(open) => !open && setEditMission(null)} />
      <CreateMissionDialog open={createMissionOpen} onOpenChange={setCreateMissionOpen} />
    </section>
  );
}

function UnsortedSection({ search, selection, onEditMission }: { search: string; selection: Selection; onEditMission: (m: Mission) => void }) {
  const [open, setOpen] = useState(true);
  const [offset, setOffset] = useState(0);
  const missions = useMissions({ unbatched: true, search: search || undefined, limit: UNSORTED_PAGE_SIZE, offset });
  const items = missions.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((m) => selection.isSelected(m.id));
  const someSelected = items.some((m) => selection.isSelected(m.id));

  return (
    <Card aria-labelledby="unsorted-title">
      <div className="flex items-center gap-3 px-4 py-3">
        <Checkbox
          id="unsorted-select-all"
          checked={allSelected ? true : someSelected ? 'indeterminate' : false}
          disabled={items.length === 0}
          onCheckedChange={(checked) => selection.set(items.map((m) => m.id), checked === true)}
          aria-label="Tout sélectionner dans À trier"
        />
        <button
          type="button"
          className="flex flex-1 items-center gap-2 text-left"
          aria-expanded={open}
          aria-controls="unsorted-list"
          onClick={() => setOpen(!open)}
        >
          <Inbox className="size-5 text-primary" aria-hidden="true" />
          <h2 id="unsorted-title" className="text-lg font-semibold">
            À trier
          </h2>
          <Badge variant="secondary">{missions.data ? formatTotal(missions.data.total, missions.data.capped) : '…'}</Badge>
          <span className="text-sm text-muted-foreground">missions sans lot</span>
          <ChevronDown className={cn('ml-auto size-5 transition-transform', open && 'rotate-180')} aria-hidden="true" />
        </button>
      </div>
      {open ? (
        <div id="unsorted-list" className="border-t">
          {missions.isPending ? (
            <div className="grid gap-2 p-4">
              <Skeleton className="h-12" />
              <Skeleton className="h-12" />
            </div>
          ) : missions.isError ? (
            <ErrorState error={missions.error} className="m-4" />
          ) : items.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-muted-foreground">
              {search ? 'Aucune mission à trier ne correspond à la recherche' : 'Aucune mission à trier : validez des suggestions pour en ajouter.'}
            </p>
          ) : (
            <>
              <ul className="divide-y" aria-label="Missions à trier">
                {items.map((mission) => (
                  <MissionRow
                    key={mission.id}
                    mission={mission}
                    selected={selection.isSelected(mission.id)}
                    onSelectedChange={(selected) => selection.set([mission.id], selected)}
                    onEdit={onEditMission}
                  />
                ))}
              </ul>
              <Pager className="py-3" offset={offset} limit={UNSORTED_PAGE_SIZE} total={missions.data.total} capped={missions.data.capped} onChange={setOffset} label="Pages des missions à trier" />
            </>
          )}
        </div>
      ) : null}
    </Card>
  );
}

interface ActiveLotsProps {
  search: string;
  selection: Selection;
  onEdit: (lot: AdminBatch) => void;
  onAts: (lot: AdminBatch) => void;
  onEditMission: (m: Mission) => void;
  onCreate: () => void;
  useLotActions: UseLotActions;
}

function ActiveLots({ search, selection, onEdit, onAts, onEditMission, onCreate, useLotActions }: ActiveLotsProps) {
  const [offset, setOffset] = useState(0);
  const lots = useBatches({ search: search || undefined, limit: LOTS_PAGE_SIZE, offset });
  const lotActions = useLotActions(lots.data?.items ?? NO_LOTS);

  return (
    <section aria-labelledby="lots-title" className="grid gap-3">
      <h2 id="lots-title" className="flex items-center gap-2 text-lg font-semibold">
        Lots actifs {lots.data ? <Badge variant="secondary">{lots.data.total}</Badge> : null}
      </h2>
      {lots.isPending ? (
        <div className="grid gap-4 xl:grid-cols-2">
          <Skeleton className="h-64" />
          <Skeleton className="h-64" />
        </div>
      ) : lots.isError ? (
        <ErrorState error={lots.error} />
      ) : lots.data.items.length === 0 ? (
        <EmptyState icon={<Layers />} title={search ? 'Aucun lot ne correspond à la recherche' : 'Aucun lot actif'}>
          {search ? null : (
            <Button size="sm" className="mt-2" onClick={onCreate}>
              Créer un lot
            </Button>
          )}
        </EmptyState>
      ) : (
        <>
          <div className="grid items-start gap-4 xl:grid-cols-2">
            {lots.data.items.map((lot) => (
              <LotCard key={lot.id} lot={lot} search={search} selection={selection} onEdit={onEdit} onAts={onAts} onEditMission={onEditMission} extraActions={lotActions(lot)} />
            ))}
          </div>
          <Pager offset={offset} limit={LOTS_PAGE_SIZE} total={lots.data.total} onChange={setOffset} label="Pages des lots" />
        </>
      )}
    </section>
  );
}

/** "Défibrillateurs de missions annulées": managed by the server; its missions leave it through Organiser. */
function SystemLot({ search, selection, onEditMission }: { search: string; selection: Selection; onEditMission: (m: Mission) => void }) {
  const [open, setOpen] = useState(false);
  const system = useSystemBatch();
  if (system.isPending) return <Skeleton className="h-20" />;
  if (system.isError) return <ErrorState error={system.error} />;
  const lot = system.data;
  return (
    <Card className="border-dashed bg-muted/40" role="article" aria-labelledby="system-lot-title">
      <div className="flex flex-wrap items-center gap-3 px-4 py-3">
        <ShieldAlert className="size-5 text-warning" aria-hidden="true" />
        <div className="grid flex-1 gap-0.5">
          <h2 id="system-lot-title" className="font-semibold">
            {lot.title}
          </h2>
          <p className="text-sm text-muted-foreground">
            Lot géré automatiquement : les défibrillateurs non traités des lots terminés y arrivent. Sélectionnez-les puis « Organiser » pour les
            réaffecter.
          </p>
        </div>
        <Badge variant="warning">{lot.defibrillatorsSum} défibrillateur{lot.defibrillatorsSum > 1 ? 's' : ''}</Badge>
        <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
          Missions <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
        </Button>
      </div>
      {open ? (
        <div className="border-t bg-card">
          <LotMissions batchId={lot.id} search={search} selection={selection} onEditMission={onEditMission} />
        </div>
      ) : null}
    </Card>
  );
}
