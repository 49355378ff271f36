import { Badge } from '@/components/ui/badge';

const INVOICE_VARIANTS: Record<string, 'info' | 'warning' | 'secondary' | 'success'> = {
  'Mission à terminer': 'info',
  'Facture à soumettre': 'warning',
  'Facture envoyée': 'secondary',
  Traité: 'success',
  Terminé: 'success',
};

export function InvoiceStatusBadge({ status }: { status: string }) {
  return <Badge variant={INVOICE_VARIANTS[status] ?? 'outline'}>{status}</Badge>;
}

const TRANSFER_VARIANTS: Record<string, 'warning' | 'success' | 'danger'> = {
  Enregistré: 'warning',
  Effectué: 'success',
  Refus: 'danger',
};
const TRANSFER_LABELS: Record<string, string> = { Refus: 'Refusé' };

export function TransferStatusBadge({ status }: { status: string }) {
  return <Badge variant={TRANSFER_VARIANTS[status] ?? 'outline'}>{TRANSFER_LABELS[status] ?? status}</Badge>;
}
