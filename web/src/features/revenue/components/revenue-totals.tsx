import { formatEuros } from '@maillon/common/format';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useRevenueSummary } from '../api/get-revenue-summary';

const TOTALS = [
  { key: 'activeMissionGains', label: 'Gains validés missions actives', hint: 'Missions en cours et factures à soumettre' },
  { key: 'pendingTransfers', label: 'Gains validés, virement en attente', hint: 'Factures envoyées, virement à venir' },
  { key: 'paymentHistory', label: 'Historique du total de vos paiements', hint: 'Virements effectués' },
] as const;

/** The three totals of spec 01 §4, computed by the server. */
export function RevenueTotals({ technicianId }: { technicianId: string }) {
  const summary = useRevenueSummary(technicianId);
  if (summary.isError) return <ErrorState error={summary.error} className="mb-6" />;
  return (
    <dl className="mb-6 grid gap-3 sm:grid-cols-3">
      {TOTALS.map((total) => (
        <div key={total.key} role="group" aria-label={total.label} className="rounded-lg border bg-card p-4 shadow-xs">
          <dt className="text-sm font-medium text-muted-foreground">{total.label}</dt>
          <dd className="mt-1">
            {summary.isPending ? (
              <Skeleton className="h-8 w-32" />
            ) : (
              <span className="text-2xl font-bold tabular-nums">{formatEuros(summary.data[total.key])}</span>
            )}
            <span className="mt-1 block text-xs text-muted-foreground">{total.hint}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
