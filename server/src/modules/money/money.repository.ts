import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AdminInvoiceFilters, InvoiceChip } from '@maillon/common/schemas/money';
import type { StoredEInvoice } from '@maillon/common/schemas/e-invoice';
import { DEFAULT_TRANSFER_REF } from '@maillon/common/constants';
import { preparedSql } from '../../db/prepared-queries';
import type { DbOrTx } from '../../db/client';
import { invoices, invoicesFiles, missionBatches, payoutBatchLines, payoutBatches, storedFiles, technicians, transfers } from '../../db/schema';
import { eurosSql, jsonRowSql, jsonRowText, literalLimit, pageFromRow, pageShape, pageSql, pageText, pageTextSql, searchPageText, textSql, whereAll, type PageTextRow, type SearchPageText } from '../../lib/pagination';
import { allRowsCountSql, statusCountSql } from '../../lib/row-counts';
import { matchingWithTechnicianSql, searchedWithTechnician } from '../../lib/substring-search';

/** Drizzle queries of the money module only; rules live in money.service.ts. */

export const invoiceColumns = {
  id: invoices.id,
  technicianId: invoices.technicianId,
  batchId: invoices.batchId,
  status: invoices.status,
  missionTitle: invoices.missionTitle,
  description: invoices.description,
  reference: invoices.reference,
  progression: invoices.progression,
  invoiceNumber: invoices.invoiceNumber,
  initialAmountCents: invoices.initialAmountCents,
  amountCents: invoices.amountCents,
  validatedAmountCents: invoices.validatedAmountCents,
  batchPriceCents: invoices.batchPriceCents,
  invoiceDate: invoices.invoiceDate,
  dueDate: invoices.dueDate,
  paidDate: invoices.paidDate,
  createdAt: invoices.createdAt,
};

export const transferColumns = {
  id: transfers.id,
  invoiceId: transfers.invoiceId,
  batchId: transfers.batchId,
  technicianId: transfers.technicianId,
  status: transfers.status,
  invoiceRef: transfers.invoiceRef,
  transferRef: transfers.transferRef,
  bankAccountLast4: transfers.bankAccountLast4,
  amountCents: transfers.amountCents,
  transferDate: transfers.transferDate,
  createdAt: transfers.createdAt,
};

export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;
export type TransferRow = NonNullable<Awaited<ReturnType<typeof findLatestTransfer>>>;

/** Locks the invoice row for the rest of the transaction (serialises concurrent transitions on PostgreSQL). */
export async function lockInvoice(tx: DbOrTx, invoiceId: string) {
  await tx.execute(sql`select id from invoices where id = ${invoiceId} for update`);
  const [row] = await tx.select(invoiceColumns).from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
  return row ?? null;
}

export async function findInvoice(tx: DbOrTx, invoiceId: string) {
  const [row] = await tx.select(invoiceColumns).from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
  return row ?? null;
}

/** The live transfer of an invoice (Enregistré or Effectué; at most one by the partial unique index). */
export async function findLiveTransfer(tx: DbOrTx, invoiceId: string) {
  const [row] = await tx
    .select(transferColumns)
    .from(transfers)
    .where(and(eq(transfers.invoiceId, invoiceId), sql`${transfers.status} <> 'Refus'`))
    .limit(1);
  return row ?? null;
}

export async function findLatestTransfer(tx: DbOrTx, invoiceId: string) {
  const [row] = await tx
    .select(transferColumns)
    .from(transfers)
    .where(eq(transfers.invoiceId, invoiceId))
    .orderBy(desc(transfers.createdAt), desc(transfers.id))
    .limit(1);
  return row ?? null;
}

export async function findPaidTransfer(tx: DbOrTx, invoiceId: string) {
  const [row] = await tx
    .select(transferColumns)
    .from(transfers)
    .where(and(eq(transfers.invoiceId, invoiceId), eq(transfers.status, 'Effectué')))
    .limit(1);
  return row ?? null;
}

