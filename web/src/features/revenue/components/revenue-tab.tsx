import { lazy, Suspense, useState } from 'react';
import { ArrowLeftRight, ReceiptText } from 'lucide-react';
import type { TechnicianInvoice } from '@maillon/common/schemas/money';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { Button } from '@/components/ui/button';
import { DismissibleNotice } from '@/components/ui/dismissible-notice';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { useOpenedOnce } from '@/hooks/use-opened-once';
import type { TechnicianTabProps } from '@/types/tabs';
import { useTechnicianInvoices } from '../api/get-invoices';
import { useTechnicianTransfers } from '../api/get-transfers';
import { InvoiceCard } from './invoice-card';
import { RevenueTotals } from './revenue-totals';
import { StatementsCard } from './statements-card';
import { TransferCard } from './transfer-card';

// The submission form (react-hook-form, zod, the Radix dialog) loads when a technician opens it (decision 017).
const SubmitInvoiceDialog = lazy(() => import('./submit-invoice-dialog').then((m) => ({ default: m.SubmitInvoiceDialog })));


function ListSkeleton() {
  return (
    <div className="grid gap-3" aria-busy="true">
      <Skeleton className="h-36" />
      <Skeleton className="h-36" />
    </div>
  );
}

function InvoiceList({ technicianId, onSubmit }: { technicianId: string; onSubmit: (invoice: TechnicianInvoice) => void }) {
  const invoices = useTechnicianInvoices(technicianId);
  if (invoices.isPending) return <ListSkeleton />;
  if (invoices.isError) return <ErrorState error={invoices.error} />;
  const items = invoices.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <EmptyState icon={<ReceiptText />} title="Aucune facture trouvée" />;
  return (
    <>
      <ul className="grid gap-3" aria-label="Mes revenus">
        {items.map((invoice) => (
          <InvoiceCard key={invoice.id} invoice={invoice} onSubmit={() => onSubmit(invoice)} />
        ))}
      </ul>
      {invoices.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" size="lg" loading={invoices.isFetchingNextPage} onClick={() => void invoices.fetchNextPage()}>
            Afficher plus de factures
          </Button>
        </div>
      ) : null}
    </>
  );
}

function TransferList({ technicianId }: { technicianId: string }) {
  const transfers = useTechnicianTransfers(technicianId);
  if (transfers.isPending) return <ListSkeleton />;
  if (transfers.isError) return <ErrorState error={transfers.error} />;
  const items = transfers.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <EmptyState icon={<ArrowLeftRight />} title="Aucun virement trouvé" />;
  return (
    <>
      <ul className="grid gap-3" aria-label="Mes virements">
        {items.map((transfer) => (
          <TransferCard key={transfer.id} transfer={transfer} />
        ))}
      </ul>
      {transfers.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" size="lg" loading={transfers.isFetchingNextPage} onClick={() => void transfers.fetchNextPage()}>
            Afficher plus de virements
          </Button>
        </div>
      ) : null}
    </>
  );
}

export function RevenueTab({ technician }: TechnicianTabProps) {
  const [submitting, setSubmitting] = useState<TechnicianInvoice | null>(null);
  const dialogMounted = useOpenedOnce(submitting !== null);
  return (
    <section>
      <PageHeader title="Revenus & Virements" description="Vos factures de missions et les virements de l’association." />
      <DismissibleNotice storageKey="revenue-notice-dismissed">
        Tous les montants sont exprimés hors taxes (HT), sauf les virements, qui indiquent les sommes réellement versées.
      </DismissibleNotice>
      <RevenueTotals technicianId={technician.id} />
      <div className="grid gap-8 lg:grid-cols-2 lg:gap-6">
        <section aria-labelledby="revenue-invoices-title">
          <h2 id="revenue-invoices-title" className="mb-3 text-lg font-semibold">
            Mes revenus
          </h2>
          <InvoiceList technicianId={technician.id} onSubmit={setSubmitting} />
        </section>
        <section aria-labelledby="revenue-transfers-title">
          <h2 id="revenue-transfers-title" className="mb-3 text-lg font-semibold">
            Mes virements
          </h2>
          <TransferList technicianId={technician.id} />
        </section>
      </div>
      <div className="mt-8">
        <StatementsCard technicianId={technician.id} />
      </div>
      {dialogMounted ? (
        <Suspense fallback={null}>
          <SubmitInvoiceDialog technicianId={technician.id} hasIban={Boolean(technician.ibanLast4)} invoice={submitting} onOpenChange={(open) => (open ? undefined : setSubmitting(null))} />
        </Suspense>
      ) : null}
    </section>
  );
}
