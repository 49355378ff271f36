import { Archive, CheckCircle2, Download, FileText, Landmark, Pencil, XCircle } from 'lucide-react';
import type { AdminInvoice } from '@maillon/common/schemas/money';
import { formatDate, formatEuros } from '@maillon/common/format';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast, toastError } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { useArchiveInvoice } from '../api/archive-invoice';
import { fiscalReceiptUrl, invoiceFileUrl } from '../api/invoice-links';
import { useUpdateTransferStatus } from '../api/update-transfer-status';
import { EInvoiceDetails } from './e-invoice-details';

const STATUS_VARIANTS: Record<string, 'info' | 'warning' | 'secondary' | 'success'> = {
  'Mission à réaliser': 'info',
  'Facture à soumettre': 'warning',
  'Facture envoyée': 'secondary',
  Terminé: 'success',
};
const TRANSFER_VARIANTS: Record<string, 'warning' | 'success' | 'danger'> = { Enregistré: 'warning', Effectué: 'success', Refus: 'danger' };
const percent = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "4/5 (80,00 %)": the progression with its share, 2 decimals. */
export function formatProgression(progression: string): string {
  const [done, total] = progression.split('/').map(Number);
  if (done === undefined || !total || !Number.isFinite(done)) return progression;
  return `${progression} (${percent.format((done / total) * 100)} %)`;
}

function Amount({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={cn('tabular-nums', strong && 'font-semibold')}>{value}</dd>
    </div>
  );
}