export async function findTechnicianForMoney(tx: DbOrTx, technicianId: string) {
  const [row] = await tx
    .select({
      id: technicians.id,
      userId: technicians.userId,
      firstName: technicians.firstName,
      lastName: technicians.lastName,
      companyName: technicians.companyName,
      siret: technicians.siret,
      iban: technicians.iban,
      address: technicians.address,
      postalCode: technicians.postalCode,
      city: technicians.city,
    })
    .from(technicians)
    .where(eq(technicians.id, technicianId))
    .limit(1);
  return row ?? null;
}

/* ------------------------------------------------------------ technician lists ------------------------------------------------------------ */

/** An invoice `i` as toTechnicianInvoice answers it (technicianInvoiceSchema): the amounts in euros, the times as `toISOString`. */
const technicianInvoiceFields = {
  id: 'i.id',
  batchId: 'i.batch_id',
  status: 'i.status',
  missionTitle: 'i.mission_title',
  description: 'i.description',
  reference: 'i.reference',
  progression: 'i.progression',
  initialAmount: eurosSql('i.initial_amount_cents'),
  amount: eurosSql('i.amount_cents'),
  validatedAmount: eurosSql('i.validated_amount_cents'),
  batchPrice: eurosSql('i.batch_price_cents'),
  invoiceDate: 'maillon_json_time(i.invoice_date)',
  dueDate: 'maillon_json_time(i.due_date)',
  paidDate: 'maillon_json_time(i.paid_date)',
  createdAt: 'maillon_json_time(i.created_at)',
};

/**
 * A transfer `tr` as toTechnicianTransfer answers it (technicianTransferSchema): a transfer without its bank reference
 * yet shows DEFAULT_TRANSFER_REF, and `missionTitle` is its invoice's (`i`, left joined).
 */
const technicianTransferJsonSql = jsonRowSql({
  id: 'tr.id',
  invoiceId: 'tr.invoice_id',
  status: 'tr.status',
  invoiceRef: 'tr.invoice_ref',
  transferRef: `coalesce(nullif(tr.transfer_ref, ''), ${textSql(DEFAULT_TRANSFER_REF)})`,
  bankAccountLast4: 'tr.bank_account_last4',
  amount: eurosSql('tr.amount_cents'),
  transferDate: 'maillon_json_time(tr.transfer_date)',
  missionTitle: 'i.mission_title',
  createdAt: 'maillon_json_time(tr.created_at)',
});

/**
 * A technician's page of `table` (`invoices` or `transfers`), most recent first, and its number, in one statement
 * rendered once per page size (preparedSql): the page as the JSON text the route sends (decision 072), its rows written
 * by `rowJson` from the page's row `alias` (and what `joins` adds). The count reads the technician's rows on
 * `<table>_technician_idx`; a technician has a few dozen.
 */
async function technicianPageText(
  db: DbOrTx,
  { table, alias, rowJson, joins, technicianId, page }: { table: 'invoices' | 'transfers'; alias: string; rowJson: SQL; joins: SQL; technicianId: string; page: { limit: number; offset: number } },
): Promise<SearchPageText> {
  const { rows } = await preparedSql<PageTextRow>(db, `technician-${table}-json-${pageShape(page)}`, () => {
    const name = sql.raw(table);
    const row = sql.raw(alias);
    const technician = sql.placeholder('technicianId');
    return pageTextSql(
      sql`(select count(*)::int from ${name} where technician_id = ${technician})`,
      sql`coalesce((select json_agg(${rowJson} order by ${row}.created_at desc, ${row}.id desc)
          from (select * from ${name} where technician_id = ${technician} order by created_at desc, id desc ${pageSql(page.limit, page.offset, sql.placeholder('offset'))}) ${row}
          ${joins}), '[]')`,
    );
  }).execute({ technicianId, offset: page.offset });
  return pageFromRow(rows[0]!);
}

/** A technician's invoices (« Mes revenus »), most recent first, and their number: technicianPageText. */
export async function listTechnicianInvoicesText(db: DbOrTx, technicianId: string, page: { limit: number; offset: number }): Promise<SearchPageText> {
  return technicianPageText(db, { table: 'invoices', alias: 'i', rowJson: jsonRowSql(technicianInvoiceFields), joins: sql``, technicianId, page });
}

