import { addDaysToDay, ATTENTION_WINDOW_DAYS, formatDay, parisDay } from '@maillon/common/device-rules';
import type { DeviceState } from '@maillon/common/enums';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';

const STATE_VARIANT: Record<DeviceState, 'success' | 'danger' | 'warning' | 'secondary'> = {
  'En fonctionnement': 'success',
  'Hors service': 'danger',
  'Absent momentanément': 'warning',
  'Supprimé définitivement': 'secondary',
  Inconnu: 'secondary',
};

export function StateBadge({ state }: { state: DeviceState }) {
  return <Badge variant={STATE_VARIANT[state]}>{state}</Badge>;
}

/** A due date: red once past, orange within 30 days, with the words for screen readers and colour-blind eyes. */
export function DueDate({ day, today = parisDay() }: { day: string | null; today?: string }) {
  if (!day) return <span className="text-muted-foreground">—</span>;
  const past = day < today;
  const soon = !past && day <= addDaysToDay(today, ATTENTION_WINDOW_DAYS);
  return (
    <span className={cn('inline-grid whitespace-nowrap tabular-nums', past ? 'font-semibold text-destructive' : soon ? 'font-semibold text-warning' : undefined)}>
      <span>{formatDay(day)}</span>
      {past ? <span className="text-xs font-normal">dépassée</span> : soon ? <span className="text-xs font-normal">dans moins de 30 jours</span> : null}
    </span>
  );
}
