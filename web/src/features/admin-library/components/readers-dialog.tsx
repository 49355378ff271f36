import { useState } from 'react';
import { BookOpenCheck } from 'lucide-react';
import { formatDate } from '@maillon/common/format';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState, ErrorState, Spinner } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { READERS_PAGE_SIZE, useResourceReaders } from '../api/get-resource-readers';

/** The technicians who read a resource, with a search (decisions.md §4: the real readers). */
export function ReadersDialog({
  resource,
  onOpenChange,
}: {
  resource: LearningResource | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={resource !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Lecteurs</DialogTitle>
          <DialogDescription>{resource?.title}</DialogDescription>
        </DialogHeader>
        {resource ? <ReadersList resourceId={resource.id} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ReadersList({ resourceId }: { resourceId: string }) {
  const [searchText, setSearchText] = useState('');
  const [offset, setOffset] = useState(0);
  const search = useDebouncedValue(searchText.trim(), 300);
  const readers = useResourceReaders({ resourceId, search, offset });
  const items = readers.data?.items ?? [];
  const total = readers.data?.total ?? 0;

  return (
    <div className="grid gap-3">
      <Field id="readers-search" label="Rechercher un technicien">
        <Input
          type="search"
          placeholder="Nom ou e-mail..."
          value={searchText}
          maxLength={200}
          onChange={(e) => {
            setSearchText(e.target.value);
            setOffset(0);
          }}
        />
      </Field>
      {readers.isPending ? (
        <Spinner />
      ) : readers.isError ? (
        <ErrorState error={readers.error} />
      ) : items.length === 0 ? (
        <EmptyState icon={<BookOpenCheck />} title="Aucune lecture enregistrée" />
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total} {total > 1 ? 'lecteurs' : 'lecteur'}
          </p>
          <ul className="grid max-h-80 divide-y overflow-y-auto rounded-md border" aria-label="Lecteurs">
            {items.map((reader) => (
              <li key={reader.technicianId} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <div className="min-w-0">
                  <p className="font-medium">
                    {reader.firstName} {reader.lastName}
                  </p>
                  <p className="truncate text-xs text-muted-foreground">{reader.email}</p>
                </div>
                <span className="shrink-0 text-xs text-muted-foreground">Lu le {formatDate(reader.viewedAt)}</span>
              </li>
            ))}
          </ul>
          <Pager offset={offset} limit={READERS_PAGE_SIZE} total={total} onChange={setOffset} label="Pages des lecteurs" />
        </>
      )}
    </div>
  );
}