/** A technician's transfers (« Mes virements »), most recent first, each with its invoice's title: technicianPageText. */
export async function listTechnicianTransfersText(db: DbOrTx, technicianId: string, page: { limit: number; offset: number }): Promise<SearchPageText> {
  const joins = sql`left join invoices i on i.id = tr.invoice_id`;
  return technicianPageText(db, { table: 'transfers', alias: 'tr', rowJson: technicianTransferJsonSql, joins, technicianId, page });
}

/** Spec 01 §4 amounts, in cents, one query. */
export async function getRevenueTotals(tx: DbOrTx, technicianId: string) {
  const result = await tx.execute<{ active: number | string; pending: number | string; paid: number | string }>(sql`
    select
      (select coalesce(sum(validated_amount_cents), 0) from invoices
        where technician_id = ${technicianId} and status in ('Mission à terminer', 'Facture à soumettre'))::bigint as active,
      (select coalesce(sum(amount_cents), 0) from transfers where technician_id = ${technicianId} and status = 'Enregistré')::bigint as pending,
      (select coalesce(sum(amount_cents), 0) from transfers where technician_id = ${technicianId} and status = 'Effectué')::bigint as paid
  `);
  const row = result.rows[0];
  return { activeCents: Number(row?.active ?? 0), pendingCents: Number(row?.pending ?? 0), paidCents: Number(row?.paid ?? 0) };
}

/* --------------------------------------------------------------- admin lists --------------------------------------------------------------- */

/**
 * An invoice's chip. Paid means one of its transfers is « Effectué », which the invoice keeps (has_paid_transfer, a
 * trigger on transfers, migration 0040, decision 051): the chips' counts, the list filtered by chip and the export
 * read the same column.
 */
export function chipCondition(chip: InvoiceChip): SQL {
  const paid = sql`${invoices.hasPaidTransfer}`;
  switch (chip) {
    case 'Mission à réaliser':
      return sql`(${invoices.status} = 'Mission à terminer' and not ${paid})`;
    case 'Facture à soumettre':
      return sql`(${invoices.status} = 'Facture à soumettre' and not ${paid})`;
    case 'Facture envoyée':
      return sql`(${invoices.status} = 'Facture envoyée' and not ${paid})`;
    case 'Terminé':
      return sql`(${invoices.status} in ('Terminé', 'Traité') or ${paid})`;
  }
}

function baseInvoiceConditions(filters: Omit<AdminInvoiceFilters, 'status'>): SQL[] {
  const conditions: SQL[] = [];
  if (filters.technicianId) conditions.push(eq(invoices.technicianId, filters.technicianId));
  // Its own text or its technician's, each on a trigram index (decision 039).
  if (filters.search) conditions.push(sql`${invoices.id} in ${matchingWithTechnicianSql('invoices', filters.search)}`);
  return conditions;
}

export function adminInvoiceWhere(filters: AdminInvoiceFilters): SQL | undefined {
  const conditions = baseInvoiceConditions(filters);
  if (filters.status) conditions.push(chipCondition(filters.status));
  return conditions.length ? and(...conditions) : undefined;
}

const adminInvoiceColumns = {
  ...invoiceColumns,
  technicianFirstName: technicians.firstName,
  technicianLastName: technicians.lastName,
  companyName: technicians.companyName,
};

export async function findAdminInvoiceRow(tx: DbOrTx, invoiceId: string) {
  const [row] = await tx
    .select(adminInvoiceColumns)
    .from(invoices)
    .innerJoin(technicians, eq(technicians.id, invoices.technicianId))
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  return row ?? null;
}

/** What an admin action's card is read from (adminInvoiceById): the invoice, its latest transfer and submitted file. */
export interface AdminInvoiceParts {
  invoice: InvoiceRow & { technicianFirstName: string; technicianLastName: string; companyName: string | null };
  latestTransfer: TransferRow | null;
  latestFile: { fileId: string; fileName: string; eInvoiceFormat: string; eInvoice: StoredEInvoice | null } | null;
  payoutBatchReference: string | null;
}

