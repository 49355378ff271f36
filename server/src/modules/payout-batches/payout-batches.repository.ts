import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { invoices, payoutBatchLines, payoutBatches, technicians, transfers } from '../../db/schema';
import { literalLimit, pageTotal, windowTotal } from '../../lib/pagination';
import { statusCountSql } from '../../lib/row-counts';

/** Drizzle queries of the payout batches only; rules live in payout-batches.service.ts. */

/** A transfer line of a batch is "held" unless its batch was cancelled. */
// Correlated subqueries name the outer table literally: an interpolated column renders unqualified inside them.
const heldByBatch = sql`exists (select 1 from payout_batch_lines l where l.transfer_id = transfers.id and l.status <> 'Annulé')`;

/** The candidates' total (listCandidates): the waiting transfers less those a line « À payer » holds. */
const waitingTotal = sql<number>`${statusCountSql('transfers', ['Enregistré'])} - (select count(*)::int from payout_batch_lines l
  join transfers t on t.id = l.transfer_id where l.status = 'À payer' and t.status = 'Enregistré')`.mapWith(Number);

const candidateColumns = {
  transferId: transfers.id,
  invoiceId: transfers.invoiceId,
  technicianId: transfers.technicianId,
  status: transfers.status,
  invoiceRef: transfers.invoiceRef,
  amountCents: transfers.amountCents,
  bankAccountLast4: transfers.bankAccountLast4,
  createdAt: transfers.createdAt,
  firstName: technicians.firstName,
  lastName: technicians.lastName,
  companyName: technicians.companyName,
  iban: technicians.iban,
  missionTitle: invoices.missionTitle,
};

/**
 * Waiting transfers ("Enregistré") no batch holds, oldest first. The page walks transfers_status_idx and stops at its
 * rows before joining their technicians and invoices; the total is the waiting transfers' kept count (row_counts) less
 * those a line « À payer » holds (payout_batch_lines_to_pay_idx): counting the list itself read every waiting transfer
 * (15 000 at full scale, 129 ms with the joins). A line paid or refused leaves its transfer « Effectué » or « Refus »,
 * and a cancelled batch's lines are « Annulé », so the lines « À payer » are the ones holding waiting transfers.
 */
export async function listCandidates(tx: DbOrTx, page: { limit: number; offset: number }) {
  const waiting = tx
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(eq(transfers.status, 'Enregistré'), sql`not ${heldByBatch}`))
    .orderBy(asc(transfers.createdAt), asc(transfers.id))
    .limit(literalLimit(page.limit))
    .offset(page.offset)
    .as('waiting');
  const rows = await tx
    .select({ ...candidateColumns, total: waitingTotal })
    .from(waiting)
    .innerJoin(transfers, eq(transfers.id, waiting.id))
    .innerJoin(technicians, eq(technicians.id, transfers.technicianId))
    .leftJoin(invoices, eq(invoices.id, transfers.invoiceId))
    .orderBy(asc(transfers.createdAt), asc(transfers.id));
  const total = await pageTotal(rows, page.offset, async () => {
    const result = await tx.execute<{ n: number | string }>(sql`select ${waitingTotal} as n`);
    return Number(result.rows[0]?.n ?? 0);
  });
  return { rows, total };
}

/** The ids of every transfer that can join a batch now (bounded). */
export async function candidateIds(tx: DbOrTx, max: number): Promise<string[]> {
  const rows = await tx
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(eq(transfers.status, 'Enregistré'), sql`not ${heldByBatch}`))
    .orderBy(asc(transfers.createdAt), asc(transfers.id))
    .limit(max);
  return rows.map((r) => r.id);
}

/**
 * Locks the invoices of these transfers, in id order (the order every money transition locks an invoice in), then the
 * transfers: a concurrent « Marquer Payée » waits, and then sees the transfer in the batch.
 */
export async function lockTransfersForBatch(tx: DbOrTx, transferIds: string[]) {
  if (transferIds.length === 0) return [];
  const ids = sql.join(transferIds.map((id) => sql`${id}::uuid`), sql`, `);
  await tx.execute(sql`select i.id from invoices i where i.id in (select t.invoice_id from transfers t where t.id in (${ids})) order by i.id for update`);
  await tx.execute(sql`select t.id from transfers t where t.id in (${ids}) order by t.id for update`);
  return tx
    .select({ ...candidateColumns, held: sql<boolean>`${heldByBatch}` })
    .from(transfers)
    .innerJoin(technicians, eq(technicians.id, transfers.technicianId))
    .leftJoin(invoices, eq(invoices.id, transfers.invoiceId))
    .where(inArray(transfers.id, transferIds));
}

/** The open batch holding each of these transfers, with its other lines' transfers (for the idempotent retry). */
export async function openBatchesHolding(tx: DbOrTx, transferIds: string[]) {
  if (transferIds.length === 0) return [];
  return tx
    .select({ transferId: payoutBatchLines.transferId, batchId: payoutBatches.id, reference: payoutBatches.reference })
    .from(payoutBatchLines)
    .innerJoin(payoutBatches, eq(payoutBatches.id, payoutBatchLines.batchId))
    .where(and(inArray(payoutBatchLines.transferId, transferIds), sql`${payoutBatchLines.status} <> 'Annulé'`));
}

