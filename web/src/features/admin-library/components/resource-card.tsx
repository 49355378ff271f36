import type { ReactNode } from 'react';
import { BookOpen, Clock, ExternalLink, FileText, MousePointerClick, Pencil, PlayCircle, Trash2, Users } from 'lucide-react';
import { LEARNING_RESOURCE_TYPE_LABELS, type LearningResourceType } from '@maillon/common/enums';
import type { LearningResource } from '@maillon/common/schemas/learning-resources';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

const TYPE_ICON: Record<LearningResourceType, ReactNode> = {
  document: <FileText aria-hidden="true" />,
  pdf: <FileText aria-hidden="true" />,
  video: <PlayCircle aria-hidden="true" />,
  interactive: <MousePointerClick aria-hidden="true" />,
  other: <BookOpen aria-hidden="true" />,
};

interface ResourceCardProps {
  resource: LearningResource;
  readers: number | undefined;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
  onShowReaders: () => void;
}

export function ResourceCard({ resource: r, readers, onEdit, onDelete, onShowReaders }: ResourceCardProps) {
  return (
    <Card className="flex flex-col" aria-label={r.title}>
      <CardHeader className="gap-2">
        <div className="flex items-center justify-between gap-2">
          <Badge variant="info" className="[&_svg]:size-3.5">
            {TYPE_ICON[r.type]}
            {LEARNING_RESOURCE_TYPE_LABELS[r.type]}
          </Badge>
          {r.duration ? (
            <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
              <Clock className="size-3.5" aria-hidden="true" /> {r.duration} min
            </span>
          ) : null}
        </div>
        <CardTitle className="line-clamp-2">{r.title}</CardTitle>
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-2">
        <p className="line-clamp-4 text-sm text-muted-foreground">{r.description}</p>
        <a
          href={r.url}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <ExternalLink className="size-3.5" aria-hidden="true" /> Ouvrir
        </a>
      </CardContent>
      <CardFooter className="justify-between border-t pt-3 sm:pt-3">
        <Button variant="ghost" size="sm" onClick={onShowReaders} aria-label={`Lecteurs de ${r.title}`}>
          <Users aria-hidden="true" />
          {readers === undefined ? 'Lecteurs' : `${readers} ${readers > 1 ? 'lecteurs' : 'lecteur'}`}
        </Button>
        <div className="flex gap-1">
          <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Modifier ${r.title}`}>
            <Pencil aria-hidden="true" />
          </Button>
          <ConfirmDialog
            title="Supprimer cette ressource ?"
            description={`« ${r.title} » et ses lectures seront supprimées.`}
            confirmLabel="Supprimer"
            onConfirm={onDelete}
            trigger={
              <Button variant="ghost" size="icon" className="text-destructive" aria-label={`Supprimer ${r.title}`}>
                <Trash2 aria-hidden="true" />
              </Button>
            }
          />
        </div>
      </CardFooter>
    </Card>
  );
}
