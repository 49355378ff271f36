import { formatEuros } from '@maillon/common/format';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { useRevenueSummary } from '../api/get-revenue-summary';

const TOTALS = [
  { key: 'activeMissionGains', label: 'Gains validés missions actives', hint: 'Missions en cours et factures à soumettre' },
  { key: 'pendingTransfers', label: 'Gains validés, virement en attente', hint: 'Factures envoyées, virement à venir' },
  { key: 'paymentHistory', label: 'Historique du total de vos paiements', hint: 'Virements effectués' },
] as const;

/**
 * The three totals of spec 01 §4, computed by the server: three rows of one card on a phone (the lists come into view
 * sooner), three cards side by side from the tablet up.
 */
export function RevenueTotals({ technicianId }: { technicianId: string }) {
  const summary = useRevenueSummary(technicianId);
  if (summary.isError) return <ErrorState error={summary.error} className="mb-6" />;
  return (
    <dl className="mb-6 grid divide-y rounded-lg border bg-card shadow-xs sm:grid-cols-3 sm:gap-3 sm:divide-y-0 sm:rounded-none sm:border-0 sm:bg-transparent sm:shadow-none">
      {TOTALS.map((total) => (
        <div
          key={total.key}
          role="group"
          aria-label={total.label}
          className="flex items-center justify-between gap-3 px-4 py-3 sm:block sm:rounded-lg sm:border sm:bg-card sm:p-4 sm:shadow-xs"
        >
          <dt className="min-w-0 text-sm font-medium text-muted-foreground">
            <span className="block">{total.label}</span>
            <span className="mt-0.5 block text-xs font-normal">{total.hint}</span>
          </dt>
          <dd className="shrink-0 sm:mt-2">
            {summary.isPending ? (
              <Skeleton className="h-7 w-24 sm:h-8 sm:w-32" />
            ) : (
              <span className="text-xl font-bold tabular-nums text-foreground sm:text-2xl">{formatEuros(summary.data[total.key])}</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
