import type { ReactNode } from 'react';
import { formatDate } from '@maillon/common/format';
import type { ApplicationStatus } from '@maillon/common/enums';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';

/** Spec §9: the date shown when an application has no appliedAt. */
export const APPLIED_AT_PLACEHOLDER = '15/01/2025';

export function formatAppliedAt(appliedAt: string | null): string {
  return appliedAt ? formatDate(appliedAt) || APPLIED_AT_PLACEHOLDER : APPLIED_AT_PLACEHOLDER;
}

const STATUS_BADGES: Record<ApplicationStatus, { label: string; variant: 'info' | 'warning' | 'danger' | 'secondary' | 'success' }> = {
  Recruté: { label: 'Recruté', variant: 'info' },
  'En attente': { label: 'En attente', variant: 'warning' },
  pending: { label: 'En attente', variant: 'warning' },
  Refusé: { label: 'Refusé', variant: 'danger' },
  Annulé: { label: 'Annulé', variant: 'secondary' },
  Terminé: { label: 'Terminé', variant: 'success' },
};

export function ApplicationStatusBadge({ status }: { status: ApplicationStatus }) {
  const badge = STATUS_BADGES[status];
  return <Badge variant={badge.variant}>{badge.label}</Badge>;
}

export function Fact({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={cn('grid min-w-0 gap-0.5', wide && 'col-span-2')}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

export function AdminComment({ comment }: { comment: string | null }) {
  if (!comment?.trim()) return null;
  return (
    <div className="rounded-md border border-info/20 bg-info-soft px-3 py-2 text-sm">
      <p className="font-medium text-info">Commentaire de l’administrateur</p>
      <p className="whitespace-pre-line">{comment}</p>
    </div>
  );
}
