import { centsToEuros } from '@maillon/common/format';
import type { AccountingExportQuery, StatementYear } from '@maillon/common/schemas/payout-batches';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { toBasicLatin } from '../../lib/latin';
import { assertTechnicianSelf } from '../../plugins/access';
import type { AuthContext } from '../auth/auth.service';
import { formatSiret } from '../money/e-invoice-checks';
import { buildAccountingJournalCsv } from './accounting-journal';
import { buildAnnualStatementPdf } from './annual-statement';
import * as repo from './statements.repository';

/** Yearly payment statements (technician-self or admin) and the charity's accounting export of payments (admin). */

export const ACCOUNTING_EXPORT_MAX = 10_000;
const STATEMENT_MAX = 5_000;

/** Midnight of a calendar day in Europe/Paris, as an instant. */
export function parisMidnight(day: string): Date {
  const guess = new Date(`${day}T00:00:00Z`);
  const wall = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(guess)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  const asUtc = Date.UTC(Number(wall.year), Number(wall.month) - 1, Number(wall.day), Number(wall.hour), Number(wall.minute));
  return new Date(guess.getTime() - (asUtc - guess.getTime()));
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const fullName = (row: { firstName: string; lastName: string }) => `${row.firstName} ${row.lastName}`.trim();

export async function listStatementYears({ db, auth, technicianId }: { db: Db; auth: AuthContext; technicianId: string }): Promise<StatementYear[]> {
  assertTechnicianSelf(auth, technicianId);
  const years = await repo.paidYears(db, technicianId);
  return years.map((y) => ({ year: y.year, count: y.count, total: centsToEuros(y.cents) }));
}

export async function getAnnualStatement({
  db,
  config,
  auth,
  technicianId,
  year,
}: {
  db: Db;
  config: Pick<Config, 'CHARITY_NAME' | 'CHARITY_SIRET' | 'PRODUCT_NAME'>;
  auth: AuthContext;
  technicianId: string;
  year: number;
}) {
  assertTechnicianSelf(auth, technicianId);
  const technician = await repo.findTechnician(db, technicianId);
  if (!technician) throw new AppError('NOT_FOUND', 'Technicien introuvable');
  const payments = await repo.listPayments(db, { technicianId, from: parisMidnight(`${year}-01-01`), to: parisMidnight(`${year + 1}-01-01`), limit: STATEMENT_MAX });
  const pdf = await buildAnnualStatementPdf({
    charityName: config.CHARITY_NAME,
    charitySiret: config.CHARITY_SIRET ? formatSiret(config.CHARITY_SIRET) : null,
    productName: config.PRODUCT_NAME,
    year,
    payee: technician,
    payments: payments.map((p) => ({
      transferDate: p.transferDate!,
      transferRef: p.transferRef ?? `VIR-${p.transferId.slice(0, 8).toUpperCase()}`,
      invoiceRef: p.invoiceRef,
      missionTitle: p.missionTitle,
      amountCents: p.amountCents,
    })),
    generatedAt: new Date(),
  });
  const slug = toBasicLatin(fullName(technician))
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  return { pdf, fileName: `releve-paiements-${year}-${slug || 'technicien'}.pdf` };
}

/** The paid transfers of [from, to] (days, Europe/Paris) as a FEC-like journal (decision 021). */
export async function exportAccountingJournal({ db, query }: { db: Db; query: AccountingExportQuery }) {
  const payments = await repo.listPayments(db, { from: parisMidnight(query.from), to: parisMidnight(nextDay(query.to)), limit: ACCOUNTING_EXPORT_MAX + 1 });
  if (payments.length > ACCOUNTING_EXPORT_MAX) {
    throw new AppError('VALIDATION_ERROR', `Plus de ${ACCOUNTING_EXPORT_MAX} paiements sur cette période : choisissez une période plus courte`, { to: 'Période trop longue' });
  }
  const csv = buildAccountingJournalCsv(
    payments.map((p) => ({
      transferDate: p.transferDate!,
      transferRef: p.transferRef ?? `VIR-${p.transferId.slice(0, 8).toUpperCase()}`,
      invoiceRef: p.invoiceRef,
      invoiceDate: p.invoiceDate,
      technicianId: p.technicianId,
      technicianName: fullName(p),
      companyName: p.companyName,
      amountCents: p.amountCents,
    })),
  );
  return { csv, fileName: `paiements-${query.from}-au-${query.to}.csv`, count: payments.length };
}
