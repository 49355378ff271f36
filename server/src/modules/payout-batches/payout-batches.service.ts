import crypto from 'node:crypto';
import { centsToEuros, formatEuros } from '@maillon/common/format';
import { compactIban, ibanProblem } from '@maillon/common/iban';
import type { PayoutBatchStatus, PayoutLineStatus } from '@maillon/common/enums';
import {
  PAYOUT_BATCH_MAX_TRANSFERS,
  type CreatePayoutBatchRequest,
  type PayoutBatch,
  type PayoutBatchDetail,
  type PayoutCandidate,
  type PayoutSettings,
} from '@maillon/common/schemas/payout-batches';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import type { AuthContext } from '../auth/auth.service';
import { applyTransferPayment, applyTransferRefusal, ibanLast4 } from '../money/money.service';
import { parisDay } from '../money/e-invoice-checks';
import * as repo from './payout-batches.repository';
import { SEPA_NAME_MAX, SEPA_REMITTANCE_MAX, buildSepaCreditTransfer, toSepaText } from './sepa-credit-transfer';

/**
 * SEPA payout batches (decision 021): the admin picks « Enregistré » transfers (or all), gets one pain.001.001.03 file
 * for the bank, and once the bank has executed it marks the whole batch paid — each transfer through the money
 * module's pay transition, so each is Effectué and counted in the technician's earnings exactly once — or refuses
 * single lines (the money module's refuse transition). The creditor IBAN is the technician's current one, read and
 * recorded on the line when the batch is made; the file is rebuilt from the recorded lines, byte for byte.
 */

type PayoutConfig = Pick<Config, 'CHARITY_IBAN' | 'CHARITY_BIC' | 'CHARITY_NAME' | 'CHARITY_SIRET'>;
type Page = { limit: number; offset: number };

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const fullName = (row: { firstName: string; lastName: string }) => `${row.firstName} ${row.lastName}`.trim();

