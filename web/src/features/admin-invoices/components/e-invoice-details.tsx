import { FileCheck2, FileText } from 'lucide-react';
import type { EInvoiceFormat } from '@maillon/common/enums';
import type { EInvoice } from '@maillon/common/schemas/e-invoice';
import { formatDate, formatEuros } from '@maillon/common/format';
import { Badge } from '@/components/ui/badge';

const siret = (id: string | null) => {
  if (!id) return 'non indiqué';
  const spaced = id.length === 14 ? `${id.slice(0, 3)} ${id.slice(3, 6)} ${id.slice(6, 9)} ${id.slice(9)}` : `${id.slice(0, 3)} ${id.slice(3, 6)} ${id.slice(6)}`;
  return `${id.length === 9 ? 'SIREN' : 'SIRET'} ${spaced}`;
};
const euros = (value: number | null) => (value === null ? '—' : formatEuros(value));

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate tabular-nums">{children}</dd>
    </div>
  );
}

/** Beside the file: « Factur-X » with what its XML says (number, date, parties, totals), or « PDF simple ». */
export function EInvoiceDetails({ format, eInvoice }: { format: EInvoiceFormat; eInvoice: EInvoice | null }) {
  if (format === 'pdf' || !eInvoice) {
    return (
      <p className="mt-4 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <FileText aria-hidden="true" className="size-4" />
        <Badge variant="warning">PDF simple</Badge>
        Fichier sans données de facture électronique : vérifiez le montant et le SIRET à la lecture.
      </p>
    );
  }
  return (
    <section aria-label="Facture électronique" className="mt-4 rounded-md border bg-muted/30 p-3 text-sm">
      <p className="mb-2 flex flex-wrap items-center gap-2">
        <FileCheck2 aria-hidden="true" className="size-4 text-success" />
        <Badge variant="success">Factur-X · {eInvoice.profile}</Badge>
        <span className="text-muted-foreground">
          données lues dans {eInvoice.attachmentName} ({eInvoice.syntax}) et vérifiées au dépôt
        </span>
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 lg:grid-cols-4">
        <Item label="N° de facture">{eInvoice.invoiceNumber}</Item>
        <Item label="Date de la facture">{eInvoice.issueDate ? formatDate(`${eInvoice.issueDate}T12:00:00Z`) : '—'}</Item>
        <Item label="Vendeur">
          {eInvoice.seller.name ?? '—'} · {siret(eInvoice.seller.legalId)}
        </Item>
        <Item label="Acheteur">
          {eInvoice.buyer.name ?? '—'} · {siret(eInvoice.buyer.legalId)}
        </Item>
        <Item label="Total HT">{euros(eInvoice.taxBasisAmount)}</Item>
        <Item label="TVA">{euros(eInvoice.taxAmount)}</Item>
        <Item label="Total TTC">{euros(eInvoice.grandTotalAmount)}</Item>
        <Item label="Net à payer">{euros(eInvoice.duePayableAmount)}</Item>
      </dl>
    </section>
  );
}
