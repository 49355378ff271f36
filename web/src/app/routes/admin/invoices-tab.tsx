import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '@/components/ui/feedback';
import { Pills } from '@/components/ui/pills';
import { InvoicesTab } from '@/features/admin-invoices/components/invoices-tab';

// The invoices show first; the SEPA batches and the statements load when the admin opens them.
const PayoutsPanel = lazy(() => import('@/features/admin-payouts/components/payouts-panel').then((m) => ({ default: m.PayoutsPanel })));
const StatementsPanel = lazy(() => import('@/features/admin-payouts/components/statements-panel').then((m) => ({ default: m.StatementsPanel })));

const VIEWS = [
  { value: 'invoices', label: 'Factures' },
  { value: 'payouts', label: 'Virements SEPA' },
  { value: 'statements', label: 'Relevés & comptabilité' },
] as const;
type View = (typeof VIEWS)[number]['value'];

/** « Factures & virements »: the invoices (admin-invoices), the SEPA batches and the statements (admin-payouts), composed here. */
export function InvoicesAndPayoutsTab() {
  const [params, setParams] = useSearchParams();
  const view: View = VIEWS.find((v) => v.value === params.get('view'))?.value ?? 'invoices';
  const switcher = (
    <Pills
      label="Vue de Factures & virements"
      options={VIEWS}
      value={view}
      onChange={(next) =>
        setParams((current) => {
          const updated = new URLSearchParams(current);
          if (next === 'invoices') updated.delete('view');
          else updated.set('view', next);
          return updated;
        })
      }
      className="mb-5"
    />
  );
  if (view === 'invoices') return <InvoicesTab toolbar={switcher} />;
  return <Suspense fallback={<Spinner />}>{view === 'payouts' ? <PayoutsPanel toolbar={switcher} /> : <StatementsPanel toolbar={switcher} />}</Suspense>;
}
