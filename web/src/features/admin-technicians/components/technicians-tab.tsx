import { useState } from 'react';
import { SearchX, Users } from 'lucide-react';
import { DEPARTMENTS } from '@maillon/common/departments';
import {
  TECHNICIAN_SUB_TAB_LABELS,
  TECHNICIAN_SUB_TABS,
  type AdminTechnician,
  type TechnicianSubTab,
} from '@maillon/common/schemas/admin-technicians';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { Pills } from '@/components/ui/pills';
import { toast, toastError } from '@/components/ui/use-toast';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useDeleteTechnician } from '../api/delete-technician';
import { TECHNICIANS_PAGE_SIZE, useTechnicians } from '../api/get-technicians';
import { useTechnicianStatusCounts } from '../api/get-technician-status-counts';
import { useModerateTechnician, type ModerationAction } from '../api/moderate-technician';
import { TechnicianCard } from './technician-card';

const SUCCESS: Record<ModerationAction, string> = {
  approve: 'Technicien approuvé',
  reject: 'Technicien rejeté',
  deactivate: 'Technicien désactivé',
  restore: 'Technicien remis en attente de modération',
};
const FAILURE: Record<ModerationAction, string> = {
  approve: 'Erreur lors de l’approbation',
  reject: 'Erreur lors du rejet',
  deactivate: 'Erreur lors de la désactivation',
  restore: 'Erreur lors de la restauration',
};
const EMPTY: Record<TechnicianSubTab, string> = {
  pending: 'Aucun technicien à modérer',
  active: 'Aucun technicien actif',
  inactive: 'Aucun technicien désactivé',
};

export function TechniciansTab() {
  const [status, setStatus] = useState<TechnicianSubTab>('pending');
  const [searchText, setSearchText] = useState('');
  const [department, setDepartment] = useState('');
  const [offset, setOffset] = useState(0);
  const search = useDebouncedValue(searchText.trim(), 300);
  const hasFilters = Boolean(search || department);

  const list = useTechnicians({ status, search, department, offset });
  const counts = useTechnicianStatusCounts({ search, department });
  const moderate = useModerateTechnician();
  const remove = useDeleteTechnician();

  const resetPaging = () => setOffset(0);
  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];

  // A page emptied by the last action goes back one page.
  if (!list.isPlaceholderData && list.isSuccess && items.length === 0 && offset > 0)
    setOffset(Math.max(0, offset - TECHNICIANS_PAGE_SIZE));

  const busyId = moderate.isPending ? moderate.variables?.id : remove.isPending ? remove.variables : undefined;

  const onModerate = (technician: AdminTechnician, action: ModerationAction) =>
    moderate
      .mutateAsync(
        { id: technician.id, action },
        {
          onSuccess: () =>
            toast({ title: SUCCESS[action], description: `${technician.firstName} ${technician.lastName}`, variant: 'success' }),
          onError: (error) => toastError(FAILURE[action], error),
        },
      )
      .catch(() => undefined);

  const onDelete = (technician: AdminTechnician) =>
    remove
      .mutateAsync(technician.id, {
        onSuccess: () =>
          toast({
            title: 'Technicien supprimé définitivement',
            description: `${technician.firstName} ${technician.lastName}`,
            variant: 'success',
          }),
        onError: (error) => toastError('Erreur lors de la suppression', error),
      })
      .catch(() => undefined);

  return (
    <section>
      <PageHeader title="Techniciens" description="Modérez les inscriptions et gérez les comptes des techniciens." />

      <form
        role="search"
        aria-label="Filtrer les techniciens"
        className="mb-4 grid grid-cols-[2fr_1fr] gap-3"
        onSubmit={(e) => e.preventDefault()}
      >
        <Field id="technicians-search" label="Recherche">
          <Input
            type="search"
            placeholder="Nom, e-mail ou entreprise..."
            value={searchText}
            maxLength={200}
            onChange={(e) => {
              setSearchText(e.target.value);
              resetPaging();
            }}
          />
        </Field>
        <Field id="technicians-department" label="Département">
          <NativeSelect
            value={department}
            onChange={(e) => {
              setDepartment(e.target.value);
              resetPaging();
            }}
          >
            <option value="">Tous les départements</option>
            {DEPARTMENTS.map((d) => (
              <option key={d.code} value={d.code}>
                {d.name} ({d.code})
              </option>
            ))}
          </NativeSelect>
        </Field>
      </form>

      <Pills
        label="Statut des techniciens"
        className="mb-5"
        value={status}
        onChange={(value) => {
          setStatus(value);
          resetPaging();
        }}
        options={TECHNICIAN_SUB_TABS.map((value) => ({
          value,
          label: TECHNICIAN_SUB_TAB_LABELS[value],
          count: counts.data?.[value],
        }))}
      />

      {list.isPending ? (
        <div className="grid grid-cols-2 gap-4" aria-busy="true">
          <Skeleton className="h-80" />
          <Skeleton className="h-80" />
        </div>
      ) : list.isError ? (
        <ErrorState error={list.error} />
      ) : items.length === 0 ? (
        <EmptyState
          icon={hasFilters ? <SearchX /> : <Users />}
          title={hasFilters ? 'Aucun technicien ne correspond à ces critères' : EMPTY[status]}
        />
      ) : (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {total} {total > 1 ? 'techniciens' : 'technicien'}
          </p>
          <ul
            className={list.isPlaceholderData ? 'grid grid-cols-2 gap-4 opacity-60' : 'grid grid-cols-2 gap-4'}
            aria-label="Techniciens"
          >
            {items.map((technician) => (
              <li key={technician.id} className="grid">
                <TechnicianCard
                  technician={technician}
                  busy={busyId === technician.id}
                  onModerate={(action) => onModerate(technician, action)}
                  onDelete={() => onDelete(technician)}
                />
              </li>
            ))}
          </ul>
          <Pager
            className="mt-5"
            offset={offset}
            limit={TECHNICIANS_PAGE_SIZE}
            total={total}
            onChange={setOffset}
            label="Pages des techniciens"
          />
        </>
      )}
    </section>
  );
}
