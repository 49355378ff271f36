import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { invoices, technicians, transfers } from '../../db/schema';

/** Drizzle queries of the statements (paid transfers by period); rules live in statements.service.ts. */

const paymentColumns = {
  transferId: transfers.id,
  transferDate: transfers.transferDate,
  transferRef: transfers.transferRef,
  invoiceRef: transfers.invoiceRef,
  amountCents: transfers.amountCents,
  technicianId: transfers.technicianId,
  missionTitle: invoices.missionTitle,
  invoiceDate: invoices.invoiceDate,
};

/** Effectué transfers with a transfer date in [from, to), oldest first (index transfers_paid_date_idx). */
export async function listPayments(tx: DbOrTx, { from, to, technicianId, limit }: { from: Date; to: Date; technicianId?: string; limit: number }) {
  const conditions = [eq(transfers.status, 'Effectué'), gte(transfers.transferDate, from), lt(transfers.transferDate, to)];
  if (technicianId) conditions.push(eq(transfers.technicianId, technicianId));
  return tx
    .select({ ...paymentColumns, firstName: technicians.firstName, lastName: technicians.lastName, companyName: technicians.companyName })
    .from(transfers)
    .innerJoin(technicians, eq(technicians.id, transfers.technicianId))
    .leftJoin(invoices, eq(invoices.id, transfers.invoiceId))
    .where(and(...conditions))
    .orderBy(asc(transfers.transferDate), asc(transfers.id))
    .limit(limit);
}

/** The years (Europe/Paris) a technician was paid in, with counts and totals, newest first. */
export async function paidYears(tx: DbOrTx, technicianId: string) {
  const result = await tx.execute<{ year: number | string; n: number | string; cents: number | string }>(sql`
    select extract(year from (transfer_date at time zone 'Europe/Paris'))::int as year, count(*)::int as n, coalesce(sum(amount_cents), 0)::bigint as cents
    from transfers
    where technician_id = ${technicianId} and status = 'Effectué' and transfer_date is not null
    group by 1 order by 1 desc`);
  return result.rows.map((r) => ({ year: Number(r.year), count: Number(r.n), cents: Number(r.cents) }));
}

export async function findTechnician(tx: DbOrTx, technicianId: string) {
  const [row] = await tx
    .select({
      id: technicians.id,
      firstName: technicians.firstName,
      lastName: technicians.lastName,
      companyName: technicians.companyName,
      siret: technicians.siret,
      address: technicians.address,
      postalCode: technicians.postalCode,
      city: technicians.city,
    })
    .from(technicians)
    .where(eq(technicians.id, technicianId))
    .limit(1);
  return row ?? null;
}
