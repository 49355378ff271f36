import { useState } from 'react';
import { SearchX } from 'lucide-react';
import { DEPARTMENT_CODES, formatDepartment } from '@maillon/common/departments';
import type { AvailableLot } from '@maillon/common/schemas/lots';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import type { TechnicianTabProps } from '@/types/tabs';
import { useApplyToLot } from '../api/apply-to-lot';
import { useAvailableLots } from '../api/get-available-lots';
import { useLotFilters } from '../api/get-lot-filters';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { LotCard } from './lot-card';

const departmentOrder = (code: string) => {
  const index = DEPARTMENT_CODES.indexOf(code);
  return index === -1 ? DEPARTMENT_CODES.length : index;
};

export function FindMissionsTab({ technician }: TechnicianTabProps) {
  const [department, setDepartment] = useState('');
  const [tag, setTag] = useState('');
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const filters = { department, tag, search };
  const hasFilters = Boolean(department || tag || search);

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
  };

  return (
    <section>
      <PageHeader title="Trouver des missions" description="Les lots de missions ouverts aux candidatures. Tous les prix sont hors taxes." />

      <form role="search" aria-label="Filtrer les lots" className="mb-5 grid gap-3 sm:grid-cols-3" onSubmit={(e) => e.preventDefault()}>
        <Field id="lots-department" label="Département">
          <NativeSelect value={department} onChange={(e) => setDepartment(e.target.value)}>
            <option value="">Tous les départements</option>
            {departments.map((code) => (
              <option key={code} value={code}>
                {formatDepartment(code)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="lots-tag" label="Tag">
          <NativeSelect value={tag} onChange={(e) => setTag(e.target.value)}>
            <option value="">Tous les tags</option>
            {tags.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="lots-search" label="Recherche">
          <Input
            type="search"
            placeholder="Titre, description, tag..."
            value={searchText}
            maxLength={200}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </Field>
      </form>

      {lots.isPending ? (
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
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {total} {total > 1 ? 'lots disponibles' : 'lot disponible'}
          </p>
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
