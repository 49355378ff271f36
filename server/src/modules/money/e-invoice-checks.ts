import { centsToEuros, formatDate, formatEuros } from '@maillon/common/format';
import type { EInvoice, EInvoiceCheck } from '@maillon/common/schemas/e-invoice';
import type { StoredEInvoice } from '@maillon/common/schemas/e-invoice';

/**
 * The checks of an uploaded invoice against Maillon's records (decision 021): the amount due against the validated
 * amount, the seller against the technician's SIRET, the buyer against the charity's (CHARITY_SIRET), the number
 * against the technician's earlier submissions, EUR and a real invoice (not a credit note); a plain PDF only before
 * EINVOICE_REQUIRED_FROM. Pure: the service gathers the facts, this says what differs, in French.
 */

export interface InvoiceFacts {
  validatedCents: number;
  /** The technician's SIRET on its profile (14 digits) or null. */
  technicianSiret: string | null;
  /** CHARITY_SIRET, or undefined when not configured (the buyer is then not checked, and the admin is told). */
  charitySiret: string | undefined;
  /** An earlier submission of the same number by this technician, on another invoice. */
  duplicateOf: { reference: string; missionTitle: string | null } | null;
  /** Today and the legal date, yyyy-mm-dd (Europe/Paris). */
  today: string;
  requiredFrom: string;
}

/** UNTDID 1001 codes of credit notes: a credit note is not an invoice to pay. */
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/** 123 456 789 00012 */
export function formatSiret(value: string): string {
  return value.length === 14 ? `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6, 9)} ${value.slice(9)}` : value.length === 9 ? `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6)}` : value;
}

const idLabel = (id: string) => `${id.length === 9 ? 'SIREN' : 'SIRET'} ${formatSiret(id)}`;

/** A SIRET matches an invoice identifier when it is that SIRET, or when the identifier is its SIREN. */
export function sameCompany(siret: string, invoiceId: string): boolean {
  return invoiceId.length === 9 ? siret.slice(0, 9) === invoiceId : siret === invoiceId;
}

export function numberKey(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}

function duplicateCheck(number: string, facts: InvoiceFacts): EInvoiceCheck {
  return facts.duplicateOf
    ? {
        key: 'number',
        ok: false,
        message: `Vous avez déjà envoyé une facture n° ${number}${facts.duplicateOf.missionTitle ? ` (mission « ${facts.duplicateOf.missionTitle} »)` : ''} : chaque facture doit avoir son propre numéro`,
      }
    : { key: 'number', ok: true, message: `Numéro de facture ${number} : premier envoi` };
}

/** Checks of a Factur-X invoice. */
export function checkEInvoice(data: StoredEInvoice, facts: InvoiceFacts): EInvoiceCheck[] {
  const checks: EInvoiceCheck[] = [];
  if (data.typeCode && CREDIT_NOTE_CODES.has(data.typeCode)) {
    checks.push({ key: 'type', ok: false, message: `Ce document est un avoir (code ${data.typeCode}), pas une facture à payer` });
  }
  if (data.currency && data.currency !== 'EUR') {
    checks.push({ key: 'currency', ok: false, message: `Devise de la facture : ${data.currency} ; devise attendue : EUR` });
  }

  const due = data.duePayableCents ?? data.grandTotalCents;
  if (due === null) checks.push({ key: 'amount', ok: false, message: 'La facture n’indique pas de montant à payer' });
  else if (due !== facts.validatedCents) {
    checks.push({ key: 'amount', ok: false, message: `Montant de la facture : ${formatEuros(centsToEuros(due))} ; montant validé : ${formatEuros(centsToEuros(facts.validatedCents))}` });
  } else checks.push({ key: 'amount', ok: true, message: `Montant à payer ${formatEuros(centsToEuros(due))}, égal au montant validé` });

  const sellerId = data.seller.legalId;
  if (!sellerId) checks.push({ key: 'seller', ok: false, message: 'La facture n’indique pas le SIRET (ou SIREN) du vendeur' });
  else if (!facts.technicianSiret) {
    checks.push({ key: 'seller', ok: false, message: `Renseignez votre SIRET dans « Mon compte » : la facture est émise par le ${idLabel(sellerId)}` });
  } else if (!sameCompany(facts.technicianSiret, sellerId)) {
    checks.push({ key: 'seller', ok: false, message: `Vendeur de la facture : ${idLabel(sellerId)} ; SIRET de votre profil : ${formatSiret(facts.technicianSiret)}` });
  } else checks.push({ key: 'seller', ok: true, message: `Vendeur : ${idLabel(sellerId)}, celui de votre profil` });

  const buyerId = data.buyer.legalId;
  if (!facts.charitySiret) {
    checks.push({ key: 'buyer', ok: true, message: 'Acheteur non vérifié : le SIRET de l’association (CHARITY_SIRET) n’est pas configuré' });
  } else if (!buyerId) {
    checks.push({ key: 'buyer', ok: false, message: `La facture n’indique pas le SIRET de l’acheteur : l’association, SIRET ${formatSiret(facts.charitySiret)}` });
  } else if (!sameCompany(facts.charitySiret, buyerId)) {
    checks.push({
      key: 'buyer',
      ok: false,
      message: `Acheteur de la facture : ${data.buyer.name ? `${data.buyer.name}, ` : ''}${idLabel(buyerId)} ; l’association : SIRET ${formatSiret(facts.charitySiret)}`,
    });
  } else checks.push({ key: 'buyer', ok: true, message: `Acheteur : l’association (${idLabel(buyerId)})` });

  checks.push(duplicateCheck(data.invoiceNumber, facts));
  return checks;
}

/** Checks of a plain PDF: accepted (flagged) until the legal date; its typed reference must be new too. */
export function checkPlainPdf(reference: string | null, facts: InvoiceFacts): EInvoiceCheck[] {
  const checks: EInvoiceCheck[] =
    facts.today >= facts.requiredFrom
      ? [
          {
            key: 'required',
            ok: false,
            message: `Depuis le ${formatDate(`${facts.requiredFrom}T12:00:00Z`)}, les factures doivent être électroniques (Factur-X) : ce PDF ne contient pas de données de facture`,
          },
        ]
      : [{ key: 'required', ok: true, message: `PDF simple accepté jusqu’au ${formatDate(new Date(Date.parse(`${facts.requiredFrom}T12:00:00Z`) - 86_400_000))}` }];
  if (reference) checks.push(duplicateCheck(reference, facts));
  return checks;
}

/** The refusal message: what differs, every failed check in one line. */
export function failureMessage(checks: EInvoiceCheck[]): string | null {
  const failed = checks.filter((c) => !c.ok).map((c) => c.message);
  return failed.length ? failed.join(' · ') : null;
}

/** The stored data with its amounts in euros (the API's unit). */
export function toEInvoice(data: StoredEInvoice): EInvoice {
  const euros = (cents: number | null) => (cents === null ? null : centsToEuros(cents));
  const { taxBasisCents, taxCents, grandTotalCents, duePayableCents, ...rest } = data;
  return Object.assign(rest, {
    taxBasisAmount: euros(taxBasisCents),
    taxAmount: euros(taxCents),
    grandTotalAmount: euros(grandTotalCents),
    duePayableAmount: euros(duePayableCents),
  });
}

/** yyyy-mm-dd of a moment in Europe/Paris. */
export function parisDay(date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}
