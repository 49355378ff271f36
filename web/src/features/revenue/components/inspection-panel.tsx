import { CheckCircle2, FileCheck2, FileText, Loader2, XCircle } from 'lucide-react';
import type { InvoiceInspection } from '@maillon/common/schemas/e-invoice';
import { formatEuros } from '@maillon/common/format';
import { cn } from '@/lib/cn';

/** What the server read in the chosen PDF: the Factur-X data and each check, or « PDF simple ». */
export function InspectionPanel({ pending, inspection }: { pending: boolean; inspection: InvoiceInspection | null }) {
  if (pending) {
    return (
      <p role="status" className="flex items-center gap-2 rounded-md border bg-muted/40 p-3 text-sm">
        <Loader2 aria-hidden="true" className="size-4 animate-spin" /> Lecture de la facture…
      </p>
    );
  }
  if (!inspection) return null;
  const eInvoice = inspection.eInvoice;
  const tone = !inspection.accepted ? 'danger' : inspection.format === 'factur-x' ? 'success' : 'neutral';
  return (
    <div
      role="status"
      aria-label="Lecture de la facture"
      className={cn(
        'grid gap-2 rounded-md border p-3 text-sm',
        tone === 'danger' && 'border-destructive/40 bg-destructive/5',
        tone === 'success' && 'border-success/30 bg-success-soft',
        tone === 'neutral' && 'bg-muted/40',
      )}
    >
      <p className="flex items-start gap-2 font-medium">
        {inspection.format === 'factur-x' ? <FileCheck2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" /> : <FileText aria-hidden="true" className="mt-0.5 size-4 shrink-0" />}
        {inspection.summary}
      </p>
      {eInvoice ? (
        <p className="text-muted-foreground">
          Montant à payer {formatEuros(eInvoice.duePayableAmount ?? eInvoice.grandTotalAmount)}
          {eInvoice.seller.name ? ` · vendeur ${eInvoice.seller.name}` : ''}
          {eInvoice.buyer.name ? ` · acheteur ${eInvoice.buyer.name}` : ''}
        </p>
      ) : null}
      <ul className="grid gap-1" aria-label="Vérifications">
        {inspection.checks.map((check) => (
          <li key={check.key} className={cn('flex items-start gap-2', !check.ok && 'text-destructive')}>
            {check.ok ? <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" /> : <XCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />}
            <span>
              <span className="sr-only">{check.ok ? 'Vérifié : ' : 'Refusé : '}</span>
              {check.message}
            </span>
          </li>
        ))}
      </ul>
      {inspection.suggestedReference && inspection.accepted ? <p className="text-muted-foreground">La référence reprend le numéro de la facture.</p> : null}
    </div>
  );
}
