import { BookOpen, CheckCircle2, Clock, ExternalLink, FileText, MousePointerClick, PlayCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { LEARNING_RESOURCE_TYPE_LABELS, type LearningResourceType } from '@maillon/common/enums';
import { formatDate } from '@maillon/common/format';
import type { LearningResource, ResourceView } from '@maillon/common/schemas/learning-resources';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { toastError } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import type { TechnicianTabProps } from '@/types/tabs';
import { useLearningResources } from '../api/get-learning-resources';
import { useResourceViews } from '../api/get-resource-views';
import { useRecordResourceView } from '../api/record-resource-view';

const TYPE_ICONS: Record<LearningResourceType, ReactNode> = {
  video: <PlayCircle />,
  pdf: <FileText />,
  document: <FileText />,
  interactive: <MousePointerClick />,
  other: <BookOpen />,
};

/** Only web links open from the course (never a javascript: or data: address typed into the library). */
function safeUrl(url: string): string | null {
  return /^https?:\/\//i.test(url) || url.startsWith('/') ? url : null;
}

function TrainingProgress({ read, total }: { read: number; total: number }) {
  const percent = total > 0 ? Math.round((read / total) * 100) : 100;
  const complete = read >= total;
  return (
    <Card className="mb-5 grid gap-3 p-4 sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          {read} / {total} modules consultés
        </p>
        <p className="text-sm text-muted-foreground tabular-nums">{percent} %</p>
      </div>
      <div
        role="progressbar"
        aria-label="Progression de la formation"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={read}
        className="h-2.5 overflow-hidden rounded-full bg-muted"
      >
        <div className={cn('h-full rounded-full transition-[width]', complete ? 'bg-success' : 'bg-primary')} style={{ width: `${percent}%` }} />
      </div>
      {complete ? (
        <p className="flex items-center gap-2 text-sm font-medium text-success">
          <CheckCircle2 className="size-4" aria-hidden="true" /> Formation complétée : vous pouvez postuler aux lots de missions.
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">Consultez tous les modules pour pouvoir postuler aux lots de missions.</p>
      )}
    </Card>
  );
}

function ResourceCard({ resource, view, onOpen }: { resource: LearningResource; view: ResourceView | undefined; onOpen: () => void }) {
  const url = safeUrl(resource.url);
  return (
    <li className="min-w-0">
      <Card className={cn('flex h-full flex-col gap-3 p-4 sm:p-5', view ? 'border-success/30' : '')}>
        <div className="flex items-start gap-3">
          <span
            className={cn(
              'grid size-10 shrink-0 place-items-center rounded-full [&_svg]:size-5',
              view ? 'bg-success-soft text-success' : 'bg-primary-soft text-primary',
            )}
            aria-hidden="true"
          >
            {view ? <CheckCircle2 /> : TYPE_ICONS[resource.type]}
          </span>
          <div className="grid min-w-0 gap-1">
            <h2 className="font-semibold leading-tight">{resource.title}</h2>
            <p className="text-sm text-muted-foreground">{resource.description}</p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge variant="secondary">{LEARNING_RESOURCE_TYPE_LABELS[resource.type]}</Badge>
          {resource.duration ? (
            <span className="inline-flex items-center gap-1 text-muted-foreground">
              <Clock className="size-3.5" aria-hidden="true" /> {resource.duration} min
            </span>
          ) : null}
          {view ? <Badge variant="success">Consulté le {formatDate(view.viewedAt)}</Badge> : <Badge variant="warning">À consulter</Badge>}
        </div>
        <div className="mt-auto">
          {url ? (
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              onClick={onOpen}
              aria-label={`${view ? 'Revoir le module' : 'Ouvrir le module'} : ${resource.title}`}
              className={cn(buttonVariants({ variant: view ? 'outline' : 'default', size: 'lg' }), 'w-full sm:w-auto')}
            >
              <ExternalLink aria-hidden="true" /> {view ? 'Revoir le module' : 'Ouvrir le module'}
            </a>
          ) : (
            <p className="text-sm text-muted-foreground">Lien indisponible</p>
          )}
        </div>
      </Card>
    </li>
  );
}

export function TrainingTab({ technician }: TechnicianTabProps) {
  const resources = useLearningResources();
  const views = useResourceViews(technician.id);
  const record = useRecordResourceView(technician.id);

  const header = (
    <PageHeader title="Me former" description="Les modules de formation obligatoires : consultez-les tous pour pouvoir postuler aux lots de missions." />
  );
  if (resources.isPending || views.isPending) {
    return (
      <section>
        {header}
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-24" />
          <Skeleton className="h-36" />
          <Skeleton className="h-36" />
        </div>
      </section>
    );
  }
  if (resources.isError || views.isError) {
    return (
      <section>
        {header}
        <ErrorState error={resources.error ?? views.error} />
      </section>
    );
  }

  const viewByResource = new Map(views.data.map((v) => [v.resourceId, v]));
  const read = resources.data.filter((r) => viewByResource.has(r.id)).length;
  const open = (resource: LearningResource) => {
    if (viewByResource.has(resource.id)) return;
    record.mutate(resource.id, {
      onError: (error) => toastError("Impossible d'enregistrer la consultation", error),
    });
  };

  return (
    <section>
      {header}
      {resources.data.length === 0 ? (
        <EmptyState icon={<BookOpen />} title="Aucune ressource de formation pour le moment" />
      ) : (
        <>
          <TrainingProgress read={read} total={resources.data.length} />
          <ul className="grid gap-3 md:grid-cols-2" aria-label="Modules de formation">
            {resources.data.map((resource) => (
              <ResourceCard key={resource.id} resource={resource} view={viewByResource.get(resource.id)} onOpen={() => open(resource)} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
