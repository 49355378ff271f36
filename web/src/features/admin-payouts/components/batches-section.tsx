import { AlertTriangle, CheckCircle2, ChevronDown, ChevronUp, Download, FileX2, Landmark, XCircle } from 'lucide-react';
import { useState } from 'react';
import { formatDate, formatEuros } from '@maillon/common/format';
import type { PayoutBatch, PayoutLine } from '@maillon/common/schemas/payout-batches';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Pager } from '@/components/ui/pager';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCancelPayoutBatch } from '../api/cancel-payout-batch';
import { usePayoutBatch } from '../api/get-payout-batch';
import { BATCHES_PAGE_SIZE, usePayoutBatches } from '../api/get-payout-batches';
import { sepaFileUrl } from '../api/links';
import { usePayPayoutBatch } from '../api/pay-payout-batch';
import { useRefusePayoutLine } from '../api/refuse-payout-line';

const BATCH_VARIANTS = { Préparé: 'warning', Payé: 'success', Annulé: 'secondary' } as const;
const LINE_VARIANTS = { 'À payer': 'warning', Payé: 'success', Refusé: 'danger', Annulé: 'secondary' } as const;

function LineRow({ batch, line }: { batch: PayoutBatch; line: PayoutLine }) {
  const refuse = useRefusePayoutLine();
  const onRefuse = async () => {
    try {
      await refuse.mutateAsync({ batchId: batch.id, lineId: line.id });
      toast({ title: 'Virement refusé', description: `${line.creditorName} pourra envoyer une nouvelle facture.` });
    } catch (error) {
      toastError('Impossible de refuser ce virement', error);
    }
  };
  return (
    <tr>
      <td className="px-3 py-2 tabular-nums">{line.lineNumber}</td>
      <td className="px-3 py-2">
        {line.creditorName}
        <span className="block text-xs text-muted-foreground">{line.endToEndId}</span>
      </td>
      <td className="px-3 py-2">
        •••• {line.creditorIbanLast4}
        {line.ibanChanged ? (
          <Badge variant="warning" className="ml-2">
            <AlertTriangle aria-hidden="true" className="size-3" /> IBAN modifié
          </Badge>
        ) : null}
      </td>
      <td className="px-3 py-2">{line.remittance}</td>
      <td className="px-3 py-2 text-right tabular-nums">{formatEuros(line.amount)}</td>
      <td className="px-3 py-2">
        <Badge variant={LINE_VARIANTS[line.status]}>{line.status}</Badge>
      </td>
      <td className="px-3 py-2 text-right">
        {batch.status === 'Préparé' && line.status === 'À payer' ? (
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" loading={refuse.isPending} aria-label={`Refuser la ligne ${line.lineNumber} (${line.creditorName})`}>
                <XCircle aria-hidden="true" /> Refuser
              </Button>
            }
            title="Refuser ce virement ?"
            description={`La banque n’a pas exécuté le virement de ${formatEuros(line.amount)} à ${line.creditorName} : le virement passe « Refus » et la facture revient au technicien (« Facture à soumettre »).`}
            confirmLabel="Refuser le virement"
            onConfirm={onRefuse}
          />
        ) : null}
      </td>
    </tr>
  );
}

