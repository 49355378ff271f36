import { useState } from 'react';
import { BookOpen, Plus, SearchX } from 'lucide-react';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useDeleteLearningResource } from '../api/delete-learning-resource';
import { useLearningResources } from '../api/get-learning-resources';
import { useReaderCounts } from '../api/get-reader-counts';
import { ReadersDialog } from './readers-dialog';
import { ResourceCard } from './resource-card';
import { ResourceFormDialog } from './resource-form-dialog';

export function LibraryTab() {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<LearningResource | null>(null);
  const [readersOf, setReadersOf] = useState<LearningResource | null>(null);
  const resources = useLearningResources(search);
  const readerCounts = useReaderCounts();
  const remove = useDeleteLearningResource();
  const items = resources.data ?? [];

  const onDelete = (resource: LearningResource) =>
    remove
      .mutateAsync(resource.id, {
        onSuccess: () => toast({ title: 'Ressource supprimée', description: resource.title, variant: 'success' }),
        onError: (error) => toastError('Erreur lors de la suppression', error),
      })
      .catch(() => undefined);

  return (
    <section>
      <PageHeader
        title="Librairie apprentissage"
        description="Les modules que chaque technicien doit consulter avant de postuler."
        actions={
          <Button
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
          >
            <Plus aria-hidden="true" /> Nouvelle Ressource
          </Button>
        }
      />

      <form role="search" aria-label="Rechercher une ressource" className="mb-5 max-w-md" onSubmit={(e) => e.preventDefault()}>
        <Field id="library-search" label="Recherche">
          <Input
            type="search"
            placeholder="Titre ou description..."
            value={searchText}
            maxLength={200}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </Field>
      </form>

      {resources.isPending ? (
        <div className="grid grid-cols-4 gap-4" aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-56" />
          ))}
        </div>
      ) : resources.isError ? (
        <ErrorState error={resources.error} />
      ) : items.length === 0 ? (
        search ? (
          <EmptyState icon={<SearchX />} title="Aucune ressource ne correspond à cette recherche" />
        ) : (
          <EmptyState icon={<BookOpen />} title="Aucune ressource pour le moment">
            Ajoutez le premier module avec « Nouvelle Ressource ».
          </EmptyState>
        )
      ) : (
        <ul
          className={resources.isPlaceholderData ? 'grid grid-cols-4 gap-4 opacity-60' : 'grid grid-cols-4 gap-4'}
          aria-label="Ressources"
        >
          {items.map((resource) => (
            <li key={resource.id} className="grid">
              <ResourceCard
                resource={resource}
                readers={readerCounts.data ? (readerCounts.data[resource.id] ?? 0) : undefined}
                onEdit={() => {
                  setEditing(resource);
                  setFormOpen(true);
                }}
                onDelete={() => onDelete(resource)}
                onShowReaders={() => setReadersOf(resource)}
              />
            </li>
          ))}
        </ul>
      )}

      <ResourceFormDialog
        open={formOpen}
        onOpenChange={(open) => {
          setFormOpen(open);
          if (!open) setEditing(null);
        }}
        resource={editing}
      />
      <ReadersDialog resource={readersOf} onOpenChange={(open) => (open ? undefined : setReadersOf(null))} />
    </section>
  );
}