export function AdminInvoiceCard({ invoice, onEdit }: { invoice: AdminInvoice; onEdit: () => void }) {
  const transferStatus = useUpdateTransferStatus();
  const archive = useArchiveInvoice();
  const transfer = invoice.latestTransfer;
  const waitingTransfer = transfer?.status === 'Enregistré';
  // A transfer in a SEPA batch sent to the bank is paid or refused from the batch, never here.
  const inBatch = waitingTransfer && invoice.payoutBatchReference !== null;
  const paid = transfer?.status === 'Effectué';
  const canArchive = invoice.status !== 'Terminé' && invoice.status !== 'Mission à terminer' && !waitingTransfer;
  const title = invoice.reference;

  const markPaid = async () => {
    try {
      await transferStatus.mutateAsync({ invoiceId: invoice.id, status: 'Effectué' });
      toast({ title: 'Facture marquée comme payée', description: `${formatEuros(transfer?.amount ?? invoice.validatedAmount)} · ${invoice.technicianName}`, variant: 'success' });
    } catch (error) {
      toastError('Impossible de marquer comme payée', error);
    }
  };
  const refuse = async () => {
    try {
      await transferStatus.mutateAsync({ invoiceId: invoice.id, status: 'Refus' });
      toast({ title: 'Paiement refusé', description: `${invoice.technicianName} peut soumettre une nouvelle facture.` });
    } catch (error) {
      toastError('Impossible de refuser le paiement', error);
    }
  };
  const doArchive = async () => {
    try {
      await archive.mutateAsync(invoice.id);
      toast({ title: 'Facture archivée', description: title, variant: 'success' });
    } catch (error) {
      toastError('Impossible d’archiver la facture', error);
    }
  };

  return (
    <li className="rounded-lg border bg-card p-5 shadow-xs" aria-label={`Facture ${title} – ${invoice.technicianName}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-base font-semibold">{title}</h3>
            <Badge variant={STATUS_VARIANTS[invoice.displayStatus] ?? 'outline'}>{invoice.displayStatus}</Badge>
          </div>
          <p className="mt-1 text-sm">
            <span className="font-medium">{invoice.technicianName}</span>
            {invoice.companyName ? <span className="text-muted-foreground"> · {invoice.companyName}</span> : null}
            <span className="text-muted-foreground"> · {formatDate(invoice.invoiceDate ?? invoice.createdAt)}</span>
          </p>
          <p className="mt-1 font-medium">{invoice.missionTitle ?? 'Mission'}</p>
          {invoice.description ? <p className="text-sm text-muted-foreground">{invoice.description}</p> : null}
        </div>
        {transfer ? (
          <div className="rounded-md border bg-muted/40 px-3 py-2 text-sm">
            <div className="flex items-center gap-2">
              <span className="text-muted-foreground">Virement</span>
              <Badge variant={TRANSFER_VARIANTS[transfer.status] ?? 'outline'}>{transfer.status}</Badge>
            </div>
            <p className="mt-1 tabular-nums">
              {formatEuros(transfer.amount)} · {transfer.transferRef ?? 'En attente'}
              {transfer.bankAccountLast4 ? ` · •••• ${transfer.bankAccountLast4}` : ''}
            </p>
            {transfer.transferDate ? <p className="text-xs text-muted-foreground">Effectué le {formatDate(transfer.transferDate)}</p> : null}
          </div>
        ) : null}
      </div>

      <dl className="mt-4 grid grid-cols-4 gap-4 text-sm">
        <Amount label="Montant initial" value={formatEuros(invoice.initialAmount)} />
        <Amount label="Montant" value={formatEuros(invoice.amount)} />
        <Amount label="Montant validé" value={formatEuros(invoice.validatedAmount)} strong />
        <Amount label="Progression" value={formatProgression(invoice.progression)} />
      </dl>

      {invoice.fileFormat ? <EInvoiceDetails format={invoice.fileFormat} eInvoice={invoice.eInvoice} /> : null}

      <div className="mt-4 flex flex-wrap gap-2 border-t pt-4">
        <Button variant="outline" size="sm" onClick={onEdit}>
          <Pencil aria-hidden="true" /> Modifier
        </Button>
        {invoice.fileId ? (
          <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={invoiceFileUrl(invoice.fileId)} download={invoice.fileName ?? true}>
            <Download aria-hidden="true" /> Télécharger la facture
          </a>
        ) : (
          <Button variant="outline" size="sm" onClick={() => toast({ title: 'Fichier non disponible', variant: 'destructive' })}>
            <Download aria-hidden="true" /> Télécharger la facture
          </Button>
        )}
        {paid ? (
          <a className={buttonVariants({ variant: 'outline', size: 'sm' })} href={fiscalReceiptUrl(invoice.id)} target="_blank" rel="noopener">
            <FileText aria-hidden="true" /> Reçu fiscal
          </a>
        ) : null}
        <div className="ml-auto flex flex-wrap gap-2">
          {inBatch ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Landmark aria-hidden="true" className="size-4" /> Dans le lot de virements {invoice.payoutBatchReference} : à payer depuis « Virements SEPA »
            </p>
          ) : null}
          {waitingTransfer && !inBatch ? (
            <>
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm" loading={transferStatus.isPending && transferStatus.variables?.status === 'Refus'}>
                    <XCircle aria-hidden="true" /> Refuser
                  </Button>
                }
                title="Refuser le paiement ?"
                description={`La facture de ${invoice.technicianName} repassera en « Facture à soumettre » : le technicien pourra en envoyer une nouvelle.`}
                confirmLabel="Refuser le paiement"
                onConfirm={refuse}
              />
              <ConfirmDialog
                trigger={
                  <Button variant="success" size="sm" loading={transferStatus.isPending && transferStatus.variables?.status === 'Effectué'}>
                    <CheckCircle2 aria-hidden="true" /> Marquer Payée
                  </Button>
                }
                title="Marquer la facture comme payée ?"
                description={`Le virement de ${formatEuros(transfer.amount)} à ${invoice.technicianName} (compte •••• ${transfer.bankAccountLast4 ?? '????'}) sera enregistré comme effectué.`}
                confirmLabel="Marquer Payée"
                destructive={false}
                onConfirm={markPaid}
              />
            </>
          ) : null}
          {canArchive ? (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" loading={archive.isPending}>
                  <Archive aria-hidden="true" /> Archiver
                </Button>
              }
              title="Archiver la facture ?"
              description="La facture passera au statut « Terminé »."
              confirmLabel="Archiver"
              destructive={false}
              onConfirm={doArchive}
            />
          ) : null}
        </div>
      </div>
    </li>
  );
}
