import { buildCsv, type CsvCell } from '../../lib/csv';

/**
 * The payments of a period as an accounting journal for the charity's bookkeeping: the 18 columns of the French FEC
 * (fichier des écritures comptables, art. A47 A-1 du LPF), which the French accounting tools import. Each payment is
 * one entry of two lines in the bank journal (BQ): the supplier account 401 (the technician's auxiliary account) is
 * debited, the bank account 512 credited, for the amount of the transfer. Dates AAAAMMJJ, amounts with a decimal
 * comma. Mapping in decision 021.
 */

export const FEC_COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

export const ACCOUNTS = {
  supplier: { number: '401000', label: 'Fournisseurs' },
  bank: { number: '512000', label: 'Banque' },
  journal: { code: 'BQ', label: 'Banque' },
} as const;

export interface JournalPayment {
  transferDate: Date;
  transferRef: string;
  invoiceRef: string;
  invoiceDate: Date | null;
  technicianId: string;
  technicianName: string;
  companyName: string | null;
  amountCents: number;
}

/** AAAAMMJJ in Europe/Paris. */
export function fecDate(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date).replace(/-/g, '');
}

const fecAmount = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;

/** The technician's auxiliary supplier account: F + the first 8 characters of its id (stable, unique in practice). */
export const auxiliaryAccount = (technicianId: string) => `F${technicianId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;

export function buildAccountingJournalCsv(payments: JournalPayment[]): string {
  const rows: CsvCell[][] = [[...FEC_COLUMNS]];
  payments.forEach((payment, index) => {
    const number = `BQ${String(index + 1).padStart(6, '0')}`;
    const date = fecDate(payment.transferDate);
    const tiers = payment.companyName ? `${payment.technicianName} (${payment.companyName})` : payment.technicianName;
    const label = `Virement facture ${payment.invoiceRef} ${payment.technicianName}`.slice(0, 200);
    const common = [ACCOUNTS.journal.code, ACCOUNTS.journal.label, number, date];
    const piece = [payment.transferRef, fecDate(payment.invoiceDate ?? payment.transferDate), label];
    const amount = fecAmount(payment.amountCents);
    rows.push([...common, ACCOUNTS.supplier.number, ACCOUNTS.supplier.label, auxiliaryAccount(payment.technicianId), tiers, ...piece, amount, '0,00', '', '', date, '', '']);
    rows.push([...common, ACCOUNTS.bank.number, ACCOUNTS.bank.label, '', '', ...piece, '0,00', amount, '', '', date, '', '']);
  });
  return buildCsv(rows);
}
