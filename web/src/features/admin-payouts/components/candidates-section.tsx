import { useState } from 'react';
import { AlertTriangle, Landmark, Send } from 'lucide-react';
import { formatDate, formatEuros } from '@maillon/common/format';
import type { PayoutCandidate } from '@maillon/common/schemas/payout-batches';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { toast, toastError } from '@/components/ui/use-toast';
import { useCreatePayoutBatch } from '../api/create-payout-batch';
import { CANDIDATES_PAGE_SIZE, usePayoutCandidates } from '../api/get-payout-candidates';

/** Today in Paris, yyyy-mm-dd: the earliest execution date. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** The waiting transfers: pick some (or all), choose the execution date, make the batch. */
export function CandidatesSection({ configured, onCreated }: { configured: boolean; onCreated: (batchId: string) => void }) {
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<Map<string, PayoutCandidate>>(new Map());
  const [executionDate, setExecutionDate] = useState(today);
  const candidates = usePayoutCandidates(offset);
  const create = useCreatePayoutBatch();

  const items = candidates.data?.items ?? [];
  const payable = items.filter((c) => c.problem === null);
  const total = candidates.data?.total ?? 0;
  const selectedTotal = [...selected.values()].reduce((sum, c) => sum + c.amount, 0);
  const allOnPage = payable.length > 0 && payable.every((c) => selected.has(c.transferId));
  const toggle = (candidate: PayoutCandidate, on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(candidate.transferId, candidate);
      else next.delete(candidate.transferId);
      return next;
    });
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const c of payable) {
        if (on) next.set(c.transferId, c);
        else next.delete(c.transferId);
      }
      return next;
    });

  const make = async (body: { transferIds: string[] } | { all: true }) => {
    try {
      const batch = await create.mutateAsync({ ...body, executionDate });
      setSelected(new Map());
      toast({ title: `Lot ${batch.reference} créé`, description: `${batch.transferCount} virement${batch.transferCount > 1 ? 's' : ''} · ${formatEuros(batch.total)} : téléchargez le fichier SEPA pour la banque`, variant: 'success' });
      onCreated(batch.id);
    } catch (error) {
      toastError('Impossible de créer le lot', error);
    }
  };

  return (
    <section aria-labelledby="payout-candidates-title" className="grid gap-3">
      <div>
        <h2 id="payout-candidates-title" className="text-lg font-semibold">
          Virements à payer
        </h2>
        <p className="text-sm text-muted-foreground">Les virements « Enregistré » qui ne sont dans aucun lot. L’IBAN est celui du profil du technicien aujourd’hui.</p>
      </div>
      {candidates.isPending ? (
        <Skeleton className="h-40" />
      ) : candidates.isError ? (
        <ErrorState error={candidates.error} />
      ) : items.length === 0 ? (
        <EmptyState icon={<Landmark />} title="Aucun virement en attente">
          Les factures envoyées par les techniciens apparaîtront ici.
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-left text-sm">
              <thead className="bg-muted/60 text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="w-10 px-3 py-2">
                    <Checkbox aria-label="Sélectionner tous les virements de la page" checked={allOnPage} disabled={payable.length === 0} onCheckedChange={(v) => togglePage(v === true)} />
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">Technicien</th>
                  <th scope="col" className="px-3 py-2 font-medium">Facture</th>
                  <th scope="col" className="px-3 py-2 font-medium">Mission</th>
                  <th scope="col" className="px-3 py-2 font-medium">IBAN</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Montant</th>
                </tr>
              </thead>
              <tbody className={candidates.isPlaceholderData ? 'divide-y opacity-60' : 'divide-y'}>
                {items.map((c) => (
                  <tr key={c.transferId}>
                    <td className="px-3 py-2 align-top">
                      <Checkbox
                        aria-label={`Sélectionner ${c.invoiceRef} (${c.technicianName})`}
                        checked={selected.has(c.transferId)}
                        disabled={c.problem !== null}
                        onCheckedChange={(v) => toggle(c, v === true)}
                      />
                    </td>
                    <td className="px-3 py-2 align-top">
                      <span className="font-medium">{c.technicianName}</span>
                      {c.companyName ? <span className="block text-xs text-muted-foreground">{c.companyName}</span> : null}
                    </td>
                    <td className="px-3 py-2 align-top">
                      {c.invoiceRef}
                      <span className="block text-xs text-muted-foreground">envoyée le {formatDate(c.submittedAt)}</span>
                    </td>
                    <td className="max-w-56 truncate px-3 py-2 align-top" title={c.missionTitle ?? undefined}>
                      {c.missionTitle ?? '—'}
                    </td>
                    <td className="px-3 py-2 align-top">
                      {c.ibanLast4 ? `•••• ${c.ibanLast4}` : '—'}
                      {c.ibanChanged ? (
                        <Badge variant="warning" className="ml-2" title={`IBAN à l’envoi de la facture : •••• ${c.submittedIbanLast4}`}>
                          <AlertTriangle aria-hidden="true" className="size-3" /> IBAN modifié
                        </Badge>
                      ) : null}
                      {c.problem ? <span className="mt-1 block text-xs text-destructive">{c.problem}</span> : null}
                    </td>
                    <td className="px-3 py-2 text-right align-top tabular-nums">{formatEuros(c.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} limit={CANDIDATES_PAGE_SIZE} total={total} onChange={setOffset} label="Pagination des virements à payer" />
          <div className="flex flex-wrap items-end gap-3 rounded-md border bg-muted/30 p-3">
            <Field id="payout-execution-date" label="Date d’exécution demandée" className="w-52">
              <Input type="date" min={today()} value={executionDate} onChange={(e) => setExecutionDate(e.target.value || today())} />
            </Field>
            <p className="min-w-48 flex-1 text-sm" aria-live="polite">
              {selected.size} virement{selected.size > 1 ? 's' : ''} sélectionné{selected.size > 1 ? 's' : ''} · {formatEuros(selectedTotal)}
            </p>
            <ConfirmDialog
              trigger={
                <Button variant="outline" disabled={!configured || total === 0} loading={create.isPending && !create.variables?.transferIds}>
                  Tout payer ({total})
                </Button>
              }
              title="Créer un lot avec tous les virements en attente ?"
              description="Chaque virement payable (IBAN valide de la zone SEPA) entre dans un seul fichier SEPA. Les autres restent en attente."
              confirmLabel="Créer le lot"
              destructive={false}
              onConfirm={() => make({ all: true })}
            />
            <ConfirmDialog
              trigger={
                <Button disabled={!configured || selected.size === 0} loading={create.isPending && Boolean(create.variables?.transferIds)}>
                  <Send aria-hidden="true" /> Créer le lot SEPA
                </Button>
              }
              title="Créer le lot de virements ?"
              description={`${selected.size} virement${selected.size > 1 ? 's' : ''} pour ${formatEuros(selectedTotal)}, exécution demandée le ${formatDate(`${executionDate}T12:00:00Z`)}. Ces virements ne pourront plus être payés un par un.`}
              confirmLabel="Créer le lot"
              destructive={false}
              onConfirm={() => make({ transferIds: [...selected.keys()] })}
            />
          </div>
        </>
      )}
    </section>
  );
}