function BatchDetail({ batch }: { batch: PayoutBatch }) {
  const detail = usePayoutBatch(batch.id);
  const pay = usePayPayoutBatch();
  const cancel = useCancelPayoutBatch();
  const open = batch.status === 'Préparé';
  const toPay = detail.data ? detail.data.lines.filter((l) => l.status === 'À payer') : [];
  const toPayTotal = toPay.reduce((sum, l) => sum + l.amount, 0);

  const onPay = async () => {
    try {
      const paid = await pay.mutateAsync(batch.id);
      toast({ title: `Lot ${paid.reference} marqué payé`, description: `${paid.paidCount} virement${paid.paidCount > 1 ? 's' : ''} effectué${paid.paidCount > 1 ? 's' : ''}`, variant: 'success' });
    } catch (error) {
      toastError('Impossible de marquer le lot payé', error);
    }
  };
  const onCancel = async () => {
    try {
      await cancel.mutateAsync(batch.id);
      toast({ title: `Lot ${batch.reference} annulé`, description: 'Ses virements sont de nouveau en attente.' });
    } catch (error) {
      toastError('Impossible d’annuler le lot', error);
    }
  };

  if (detail.isPending) return <Skeleton className="mt-3 h-32" />;
  if (detail.isError) return <ErrorState error={detail.error} className="mt-3" />;
  return (
    <div className="mt-3 grid gap-3">
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-left text-sm" aria-label={`Virements du lot ${batch.reference}`}>
          <thead className="bg-muted/60 text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">N°</th>
              <th scope="col" className="px-3 py-2 font-medium">Bénéficiaire</th>
              <th scope="col" className="px-3 py-2 font-medium">IBAN</th>
              <th scope="col" className="px-3 py-2 font-medium">Libellé</th>
              <th scope="col" className="px-3 py-2 text-right font-medium">Montant</th>
              <th scope="col" className="px-3 py-2 font-medium">Statut</th>
              <th scope="col" className="px-3 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {detail.data.lines.map((line) => (
              <LineRow key={line.id} batch={batch} line={line} />
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap gap-2">
        {batch.status !== 'Annulé' ? (
          <a
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
            href={sepaFileUrl(batch.id)}
            download
            onClick={() => toast({ title: 'Fichier SEPA téléchargé', description: `${batch.reference}.xml : importez-le dans l’espace de votre banque` })}
          >
            <Download aria-hidden="true" /> Télécharger le fichier SEPA (XML)
          </a>
        ) : null}
        {open ? (
          <>
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" loading={cancel.isPending}>
                  <FileX2 aria-hidden="true" /> Annuler le lot
                </Button>
              }
              title="Annuler ce lot ?"
              description="À faire seulement si le fichier n’a pas été envoyé à la banque : ses virements reviennent dans la liste à payer."
              confirmLabel="Annuler le lot"
              onConfirm={onCancel}
            />
            <ConfirmDialog
              trigger={
                <Button variant="success" size="sm" loading={pay.isPending} disabled={toPay.length === 0 && detail.data.lines.length > 0 && batch.refusedCount === batch.transferCount}>
                  <CheckCircle2 aria-hidden="true" /> Marquer le lot payé
                </Button>
              }
              title="Marquer le lot comme payé ?"
              description={`À faire une fois la banque a exécuté le fichier : ${toPay.length} virement${toPay.length > 1 ? 's' : ''} (${formatEuros(toPayTotal)}) passeront « Effectué », une seule fois.`}
              confirmLabel="Marquer le lot payé"
              destructive={false}
              onConfirm={onPay}
            />
          </>
        ) : null}
      </div>
    </div>
  );
}

function BatchCard({ batch, expanded, onToggle }: { batch: PayoutBatch; expanded: boolean; onToggle: () => void }) {
  return (
    <li className="rounded-lg border bg-card p-4 shadow-xs" aria-label={`Lot ${batch.reference}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">{batch.reference}</h3>
            <Badge variant={BATCH_VARIANTS[batch.status]}>{batch.status}</Badge>
          </div>
          <p className="mt-1 text-sm text-muted-foreground">
            Créé le {formatDate(batch.createdAt)} · exécution demandée le {formatDate(`${batch.executionDate}T12:00:00Z`)} · débit du compte •••• {batch.debtorIbanLast4}
            {batch.paidAt ? ` · payé le ${formatDate(batch.paidAt)}` : ''}
          </p>
        </div>
        <div className="text-right">
          <p className="font-semibold tabular-nums">{formatEuros(batch.total)}</p>
          <p className="text-sm text-muted-foreground">
            {batch.transferCount} virement{batch.transferCount > 1 ? 's' : ''}
            {batch.refusedCount ? ` · ${batch.refusedCount} refusé${batch.refusedCount > 1 ? 's' : ''}` : ''}
          </p>
        </div>
      </div>
      <Button variant="outline" size="sm" className="mt-3" aria-expanded={expanded} onClick={onToggle}>
        {expanded ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />} {expanded ? 'Masquer le détail' : 'Voir le détail'}
      </Button>
      {expanded ? <BatchDetail batch={batch} /> : null}
    </li>
  );
}

/** The batches, newest first; one open at a time shows its lines and actions. */
export function BatchesSection({ expandedId, onExpand }: { expandedId: string | null; onExpand: (id: string | null) => void }) {
  const [offset, setOffset] = useState(0);
  const batches = usePayoutBatches(offset);
  return (
    <section aria-labelledby="payout-batches-title" className="grid gap-3">
      <div>
        <h2 id="payout-batches-title" className="text-lg font-semibold">
          Lots de virements
        </h2>
        <p className="text-sm text-muted-foreground">Téléchargez le fichier SEPA, importez-le à la banque, puis marquez le lot payé une fois exécuté.</p>
      </div>
      {batches.isPending ? (
        <Skeleton className="h-24" />
      ) : batches.isError ? (
        <ErrorState error={batches.error} />
      ) : batches.data.items.length === 0 ? (
        <EmptyState icon={<Landmark />} title="Aucun lot de virements" />
      ) : (
        <>
          <ul className="grid gap-3" aria-label="Lots de virements">
            {batches.data.items.map((batch) => (
              <BatchCard key={batch.id} batch={batch} expanded={expandedId === batch.id} onToggle={() => onExpand(expandedId === batch.id ? null : batch.id)} />
            ))}
          </ul>
          <Pager offset={offset} limit={BATCHES_PAGE_SIZE} total={batches.data.total} onChange={setOffset} label="Pagination des lots" />
        </>
      )}
    </section>
  );
}
