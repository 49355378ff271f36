import { FileText } from 'lucide-react';
import type { TechnicianTransfer } from '@maillon/common/schemas/money';
import { formatDate, formatEuros } from '@maillon/common/format';
import { buttonVariants } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { fiscalReceiptUrl } from '../api/get-fiscal-receipt';
import { TransferStatusBadge } from './status-badges';

export function TransferCard({ transfer }: { transfer: TechnicianTransfer }) {
  return (
    <li className="rounded-lg border bg-card p-4 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xl font-bold tabular-nums">{formatEuros(transfer.amount)}</p>
          {transfer.missionTitle ? <p className="break-words text-sm text-muted-foreground">{transfer.missionTitle}</p> : null}
        </div>
        <TransferStatusBadge status={transfer.status} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <div className="min-w-0">
          <dt className="text-xs text-muted-foreground">Référence facture</dt>
          <dd className="break-words">{transfer.invoiceRef}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-muted-foreground">Référence virement</dt>
          <dd className="break-words">{transfer.transferRef}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Compte</dt>
          <dd className="tabular-nums">{transfer.bankAccountLast4 ? `•••• ${transfer.bankAccountLast4}` : 'Non renseigné'}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{transfer.transferDate ? 'Date du virement' : 'Enregistré le'}</dt>
          <dd>{formatDate(transfer.transferDate ?? transfer.createdAt)}</dd>
        </div>
      </dl>
      {transfer.status === 'Effectué' && transfer.invoiceId ? (
        <a
          href={fiscalReceiptUrl(transfer.invoiceId)}
          target="_blank"
          rel="noopener"
          className={cn(buttonVariants({ variant: 'outline', size: 'lg' }), 'mt-4 w-full sm:w-auto')}
          onClick={() => toast({ title: 'Reçu fiscal généré', description: `Référence ${transfer.transferRef}`, variant: 'success' })}
        >
          <FileText aria-hidden="true" /> Reçu fiscal
        </a>
      ) : null}
    </li>
  );
}