/** SEPA-yyyymmdd-XXXXXX: the file's MsgId and the batch's reference; lines add -001, -002... (EndToEndId, transfer reference). */
export function generateBatchReference(now = new Date()): string {
  return `SEPA-${parisDay(now).replace(/-/g, '')}-${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
}

export const lineReference = (batchReference: string, lineNumber: number) => `${batchReference}-${String(lineNumber).padStart(3, '0')}`;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export function getPayoutSettings(config: PayoutConfig): PayoutSettings {
  return {
    debtorConfigured: Boolean(config.CHARITY_IBAN && config.CHARITY_BIC),
    debtorName: config.CHARITY_NAME,
    debtorIbanLast4: config.CHARITY_IBAN ? config.CHARITY_IBAN.slice(-4) : null,
    debtorBic: config.CHARITY_BIC ?? null,
    charitySiret: config.CHARITY_SIRET ?? null,
  };
}

/** Why a waiting transfer cannot be paid by SEPA credit transfer now, or null. */
function candidateProblem(row: { iban: string | null; amountCents: number; firstName: string; lastName: string }): string | null {
  if (row.amountCents <= 0) return 'Montant nul : rien à virer';
  if (!row.iban) return `${fullName(row)} n’a pas d’IBAN dans son profil`;
  const problem = ibanProblem(row.iban);
  if (problem) return `IBAN de ${fullName(row)} : ${problem}`;
  if (!toSepaText(fullName(row), SEPA_NAME_MAX)) return `Le nom de ${fullName(row)} ne contient aucun caractère utilisable dans un virement SEPA`;
  return null;
}

function toCandidate(row: Awaited<ReturnType<typeof repo.listCandidates>>['rows'][number]): PayoutCandidate {
  const current = ibanLast4(row.iban);
  return {
    transferId: row.transferId,
    invoiceId: row.invoiceId,
    technicianId: row.technicianId,
    technicianName: fullName(row),
    companyName: row.companyName,
    missionTitle: row.missionTitle,
    invoiceRef: row.invoiceRef,
    amount: centsToEuros(row.amountCents),
    submittedAt: row.createdAt.toISOString(),
    ibanLast4: current,
    submittedIbanLast4: row.bankAccountLast4,
    ibanChanged: Boolean(current && row.bankAccountLast4 && current !== row.bankAccountLast4),
    problem: candidateProblem(row),
  };
}

export async function listCandidates({ db, page }: { db: Db; page: Page }) {
  const { rows, total } = await repo.listCandidates(db, page);
  return { items: rows.map(toCandidate), total };
}

function toBatch(row: NonNullable<repo.BatchRow>): PayoutBatch {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status as PayoutBatchStatus,
    executionDate: row.executionDate,
    debtorName: row.debtorName,
    debtorIbanLast4: row.debtorIban.slice(-4),
    transferCount: row.transferCount,
    total: centsToEuros(row.totalCents),
    paidCount: row.paidCount,
    refusedCount: row.refusedCount,
    createdAt: row.createdAt.toISOString(),
    paidAt: iso(row.paidAt),
    cancelledAt: iso(row.cancelledAt),
  };
}

async function batchDetail(tx: DbOrTx, batchId: string): Promise<PayoutBatchDetail> {
  const batch = await repo.findBatch(tx, batchId);
  if (!batch) throw new AppError('NOT_FOUND', 'Lot de virements introuvable');
  const lines = await repo.listLines(tx, batchId);
  return {
    ...toBatch(batch),
    lines: lines.map((line) => ({
      id: line.id,
      lineNumber: line.lineNumber,
      transferId: line.transferId,
      invoiceId: line.invoiceId,
      technicianId: line.technicianId,
      creditorName: line.creditorName,
      creditorIbanLast4: line.creditorIban.slice(-4),
      ibanChanged: line.ibanChanged,
      amount: centsToEuros(line.amountCents),
      remittance: line.remittance,
      endToEndId: line.endToEndId,
      status: line.status as PayoutLineStatus,
    })),
  };
}

export async function listBatches({ db, filters, page }: { db: Db; filters: { status?: string | undefined }; page: Page }) {
  const { rows, total } = await repo.listBatches(db, filters, page);
  return { items: rows.map(toBatch), total };
}

export async function getBatch({ db, batchId }: { db: Db; batchId: string }) {
  return batchDetail(db, batchId);
}

/** A French list of at most 5 problems, then « et N autres ». */
function listProblems(problems: string[]): string {
  const shown = problems.slice(0, 5).join(' · ');
  return problems.length > 5 ? `${shown} · et ${problems.length - 5} autres` : shown;
}

/** The batch « Préparé » made of exactly these transfers, which all of them are in (`holders`), or null. */
async function batchMadeOf(tx: DbOrTx, requested: string[], holders: { batchId: string }[]) {
  const holderIds = new Set(holders.map((h) => h.batchId));
  if (holders.length !== requested.length || holderIds.size !== 1) return null;
  const [batchId] = holderIds;
  const inBatch = await repo.transferIdsOfBatch(tx, batchId!);
  const batch = await repo.findBatch(tx, batchId!);
  return batch?.status === 'Préparé' && inBatch.length === requested.length ? batchDetail(tx, batchId!) : null;
}

/**
 * Makes a batch of the chosen transfers (or of every one that can be paid): each must be « Enregistré », in no other
 * batch, with a positive amount and a valid SEPA IBAN on its technician's profile. One transaction; a retry with the
 * same transfers answers the batch already made.
 */
export async function createBatch({ db, config, auth, request }: { db: Db; config: PayoutConfig; auth: AuthContext; request: CreatePayoutBatchRequest }) {
  if (!config.CHARITY_IBAN || !config.CHARITY_BIC) {
    throw new AppError('CONFLICT', 'Le compte de l’association n’est pas configuré (CHARITY_IBAN et CHARITY_BIC) : impossible de produire un fichier de virements');
  }
  const today = parisDay();
  const executionDate = request.executionDate ?? today;
  if (executionDate < today) throw new AppError('VALIDATION_ERROR', 'La date d’exécution ne peut pas être passée', { executionDate: 'La date d’exécution ne peut pas être passée' });
  if (executionDate > parisDay(new Date(Date.now() + 365 * 86_400_000))) {
    throw new AppError('VALIDATION_ERROR', 'La date d’exécution doit être dans l’année qui vient', { executionDate: 'La date d’exécution doit être dans l’année qui vient' });
  }
  try {
    return await db.transaction(async (tx) => {
      const requested = request.transferIds ?? (await repo.candidateIds(tx, PAYOUT_BATCH_MAX_TRANSFERS));
      if (requested.length === 0) throw new AppError('CONFLICT', 'Aucun virement « Enregistré » à payer');
      // A retry of the same request (double click, network replay) answers the batch it made: looked for first without
      // a lock, so that copies arriving once it is committed do not wait for each other's locks, then again under the
      // lock for the copies that waited for it.
      if (request.transferIds) {
        const made = await batchMadeOf(tx, requested, await repo.openBatchesHolding(tx, requested));
        if (made) return { batch: made, created: false };
      }
      const rows = await repo.lockTransfersForBatch(tx, requested);
      const holders = await repo.openBatchesHolding(tx, requested);
      if (request.transferIds) {
        const made = await batchMadeOf(tx, requested, holders);
        if (made) return { batch: made, created: false };
      }

      const byId = new Map(rows.map((row) => [row.transferId, row]));
      const problems: string[] = [];
      const unknown = requested.filter((id) => !byId.has(id));
      if (unknown.length) throw new AppError('NOT_FOUND', unknown.length === 1 ? 'Virement introuvable' : `${unknown.length} virements introuvables`);
      for (const id of requested) {
        const row = byId.get(id)!;
        const label = `Le virement ${row.invoiceRef} (${fullName(row)})`;
        if (row.status !== 'Enregistré') problems.push(`${label} est « ${row.status} » : seuls les virements « Enregistré » peuvent être payés`);
        else if (row.held) problems.push(`${label} est déjà dans le lot ${holders.find((h) => h.transferId === id)?.reference ?? 'en cours'}`);
      }
      if (problems.length) throw new AppError('INVALID_TRANSITION', listProblems(problems));
      for (const id of requested) {
        const row = byId.get(id)!;
        const problem = candidateProblem(row);
        if (problem) problems.push(`${row.invoiceRef} : ${problem}`);
      }
      if (problems.length) throw new AppError('VALIDATION_ERROR', listProblems(problems));

      const now = new Date();
      const reference = generateBatchReference(now);
      const ordered = requested
        .map((id) => byId.get(id)!)
        .sort((a, b) => a.lastName.localeCompare(b.lastName, 'fr') || a.firstName.localeCompare(b.firstName, 'fr') || a.createdAt.getTime() - b.createdAt.getTime());
      const lines = ordered.map((row, index) => {
        const iban = compactIban(row.iban!);
        // Remittance information = the invoice reference, as the technician's bank statement will show it.
        const remittance = toSepaText(row.invoiceRef, SEPA_REMITTANCE_MAX) || lineReference(reference, index + 1);
        return {
          lineNumber: index + 1,
          transferId: row.transferId,
          invoiceId: row.invoiceId,
          technicianId: row.technicianId,
          creditorName: toSepaText(fullName(row), SEPA_NAME_MAX),
          creditorIban: iban,
          ibanChanged: Boolean(row.bankAccountLast4 && iban.slice(-4) !== row.bankAccountLast4),
          amountCents: row.amountCents,
          remittance,
          endToEndId: lineReference(reference, index + 1),
          status: 'À payer',
        };
      });
      const totalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
      const batchId = await repo.insertBatch(
        tx,
        {
          reference,
          status: 'Préparé',
          executionDate,
          debtorName: toSepaText(config.CHARITY_NAME, SEPA_NAME_MAX),
          debtorIban: config.CHARITY_IBAN!,
          debtorBic: config.CHARITY_BIC!,
          transferCount: lines.length,
          totalCents,
          createdByUserId: auth.userId,
          createdAt: now,
        },
        lines,
      );
      await audit(tx, {
        actorUserId: auth.userId,
        action: 'payout-batch.create',
        entity: 'payout_batch',
        entityId: batchId,
        after: { reference, transferCount: lines.length, totalCents, executionDate, transferIds: lines.map((l) => l.transferId) },
      });
      return { batch: await batchDetail(tx, batchId), created: true };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'Un de ces virements vient d’être mis dans un autre lot : rechargez la liste');
    throw error;
  }
}

/** The batch's SEPA file, rebuilt from its recorded lines (the same bytes at every download). */
export async function getBatchFile({ db, config, batchId }: { db: Db; config: PayoutConfig; batchId: string }) {
  const batch = await repo.findBatch(db, batchId);
  if (!batch) throw new AppError('NOT_FOUND', 'Lot de virements introuvable');
  if (batch.status === 'Annulé') throw new AppError('CONFLICT', 'Ce lot a été annulé : son fichier n’est plus disponible');
  const lines = await repo.listLines(db, batchId);
  const xml = buildSepaCreditTransfer({
    messageId: batch.reference,
    createdAt: batch.createdAt,
    executionDate: batch.executionDate,
    initiatingPartyName: config.CHARITY_NAME,
    debtor: { name: batch.debtorName, iban: batch.debtorIban, bic: batch.debtorBic },
    transactions: lines.map((line) => ({
      endToEndId: line.endToEndId,
      amountCents: line.amountCents,
      creditorName: line.creditorName,
      creditorIban: line.creditorIban,
      remittance: line.remittance,
    })),
  });
  return { xml, fileName: `${batch.reference}.xml` };
}

/**
 * After the bank executed the file: every line still « À payer » is paid through the money module (transfer Effectué
 * with the line's reference, earnings added once). The batch row is locked: concurrent or repeated calls pay once.
 */
export async function markBatchPaid({ db, auth, batchId }: { db: Db; auth: AuthContext; batchId: string }) {
  return db.transaction(async (tx) => {
    // A repeated call once the batch is paid answers it without waiting for the lock (as createBatch's retries).
    if ((await repo.findBatch(tx, batchId))?.status === 'Payé') return { batch: await batchDetail(tx, batchId), changed: false };
    const batch = await repo.lockBatch(tx, batchId);
    if (!batch) throw new AppError('NOT_FOUND', 'Lot de virements introuvable');
    if (batch.status === 'Payé') return { batch: await batchDetail(tx, batchId), changed: false };
    if (batch.status === 'Annulé') throw new AppError('INVALID_TRANSITION', 'Ce lot a été annulé : il ne peut pas être marqué payé');
    const lines = (await repo.listLines(tx, batchId)).filter((line) => line.status === 'À payer');
    // The invoices are locked in id order, as everywhere else.
    lines.sort((a, b) => (a.invoiceId ?? '').localeCompare(b.invoiceId ?? ''));
    let paidCents = 0;
    for (const line of lines) {
      if (line.invoiceId && line.transferId) {
        await applyTransferPayment(tx, { auth, invoiceId: line.invoiceId, source: { kind: 'batch', transferId: line.transferId, transferRef: line.endToEndId } });
      }
      await repo.setLineStatus(tx, line.id, 'Payé');
      paidCents += line.amountCents;
    }
    await repo.setBatchStatus(tx, batchId, { status: 'Payé', paidAt: new Date() });
    await audit(tx, {
      actorUserId: auth.userId,
      action: 'payout-batch.pay',
      entity: 'payout_batch',
      entityId: batchId,
      before: { status: batch.status },
      after: { status: 'Payé', paidLines: lines.length, paidCents },
    });
    return { batch: await batchDetail(tx, batchId), changed: true };
  });
}

/** The bank refused one transfer of the batch: transfer « Refus », invoice back to « Facture à soumettre ». */
export async function refuseLine({ db, auth, batchId, lineId }: { db: Db; auth: AuthContext; batchId: string; lineId: string }) {
  return db.transaction(async (tx) => {
    const batch = await repo.lockBatch(tx, batchId);
    if (!batch) throw new AppError('NOT_FOUND', 'Lot de virements introuvable');
    const line = await repo.findLine(tx, batchId, lineId);
    if (!line) throw new AppError('NOT_FOUND', 'Ligne introuvable dans ce lot');
    if (line.status === 'Refusé') return { batch: await batchDetail(tx, batchId), changed: false };
    if (batch.status !== 'Préparé' || line.status !== 'À payer') {
      throw new AppError('INVALID_TRANSITION', line.status === 'Payé' ? 'Ce virement a déjà été effectué' : 'Ce lot n’attend plus la banque : la ligne ne peut plus être refusée');
    }
    if (line.invoiceId && line.transferId) {
      await applyTransferRefusal(tx, { auth, invoiceId: line.invoiceId, source: { kind: 'batch', transferId: line.transferId, transferRef: line.endToEndId } });
    }
    await repo.setLineStatus(tx, line.id, 'Refusé');
    await audit(tx, {
      actorUserId: auth.userId,
      action: 'payout-batch.refuse-line',
      entity: 'payout_batch',
      entityId: batchId,
      after: { lineId, lineNumber: line.lineNumber, transferId: line.transferId, amount: formatEuros(centsToEuros(line.amountCents)) },
    });
    return { batch: await batchDetail(tx, batchId), changed: true };
  });
}

/** A batch never sent to the bank: its transfers go back to the waiting list. */
export async function cancelBatch({ db, auth, batchId }: { db: Db; auth: AuthContext; batchId: string }) {
  return db.transaction(async (tx) => {
    const batch = await repo.lockBatch(tx, batchId);
    if (!batch) throw new AppError('NOT_FOUND', 'Lot de virements introuvable');
    if (batch.status === 'Annulé') return { batch: await batchDetail(tx, batchId), changed: false };
    if (batch.status === 'Payé') throw new AppError('INVALID_TRANSITION', 'Ce lot est payé : il ne peut plus être annulé');
    await repo.cancelOpenLines(tx, batchId);
    await repo.setBatchStatus(tx, batchId, { status: 'Annulé', cancelledAt: new Date() });
    await audit(tx, { actorUserId: auth.userId, action: 'payout-batch.cancel', entity: 'payout_batch', entityId: batchId, before: { status: batch.status }, after: { status: 'Annulé' } });
    return { batch: await batchDetail(tx, batchId), changed: true };
  });
}