/** A transfer `tr` as toTransfer answers it (transferSchema). */
const transferJsonText = jsonRowText({
  id: 'tr.id',
  invoiceId: 'tr.invoice_id',
  batchId: 'tr.batch_id',
  technicianId: 'tr.technician_id',
  status: 'tr.status',
  invoiceRef: 'tr.invoice_ref',
  transferRef: 'tr.transfer_ref',
  bankAccountLast4: 'tr.bank_account_last4',
  amount: eurosSql('tr.amount_cents'),
  transferDate: 'maillon_json_time(tr.transfer_date)',
  createdAt: 'maillon_json_time(tr.created_at)',
});

/** The stored Factur-X data `e` as toEInvoice answers it: its amounts in euros in place of cents. */
const eInvoiceJson = (e: string) => `case when jsonb_typeof(${e}) = 'object' then
  (${e} - array['taxBasisCents', 'taxCents', 'grandTotalCents', 'duePayableCents']) || jsonb_build_object(
    'taxBasisAmount', ${eurosSql(`(${e} ->> 'taxBasisCents')`)}, 'taxAmount', ${eurosSql(`(${e} ->> 'taxCents')`)},
    'grandTotalAmount', ${eurosSql(`(${e} ->> 'grandTotalCents')`)}, 'duePayableAmount', ${eurosSql(`(${e} ->> 'duePayableCents')`)}) end`;

/**
 * The admin's card of an invoice `i` (its technician's names beside it) as toAdminInvoice answers it
 * (adminInvoiceSchema), written by PostgreSQL for a page sent as it is (decision 052): its latest transfer `tr` and
 * latest submitted file `f` (lateral reads on transfers_invoice_idx and invoices_files_invoice_idx), the open payout
 * batch of a waiting transfer, the amounts in euros, the times as `toISOString` (maillon_json_time), the display status
 * of invoiceDisplayStatus. `money.admin-list.test.ts` compares every card with adminInvoiceById's.
 */
const adminInvoiceJsonSql = jsonRowSql({
  ...technicianInvoiceFields,
  technicianId: 'i.technician_id',
  technicianName: `trim(i.first_name || ' ' || i.last_name)`,
  companyName: 'i.company_name',
  invoiceNumber: 'i.invoice_number',
  displayStatus: `case when i.status in ('Terminé', 'Traité') or tr.status = 'Effectué' then 'Terminé'
    when i.status in ('Mission à terminer', 'overdue') then 'Mission à réaliser'
    when i.status in ('Facture à soumettre', 'pending') then 'Facture à soumettre'
    when i.status in ('Facture envoyée', 'paid') then 'Facture envoyée' else i.status end`,
  latestTransfer: `case when tr.id is not null then ${transferJsonText} end`,
  fileId: 'f.file_id',
  fileName: 'f.original_name',
  fileFormat: 'f.e_invoice_format',
  eInvoice: eInvoiceJson('f.e_invoice'),
  payoutBatchReference: `case when tr.status = 'Enregistré' then (
    select pb.reference from payout_batch_lines l join payout_batches pb on pb.id = l.batch_id
    where l.transfer_id = tr.id and l.status = 'À payer' and pb.status = 'Préparé' limit 1) end`,
});

/**
 * The admin's invoice page and its total, the page as the JSON text the route sends (decision 052). Without a search,
 * one statement: the page walks the (created_at, id) order (invoices_created_idx) and the total is a count, or the
 * counts the database keeps without a filter (decision 027). A search counts the invoices it finds (both trigram
 * indexes) up to TOTAL_CAP + 1 and sorts them for the page; past the cap, its page walks the order with the search as a
 * filter (searchPageText, decision 042).
 */