export async function transferIdsOfBatch(tx: DbOrTx, batchId: string): Promise<string[]> {
  const rows = await tx.select({ id: payoutBatchLines.transferId }).from(payoutBatchLines).where(eq(payoutBatchLines.batchId, batchId));
  return rows.map((r) => r.id).filter((id): id is string => id !== null);
}

export const batchColumns = {
  id: payoutBatches.id,
  reference: payoutBatches.reference,
  status: payoutBatches.status,
  executionDate: payoutBatches.executionDate,
  debtorName: payoutBatches.debtorName,
  debtorIban: payoutBatches.debtorIban,
  debtorBic: payoutBatches.debtorBic,
  transferCount: payoutBatches.transferCount,
  totalCents: payoutBatches.totalCents,
  createdAt: payoutBatches.createdAt,
  paidAt: payoutBatches.paidAt,
  cancelledAt: payoutBatches.cancelledAt,
};

const lineCounts = {
  paidCount: sql<number>`(select count(*) from payout_batch_lines l where l.batch_id = payout_batches.id and l.status = 'Payé')`.mapWith(Number),
  refusedCount: sql<number>`(select count(*) from payout_batch_lines l where l.batch_id = payout_batches.id and l.status = 'Refusé')`.mapWith(Number),
};

export type BatchRow = Awaited<ReturnType<typeof findBatch>> & {};

export async function findBatch(tx: DbOrTx, batchId: string) {
  const [row] = await tx.select({ ...batchColumns, ...lineCounts }).from(payoutBatches).where(eq(payoutBatches.id, batchId)).limit(1);
  return row ?? null;
}

/** Locks the batch row: its transitions (pay, refuse a line, cancel) run one at a time. */
export async function lockBatch(tx: DbOrTx, batchId: string) {
  await tx.execute(sql`select id from payout_batches where id = ${batchId} for update`);
  return findBatch(tx, batchId);
}

export async function listBatches(tx: DbOrTx, filters: { status?: string | undefined }, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(payoutBatches.status, filters.status));
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await tx
    .select({ ...batchColumns, ...lineCounts, total: windowTotal() })
    .from(payoutBatches)
    .where(where)
    .orderBy(desc(payoutBatches.createdAt), desc(payoutBatches.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await pageTotal(rows, page.offset, async () => {
    const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(payoutBatches).where(where);
    return Number(row?.n ?? 0);
  });
  return { rows, total };
}

export const lineColumns = {
  id: payoutBatchLines.id,
  batchId: payoutBatchLines.batchId,
  lineNumber: payoutBatchLines.lineNumber,
  transferId: payoutBatchLines.transferId,
  invoiceId: payoutBatchLines.invoiceId,
  technicianId: payoutBatchLines.technicianId,
  creditorName: payoutBatchLines.creditorName,
  creditorIban: payoutBatchLines.creditorIban,
  ibanChanged: payoutBatchLines.ibanChanged,
  amountCents: payoutBatchLines.amountCents,
  remittance: payoutBatchLines.remittance,
  endToEndId: payoutBatchLines.endToEndId,
  status: payoutBatchLines.status,
};

export async function listLines(tx: DbOrTx, batchId: string) {
  return tx.select(lineColumns).from(payoutBatchLines).where(eq(payoutBatchLines.batchId, batchId)).orderBy(asc(payoutBatchLines.lineNumber));
}

export async function findLine(tx: DbOrTx, batchId: string, lineId: string) {
  const [row] = await tx
    .select(lineColumns)
    .from(payoutBatchLines)
    .where(and(eq(payoutBatchLines.batchId, batchId), eq(payoutBatchLines.id, lineId)))
    .limit(1);
  return row ?? null;
}

export async function insertBatch(tx: DbOrTx, values: typeof payoutBatches.$inferInsert, lines: Omit<typeof payoutBatchLines.$inferInsert, 'batchId'>[]) {
  const [batch] = await tx.insert(payoutBatches).values(values).returning({ id: payoutBatches.id });
  await tx.insert(payoutBatchLines).values(lines.map((line) => ({ ...line, batchId: batch!.id })));
  return batch!.id;
}

export async function setLineStatus(tx: DbOrTx, lineId: string, status: string) {
  await tx.update(payoutBatchLines).set({ status }).where(eq(payoutBatchLines.id, lineId));
}

export async function setBatchStatus(tx: DbOrTx, batchId: string, set: Partial<typeof payoutBatches.$inferInsert>) {
  await tx.update(payoutBatches).set(set).where(eq(payoutBatches.id, batchId));
}

export async function cancelOpenLines(tx: DbOrTx, batchId: string) {
  await tx
    .update(payoutBatchLines)
    .set({ status: 'Annulé' })
    .where(and(eq(payoutBatchLines.batchId, batchId), eq(payoutBatchLines.status, 'À payer')));
}

/** The technician's IBAN and name for the batch line (read when the batch is made). */
export async function technicianIdentity(tx: DbOrTx, technicianId: string) {
  const [row] = await tx
    .select({ firstName: technicians.firstName, lastName: technicians.lastName, iban: technicians.iban })
    .from(technicians)
    .where(eq(technicians.id, technicianId))
    .limit(1);
  return row ?? null;
}
