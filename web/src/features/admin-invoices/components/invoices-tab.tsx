import { useState, type ReactNode } from 'react';
import { Download, ReceiptText } from 'lucide-react';
import { formatTotalOf } from '@maillon/common/format';
import { INVOICE_CHIPS, type AdminInvoice, type InvoiceChip } from '@maillon/common/schemas/money';
import { TechnicianPicker } from '@/components/forms/technician-picker';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { Pills } from '@/components/ui/pills';
import { INVOICES_PAGE_SIZE, useAdminInvoices } from '../api/get-invoices';
import { useInvoiceStatusCounts } from '../api/get-invoice-status-counts';
import { invoicesExportUrl } from '../api/invoice-links';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { AdminInvoiceCard } from './admin-invoice-card';
import { EditInvoiceDialog } from './edit-invoice-dialog';

type ChipValue = InvoiceChip | 'all';

/** `toolbar`: what the app puts under the heading (the switch to the SEPA batches and the statements). */
export function InvoicesTab({ toolbar }: { toolbar?: ReactNode }) {
  const [technicianId, setTechnicianId] = useState('');
  const [searchText, setSearchText] = useState('');
  const [chip, setChip] = useState<ChipValue>('all');
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<AdminInvoice | null>(null);
  const search = useDebouncedValue(searchText.trim(), 300);
  const filters = { technicianId, search, status: chip === 'all' ? ('' as const) : chip };

  const invoices = useAdminInvoices(filters, page);
  const counts = useInvoiceStatusCounts({ technicianId, search });

  const total = invoices.data?.total ?? 0;
  const capped = invoices.data?.capped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / INVOICES_PAGE_SIZE));
  // An action can empty the last page (the invoice left the chip): go back to the last page that has rows.
  if (invoices.data && !invoices.isPlaceholderData && invoices.data.items.length === 0 && page > 0) setPage(pageCount - 1);
  const chipTotal = counts.data ? INVOICE_CHIPS.reduce((sum, c) => sum + counts.data[c], 0) : undefined;
  const options = [
    { value: 'all' as const, label: 'Toutes', count: chipTotal },
    ...INVOICE_CHIPS.map((c) => ({ value: c, label: c, count: counts.data?.[c] })),
  ];
  const resetPage = <T,>(setter: (v: T) => void) => (value: T) => {
    setter(value);
    setPage(0);
  };

  return (
    <section>
      <PageHeader
        title="Factures & virements"
        description="Les factures des techniciens, leurs fichiers et les virements à effectuer. Montants hors taxes."
        actions={
          <a className={buttonVariants({ variant: 'outline' })} href={invoicesExportUrl(filters)} download>
            <Download aria-hidden="true" /> Exporter CSV
          </a>
        }
      />
      {toolbar}

      <form role="search" aria-label="Filtrer les factures" className="mb-4 grid grid-cols-[18rem_1fr] gap-3" onSubmit={(e) => e.preventDefault()}>
        <Field id="invoices-technician" label="Technicien">
          <TechnicianPicker
            source="invoices"
            value={technicianId}
            onChange={(technician) => resetPage(setTechnicianId)(technician?.id ?? '')}
            placeholder="Tous les techniciens"
          />
        </Field>
        <Field id="invoices-search" label="Recherche">
          <Input
            type="search"
            placeholder="Référence, technicien, entreprise, mission..."
            value={searchText}
            maxLength={200}
            onChange={(e) => resetPage(setSearchText)(e.target.value)}
          />
        </Field>
      </form>
      <Pills label="Statut des factures" options={options} value={chip} onChange={resetPage(setChip)} className="mb-5" />

      {invoices.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : invoices.isError ? (
        <ErrorState error={invoices.error} />
      ) : invoices.data.items.length === 0 ? (
        <EmptyState icon={<ReceiptText />} title="Aucune facture trouvée" />
      ) : (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {formatTotalOf(total, capped, 'facture', 'factures')}
          </p>
          <ul className={invoices.isPlaceholderData ? 'grid gap-3 opacity-60' : 'grid gap-3'} aria-label="Factures">
            {invoices.data.items.map((invoice) => (
              <AdminInvoiceCard key={invoice.id} invoice={invoice} onEdit={() => setEditing(invoice)} />
            ))}
          </ul>
          <Pager
            className="mt-4"
            offset={page * INVOICES_PAGE_SIZE}
            limit={INVOICES_PAGE_SIZE}
            total={total}
            capped={capped}
            onChange={(offset) => setPage(Math.floor(offset / INVOICES_PAGE_SIZE))}
            label="Pagination des factures"
          />
        </>
      )}
      <EditInvoiceDialog invoice={editing} onOpenChange={(open) => (open ? undefined : setEditing(null))} />
    </section>
  );
}