export async function listAdminInvoices(tx: DbOrTx, filters: AdminInvoiceFilters, page: { limit: number; offset: number }): Promise<SearchPageText> {
  const others = baseInvoiceConditions({ ...filters, search: undefined });
  if (filters.status) others.push(chipCondition(filters.status));
  const pageJson = (conditions: SQL[]) => sql`
      coalesce((select json_agg(${adminInvoiceJsonSql} order by i.created_at desc, i.id desc)
        from (
          select invoices.*, technicians.first_name, technicians.last_name, technicians.company_name
          from invoices inner join technicians on technicians.id = invoices.technician_id ${whereAll(conditions)}
          order by invoices.created_at desc, invoices.id desc ${pageSql(page.limit, page.offset)}
        ) i
        left join lateral (
          select * from transfers t where t.invoice_id = i.id order by t.created_at desc, t.id desc limit 1
        ) tr on true
        left join lateral (
          select fi.file_id, sf.original_name, fi.e_invoice_format, fi.e_invoice
          from invoices_files fi inner join stored_files sf on sf.id = fi.file_id
          where fi.invoice_id = i.id order by fi.created_at desc, fi.id desc limit 1
        ) f on true), '[]')`;
  const { search } = filters;
  if (search) return searchPageText(tx, { ...searchedWithTechnician('invoices', search, others), pageJson }, page);
  const total = others.length ? sql`(select count(*)::int from invoices where ${and(...others)})` : allRowsCountSql('invoices');
  return pageText(tx, total, pageJson(others));
}

/**
 * The rows of the accountant's CSV (at most `max`), most recent first: the columns it prints, and each invoice's latest
 * transfer joined in the same statement (transfers_invoice_idx). Reading the page's columns, then the transfers of
 * 10 000 invoices as 10 000 parameters, took 740 ms at full scale.
 */
export async function exportAdminInvoices(tx: DbOrTx, filters: AdminInvoiceFilters, max: number) {
  const latest = tx
    .select({
      status: transfers.status,
      transferRef: transfers.transferRef,
      transferDate: transfers.transferDate,
      amountCents: transfers.amountCents,
    })
    .from(transfers)
    .where(sql`${transfers.invoiceId} = ${invoices.id}`)
    .orderBy(desc(transfers.createdAt), desc(transfers.id))
    .limit(1)
    .as('latest');
  return tx
    .select({
      reference: invoices.reference,
      technicianFirstName: technicians.firstName,
      technicianLastName: technicians.lastName,
      companyName: technicians.companyName,
      missionTitle: invoices.missionTitle,
      status: invoices.status,
      invoiceDate: invoices.invoiceDate,
      initialAmountCents: invoices.initialAmountCents,
      validatedAmountCents: invoices.validatedAmountCents,
      progression: invoices.progression,
      transferStatus: latest.status,
      transferRef: latest.transferRef,
      transferDate: latest.transferDate,
      transferAmountCents: latest.amountCents,
    })
    .from(invoices)
    .innerJoin(technicians, eq(technicians.id, invoices.technicianId))
    .leftJoinLateral(latest, sql`true`)
    .where(adminInvoiceWhere(filters))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(max);
}

export async function countAdminInvoiceChips(tx: DbOrTx, filters: Omit<AdminInvoiceFilters, 'status'>) {
  const conditions = baseInvoiceConditions(filters);
  const row = conditions.length
    ? // Filtered: the matching invoices counted by chip.
      (
        await tx.execute<{ missionToDo: number; toSubmit: number; sent: number; done: number }>(sql`
          select count(*) filter (where ${chipCondition('Mission à réaliser')})::int as "missionToDo",
            count(*) filter (where ${chipCondition('Facture à soumettre')})::int as "toSubmit",
            count(*) filter (where ${chipCondition('Facture envoyée')})::int as "sent",
            count(*) filter (where ${chipCondition('Terminé')})::int as "done"
          from ${invoices} ${whereAll(conditions)}`)
      ).rows[0]
    : // Every invoice: the counts the database keeps by status, a paid one under `<status>.paid` (migration 0040).
      (
        await tx.execute<{ missionToDo: number; toSubmit: number; sent: number; done: number }>(sql`
          select coalesce(sum(n) filter (where key = 'Mission à terminer'), 0)::int as "missionToDo",
            coalesce(sum(n) filter (where key = 'Facture à soumettre'), 0)::int as "toSubmit",
            coalesce(sum(n) filter (where key = 'Facture envoyée'), 0)::int as "sent",
            coalesce(sum(n) filter (where key in ('Terminé', 'Traité') or key like '%.paid'), 0)::int as "done"
          from row_counts where table_name = 'invoices'`)
      ).rows[0];
  return {
    'Mission à réaliser': Number(row?.missionToDo ?? 0),
    'Facture à soumettre': Number(row?.toSubmit ?? 0),
    'Facture envoyée': Number(row?.sent ?? 0),
    Terminé: Number(row?.done ?? 0),
  };
}

