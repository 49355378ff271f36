import { Send } from 'lucide-react';
import type { TechnicianInvoice } from '@maillon/common/schemas/money';
import { formatDate, formatEuros } from '@maillon/common/format';
import { Button } from '@/components/ui/button';
import { NEEDS_NETWORK, useOnlineStatus } from '@/hooks/use-online-status';
import { InvoiceStatusBadge } from './status-badges';

function Figure({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={strong ? 'font-semibold tabular-nums' : 'tabular-nums'}>{value}</dd>
    </div>
  );
}

export function InvoiceCard({ invoice, onSubmit }: { invoice: TechnicianInvoice; onSubmit: () => void }) {
  const online = useOnlineStatus();
  const date = invoice.invoiceDate ?? invoice.createdAt;
  return (
    <li className="rounded-lg border bg-card p-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 break-words font-semibold leading-tight">{invoice.missionTitle ?? 'Mission'}</h3>
        <InvoiceStatusBadge status={invoice.status} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <Figure label="Montant validé (HT)" value={formatEuros(invoice.validatedAmount)} strong />
        <Figure label="Prix du lot (HT)" value={formatEuros(invoice.initialAmount)} />
        <Figure label="Progression" value={invoice.progression} />
        <Figure label="Référence" value={invoice.reference} />
        <Figure label="Date" value={formatDate(date)} />
        {invoice.paidDate ? <Figure label="Payée le" value={formatDate(invoice.paidDate)} /> : null}
      </dl>
      {invoice.status === 'Facture à soumettre' ? (
        <>
          <Button className="mt-4 w-full sm:w-auto" size="lg" onClick={onSubmit} disabled={!online}>
            <Send aria-hidden="true" /> Envoyer facture
          </Button>
          {!online ? <p className="mt-1 text-xs text-muted-foreground">{NEEDS_NETWORK}</p> : null}
        </>
      ) : null}
    </li>
  );
}
