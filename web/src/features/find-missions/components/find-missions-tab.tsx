import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { MapPinOff, SearchX } from 'lucide-react';
import { DEPARTMENT_CODES, formatDepartment } from '@maillon/common/departments';
import { LOT_RADII_KM, type LotSort } from '@maillon/common/lot-rules';
import type { AvailableLot } from '@maillon/common/schemas/lots';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Pills } from '@/components/ui/pills';
import { paths } from '@/config/paths';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import type { TechnicianTabProps } from '@/types/tabs';
import { useApplyToLot } from '../api/apply-to-lot';
import type { AvailableLotsFilters } from '../api/available-lots-path';
import { useAvailableLots } from '../api/get-available-lots';
import { useLotFilters } from '../api/get-lot-filters';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { LotCard } from './lot-card';

// The map (Leaflet, the outline of France) loads only when the technician opens it.
const LotsMap = lazy(() => import('./lots-map').then((m) => ({ default: m.LotsMap })));

type View = 'list' | 'map';

const departmentOrder = (code: string) => {
  const index = DEPARTMENT_CODES.indexOf(code);
  return index === -1 ? DEPARTMENT_CODES.length : index;
};

export function FindMissionsTab({ technician }: TechnicianTabProps) {
  const [department, setDepartment] = useState('');
  const [tag, setTag] = useState('');
  const [searchText, setSearchText] = useState('');
  const [sort, setSort] = useState<LotSort | ''>('');
  const [radius, setRadius] = useState<AvailableLotsFilters['radius']>('');
  const [view, setView] = useState<View>('list');
  const search = useDebouncedValue(searchText.trim(), 300);
  // Without a choice the server sorts nearest first when it knows the address (and the entry's early read matches).
  const filters: AvailableLotsFilters = { department, tag, search, sort, radius };
  const hasFilters = Boolean(department || tag || search || radius);
  const hasAddress = Boolean(technician.postalCode?.trim() || technician.city?.trim());
  const shownSort: LotSort = sort || (hasAddress ? 'nearest' : 'recent');

  const lots = useAvailableLots(technician.id, filters);
  const facets = useLotFilters();
  const apply = useApplyToLot(technician.id);

  const departments = [...new Set([...(facets.data?.departments ?? []), ...(department ? [department] : [])])].sort(
    (a, b) => departmentOrder(a) - departmentOrder(b),
  );
  const tags = [...new Set([...(facets.data?.tags ?? []), ...(tag ? [tag] : [])])].sort((a, b) => a.localeCompare(b, 'fr'));
  const items = lots.data?.pages.flatMap((page) => page.items) ?? [];
  const total = lots.data?.pages[0]?.total ?? 0;

  const onApply = (lot: AvailableLot) => {
    apply.mutate(lot.id, {
      onSuccess: () => toast({ title: 'Candidature envoyée avec succès', description: lot.title, variant: 'success' }),
      onError: (error) =>
        toast(
          error instanceof ApiError
            ? { title: 'Erreur lors de la candidature', description: error.userMessage ?? 'Erreur lors de la candidature', variant: 'destructive' }
            : { title: 'Erreur de connexion', description: 'Erreur de connexion au serveur', variant: 'destructive' },
        ),
    });
  };

  const clearFilters = () => {
    setDepartment('');
    setTag('');
    setSearchText('');
    setRadius('');
  };
  const profileHref = paths.technician.dashboard.getHref({ tab: 'profile' });
  // An address was given but could not be placed: no lot gets a distance although some have a position.
  const addressNotFound = hasAddress && items.length > 0 && items.every((lot) => lot.distance === null) && items.some((lot) => lot.position !== null);

  return (
    <section>
      <PageHeader title="Trouver des missions" description="Les lots de missions ouverts aux candidatures. Tous les prix sont hors taxes." />

      {!hasAddress ? (
        <div role="note" className="mb-4 flex items-start gap-3 rounded-lg border border-info/30 bg-info-soft px-4 py-3 text-sm">
          <MapPinOff className="mt-0.5 size-5 shrink-0 text-info" aria-hidden="true" />
          <p>
            Ajoutez votre adresse pour voir à quelle distance sont les lots et les trier du plus proche au plus lointain.{' '}
            <Link to={profileHref} className="font-medium text-primary underline underline-offset-2">
              Compléter mon adresse dans Mon compte
            </Link>
          </p>
        </div>
      ) : addressNotFound ? (
        <div role="note" className="mb-4 flex items-start gap-3 rounded-lg border border-warning/30 bg-warning-soft px-4 py-3 text-sm">
          <MapPinOff className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
          <p>
            Votre adresse n’a pas pu être localisée : les distances ne sont pas calculées.{' '}
            <Link to={profileHref} className="font-medium text-primary underline underline-offset-2">
              Vérifier le code postal et la ville dans Mon compte
            </Link>
          </p>
        </div>
      ) : null}

      {/* Two filters a row on a phone (short option texts), so that the first lots show without scrolling. */}
      <form role="search" aria-label="Filtrer les lots" className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-5" onSubmit={(e) => e.preventDefault()}>
        <Field id="lots-search" label="Recherche" className="col-span-2 lg:col-span-1">
          <Input
            type="search"
            placeholder="Titre, description, tag..."
            value={searchText}
            maxLength={200}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </Field>
        <Field id="lots-department" label="Département">
          <NativeSelect value={department} onChange={(e) => setDepartment(e.target.value)}>
            <option value="">Tous</option>
            {departments.map((code) => (
              <option key={code} value={code}>
                {formatDepartment(code)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="lots-tag" label="Tag">
          <NativeSelect value={tag} onChange={(e) => setTag(e.target.value)}>
            <option value="">Tous</option>
            {tags.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="lots-sort" label="Trier par">
          <NativeSelect value={shownSort} onChange={(e) => setSort(e.target.value as LotSort)}>
            <option value="nearest" disabled={!hasAddress}>
              Plus proches
            </option>
            <option value="recent">Plus récents</option>
          </NativeSelect>
        </Field>
        <Field id="lots-radius" label="Distance">
          <NativeSelect value={radius} disabled={!hasAddress} onChange={(e) => setRadius(e.target.value as AvailableLotsFilters['radius'])}>
            <option value="">Toutes</option>
            {LOT_RADII_KM.map((km) => (
              <option key={km} value={String(km)}>
                {km} km max
              </option>
            ))}
          </NativeSelect>
        </Field>
      </form>

      {/* The list's count beside the view switch: one row fewer before the first lot on a phone. */}
      <div className="mb-3 flex items-center justify-between gap-3">
        <Pills
          label="Affichage des lots"
          value={view}
          onChange={setView}
          options={[
            { value: 'list', label: 'Liste' },
            { value: 'map', label: 'Carte' },
          ]}
        />
        {view === 'list' && items.length > 0 ? (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total} {total > 1 ? 'lots disponibles' : 'lot disponible'}
          </p>
        ) : null}
      </div>

      {view === 'map' ? (
        <Suspense fallback={<Skeleton className="h-[60vh] min-h-80" />}>
          <LotsMap
            technician={technician}
            filters={{ department, tag, search, radius }}
            applyingId={apply.isPending ? (apply.variables ?? null) : null}
            onApply={onApply}
          />
        </Suspense>
      ) : lots.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : lots.isError ? (
        <ErrorState error={lots.error} />
      ) : items.length === 0 ? (
        hasFilters ? (
          <EmptyState icon={<SearchX />} title="Aucun lot de missions trouvé pour ces critères">
            <Button variant="outline" className="mt-2" onClick={clearFilters}>
              Effacer les filtres
            </Button>
          </EmptyState>
        ) : (
          <EmptyState icon={<SearchX />} title="Aucun lot de missions disponible" />
        )
      ) : (
        <>
          <ul className={lots.isPlaceholderData ? 'grid gap-3 opacity-60' : 'grid gap-3'} aria-label="Lots de missions">
            {items.map((lot) => (
              <LotCard
                key={lot.id}
                lot={lot}
                technician={technician}
                applying={apply.isPending && apply.variables === lot.id}
                onApply={() => onApply(lot)}
              />
            ))}
          </ul>
          {lots.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button variant="outline" size="lg" loading={lots.isFetchingNextPage} onClick={() => void lots.fetchNextPage()}>
                Afficher plus de lots
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