/** Latest transfer per invoice for a page of invoices. */
export async function latestTransfersByInvoice(tx: DbOrTx, invoiceIds: string[]): Promise<Map<string, TransferRow>> {
  const map = new Map<string, TransferRow>();
  if (invoiceIds.length === 0) return map;
  const rows = await tx
    .select(transferColumns)
    .from(transfers)
    .where(inArray(transfers.invoiceId, invoiceIds))
    .orderBy(desc(transfers.createdAt), desc(transfers.id));
  for (const row of rows) if (row.invoiceId && !map.has(row.invoiceId)) map.set(row.invoiceId, row);
  return map;
}

/** Latest submitted file per invoice for a page of invoices, with what was read from it (Factur-X or plain PDF). */
export async function latestFilesByInvoice(tx: DbOrTx, invoiceIds: string[]) {
  const map = new Map<string, { fileId: string; fileName: string; eInvoiceFormat: string; eInvoice: StoredEInvoice | null }>();
  if (invoiceIds.length === 0) return map;
  const rows = await tx
    .select({
      invoiceId: invoicesFiles.invoiceId,
      fileId: invoicesFiles.fileId,
      fileName: storedFiles.originalName,
      eInvoiceFormat: invoicesFiles.eInvoiceFormat,
      eInvoice: invoicesFiles.eInvoice,
    })
    .from(invoicesFiles)
    .innerJoin(storedFiles, eq(storedFiles.id, invoicesFiles.fileId))
    .where(inArray(invoicesFiles.invoiceId, invoiceIds))
    .orderBy(desc(invoicesFiles.createdAt), desc(invoicesFiles.id));
  for (const row of rows) if (!map.has(row.invoiceId)) map.set(row.invoiceId, { fileId: row.fileId, fileName: row.fileName, eInvoiceFormat: row.eInvoiceFormat, eInvoice: row.eInvoice });
  return map;
}

export async function listAdminTransfers(
  tx: DbOrTx,
  filters: { technicianId?: string | undefined; invoiceId?: string | undefined; status?: string | undefined },
  page: { limit: number; offset: number },
) {
  const conditions: SQL[] = [];
  if (filters.technicianId) conditions.push(eq(transfers.technicianId, filters.technicianId));
  if (filters.invoiceId) conditions.push(eq(transfers.invoiceId, filters.invoiceId));
  if (filters.status) conditions.push(eq(transfers.status, filters.status));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    tx
      .select({
        ...transferColumns,
        technicianFirstName: technicians.firstName,
        technicianLastName: technicians.lastName,
        missionTitle: invoices.missionTitle,
      })
      .from(transfers)
      .innerJoin(technicians, eq(technicians.id, transfers.technicianId))
      .leftJoin(invoices, eq(invoices.id, transfers.invoiceId))
      .where(where)
      .orderBy(desc(transfers.createdAt), desc(transfers.id))
      .limit(literalLimit(page.limit))
      .offset(page.offset),
    // Filtered by status alone (or not at all), the total is the count the database keeps (decision 027).
    filters.technicianId || filters.invoiceId
      ? tx.select({ n: sql<number>`count(*)::int` }).from(transfers).where(where)
      : tx.execute<{ n: number }>(sql`select ${filters.status ? statusCountSql('transfers', [filters.status]) : allRowsCountSql('transfers')} as n`).then((r) => r.rows),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function listInvoiceFiles(
  tx: DbOrTx,
  filters: { technicianId?: string | undefined; invoiceId?: string | undefined },
  page: { limit: number; offset: number },
) {
  const conditions: SQL[] = [];
  if (filters.technicianId) conditions.push(eq(invoicesFiles.technicianId, filters.technicianId));
  if (filters.invoiceId) conditions.push(eq(invoicesFiles.invoiceId, filters.invoiceId));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    tx
      .select({
        id: invoicesFiles.id,
        invoiceId: invoicesFiles.invoiceId,
        technicianId: invoicesFiles.technicianId,
        reference: invoicesFiles.reference,
        fileId: invoicesFiles.fileId,
        fileName: storedFiles.originalName,
        size: storedFiles.size,
        amountCertifiedCents: invoicesFiles.amountCertifiedCents,
        eInvoiceFormat: invoicesFiles.eInvoiceFormat,
        eInvoice: invoicesFiles.eInvoice,
        createdAt: invoicesFiles.createdAt,
      })
      .from(invoicesFiles)
      .innerJoin(storedFiles, eq(storedFiles.id, invoicesFiles.fileId))
      .where(where)
      .orderBy(desc(invoicesFiles.createdAt), desc(invoicesFiles.id))
      .limit(page.limit)
      .offset(page.offset),
    tx.select({ n: sql<number>`count(*)::int` }).from(invoicesFiles).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Technicians that have at least one invoice, searched, by name, a few at a time (the admin's technician pickers). */
export async function findBatchTitle(tx: DbOrTx, batchId: string | null): Promise<string | null> {
  if (!batchId) return null;
  const [row] = await tx.select({ title: missionBatches.title }).from(missionBatches).where(eq(missionBatches.id, batchId)).limit(1);
  return row?.title ?? null;
}

/**
 * An earlier submission by this technician of the same invoice number, on another Maillon invoice (a resubmission of
 * the same invoice after a refused payment keeps its number).
 */
export async function findSubmissionByNumber(tx: DbOrTx, { technicianId, numberKey, exceptInvoiceId }: { technicianId: string; numberKey: string; exceptInvoiceId: string }) {
  const [row] = await tx
    .select({ reference: invoicesFiles.reference, missionTitle: invoices.missionTitle })
    .from(invoicesFiles)
    .innerJoin(invoices, eq(invoices.id, invoicesFiles.invoiceId))
    .where(and(eq(invoicesFiles.technicianId, technicianId), eq(invoicesFiles.invoiceNumberKey, numberKey), sql`${invoicesFiles.invoiceId} <> ${exceptInvoiceId}`))
    .limit(1);
  return row ?? null;
}

/** Serialises the submissions of one technician (the duplicate-number check), without touching row locks. */
export async function lockTechnicianSubmissions(tx: DbOrTx, technicianId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(4242021, hashtext(${technicianId}))`);
}

/** Is this transfer in a payout batch still waiting for the bank (its file may be executed)? Its batch reference. */
export async function findOpenBatchOfTransfer(tx: DbOrTx, transferId: string) {
  const [row] = await tx
    .select({ reference: payoutBatches.reference })
    .from(payoutBatchLines)
    .innerJoin(payoutBatches, eq(payoutBatches.id, payoutBatchLines.batchId))
    .where(and(eq(payoutBatchLines.transferId, transferId), eq(payoutBatchLines.status, 'À payer'), eq(payoutBatches.status, 'Préparé')))
    .limit(1);
  return row ?? null;
}

/** The open batch (reference) of each of these waiting transfers, for the admin's invoice cards. */
export async function openBatchesOfTransfers(tx: DbOrTx, transferIds: string[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  if (transferIds.length === 0) return map;
  const rows = await tx
    .select({ transferId: payoutBatchLines.transferId, reference: payoutBatches.reference })
    .from(payoutBatchLines)
    .innerJoin(payoutBatches, eq(payoutBatches.id, payoutBatchLines.batchId))
    .where(and(inArray(payoutBatchLines.transferId, transferIds), eq(payoutBatchLines.status, 'À payer'), eq(payoutBatches.status, 'Préparé')));
  for (const row of rows) if (row.transferId) map.set(row.transferId, row.reference);
  return map;
}
