import { XMLParser } from 'fast-xml-parser';
import type { StoredEInvoice } from '@maillon/common/schemas/e-invoice';
import { listPdfAttachments, PdfReadError, type PdfAttachment } from '../../lib/pdf/attachments';

/**
 * Reads the electronic invoice inside a PDF: the EN 16931 XML a Factur-X / ZUGFeRD (or XRechnung) invoice embeds, in
 * any profile (MINIMUM, BASIC WL, BASIC, EN 16931, EXTENDED), CII or UBL syntax. Only the fields Maillon checks and
 * shows are read (number, type, date, currency, seller and buyer identifiers, totals); the rest of the XML stays in
 * the stored PDF. Decision 018.
 */

export type EInvoiceReadResult = (
  | { kind: 'none' }
  | { kind: 'unreadable'; message: string }
  | { kind: 'e-invoice'; data: StoredEInvoice }
) & {
  /** Names of the other files embedded in the PDF (never accepted on an invoice). */
  otherAttachments: string[];
};

/** The names the Factur-X 1.0, ZUGFeRD 2.x and XRechnung specifications give the embedded XML (compared case-insensitively). */
export const E_INVOICE_FILE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'] as const;

const MAX_XML_BYTES = 5 * 1024 * 1024;

export function isEInvoiceAttachmentName(name: string): boolean {
  return (E_INVOICE_FILE_NAMES as readonly string[]).includes(name.trim().toLowerCase());
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // The values are plain text; entity declarations are refused before parsing (no expansion bombs).
  processEntities: true,
  htmlEntities: false,
});

type Node = Record<string, unknown>;

const asNode = (value: unknown): Node | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined);
const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
const all = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** The element at a path of child names (the first one when an element repeats). */
function at(node: unknown, ...path: string[]): unknown {
  let current: unknown = node;
  for (const key of path) {
    current = first(asNode(first(current))?.[key]);
    if (current === undefined) return undefined;
  }
  return current;
}

/** Text content of an element (a string, or the #text of an element with attributes). */
function text(value: unknown): string | null {
  const v = first(value);
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number') return String(v);
  const node = asNode(v);
  const inner = node?.['#text'];
  return typeof inner === 'string' || typeof inner === 'number' ? String(inner).trim() || null : null;
}

const attr = (value: unknown, name: string): string | null => {
  const node = asNode(first(value));
  const v = node?.[`@${name}`];
  return typeof v === 'string' ? v.trim() || null : null;
};

/** An XML decimal (650, 650.5, 650.00, -12.345) to integer cents, rounded half away from zero; null when not a number. */
export function decimalToCents(value: string | null): number | null {
  if (value === null) return null;
  const match = /^([+-]?)(\d{1,13})(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = (fraction + '000').slice(0, 3);
  let cents = Number(whole) * 100 + Number(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) cents += 1;
  return sign === '-' ? -cents : cents;
}

/** Readable name of an EN 16931 specification identifier (BT-24). */
export function profileName(id: string | null): string {
  const v = (id ?? '').toLowerCase();
  if (!v) return 'Inconnu';
  if (v.includes('xrechnung')) return 'XRECHNUNG';
  if (v.includes('extended')) return 'EXTENDED';
  if (v.includes('basicwl')) return 'BASIC WL';
  if (v.includes('minimum')) return 'MINIMUM';
  if (v.includes('basic')) return 'BASIC';
  if (v.startsWith('urn:cen.eu:en16931:2017')) return 'EN 16931';
  return 'Inconnu';
}

const digitsOnly = (value: string | null) => (value ? value.replace(/[\s.]/g, '') : null);

/** A French legal identifier (SIREN 9 digits / SIRET 14 digits) with its ISO 6523 scheme, from the candidates in order. */
function legalIdentifier(candidates: { value: string | null; scheme: string | null }[]): { legalId: string | null; legalIdScheme: string | null } {
  for (const candidate of candidates) {
    const digits = digitsOnly(candidate.value);
    if (!digits) continue;
    if (/^\d{9}$|^\d{14}$/.test(digits) && (!candidate.scheme || candidate.scheme === '0002' || candidate.scheme === '0009')) {
      return { legalId: digits, legalIdScheme: candidate.scheme ?? (digits.length === 14 ? '0009' : '0002') };
    }
  }
  return { legalId: null, legalIdScheme: null };
}

/** The SIREN inside a French VAT number (FR + 2 key characters + SIREN). */
function sirenFromVat(vat: string | null): string | null {
  const match = /^FR[0-9A-Z]{2}(\d{9})$/.exec((vat ?? '').replace(/\s+/g, '').toUpperCase());
  return match ? match[1]! : null;
}

/** yyyymmdd (format 102) or yyyy-mm-dd to yyyy-mm-dd. */
function isoDay(value: string | null): string | null {
  if (!value) return null;
  const match = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

function ciiParty(party: unknown) {
  const registrations = all(asNode(first(party))?.SpecifiedTaxRegistration);
  const vatId = registrations.map((r) => (attr(at(r, 'ID'), 'schemeID') === 'VA' ? text(at(r, 'ID')) : null)).find(Boolean) ?? null;
  const identifier = legalIdentifier([
    { value: text(at(party, 'SpecifiedLegalOrganization', 'ID')), scheme: attr(at(party, 'SpecifiedLegalOrganization', 'ID'), 'schemeID') },
    ...all(asNode(first(party))?.GlobalID).map((g) => ({ value: text(g), scheme: attr(g, 'schemeID') ?? 'none' })),
    { value: sirenFromVat(vatId), scheme: '0002' },
  ]);
  return { name: text(at(party, 'Name')), vatId, ...identifier };
}

function readCii(root: Node, attachmentName: string): StoredEInvoice | string {
  const profileId = text(at(root, 'ExchangedDocumentContext', 'GuidelineSpecifiedDocumentContextParameter', 'ID'));
  const invoiceNumber = text(at(root, 'ExchangedDocument', 'ID'));
  if (!invoiceNumber) return 'le numéro de facture (BT-1) est absent';
  const transaction = at(root, 'SupplyChainTradeTransaction');
  const agreement = at(transaction, 'ApplicableHeaderTradeAgreement');
  const settlement = at(transaction, 'ApplicableHeaderTradeSettlement');
  const totals = at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = text(at(settlement, 'InvoiceCurrencyCode'));
  // TaxTotalAmount repeats when a tax currency differs: the invoice currency's one is BT-110.
  const taxTotals = all(asNode(totals)?.TaxTotalAmount);
  const tax = taxTotals.find((t) => !attr(t, 'currencyID') || attr(t, 'currencyID') === currency) ?? taxTotals[0];
  const seller = ciiParty(at(agreement, 'SellerTradeParty'));
  const buyer = ciiParty(at(agreement, 'BuyerTradeParty'));
  return {
    syntax: 'CII',
    attachmentName,
    profileId,
    profile: profileName(profileId),
    invoiceNumber,
    typeCode: text(at(root, 'ExchangedDocument', 'TypeCode')),
    issueDate: isoDay(text(at(root, 'ExchangedDocument', 'IssueDateTime', 'DateTimeString'))),
    currency,
    seller: { name: seller.name, legalId: seller.legalId, legalIdScheme: seller.legalIdScheme, vatId: seller.vatId },
    buyer: { name: buyer.name, legalId: buyer.legalId, legalIdScheme: buyer.legalIdScheme },
    taxBasisCents: decimalToCents(text(at(totals, 'TaxBasisTotalAmount'))),
    taxCents: decimalToCents(text(tax)),
    grandTotalCents: decimalToCents(text(at(totals, 'GrandTotalAmount'))),
    duePayableCents: decimalToCents(text(at(totals, 'DuePayableAmount'))),
  };
}

function ublParty(party: unknown) {
  const p = at(party, 'Party');
  const schemes = all(asNode(first(p))?.PartyTaxScheme);
  const vatId = schemes.map((s) => text(at(s, 'CompanyID'))).find((v) => v && /^[A-Z]{2}/.test(v)) ?? null;
  const identifier = legalIdentifier([
    { value: text(at(p, 'PartyLegalEntity', 'CompanyID')), scheme: attr(at(p, 'PartyLegalEntity', 'CompanyID'), 'schemeID') },
    ...all(asNode(first(p))?.PartyIdentification).map((i) => ({ value: text(at(i, 'ID')), scheme: attr(at(i, 'ID'), 'schemeID') ?? 'none' })),
    { value: sirenFromVat(vatId), scheme: '0002' },
  ]);
  return { name: text(at(p, 'PartyLegalEntity', 'RegistrationName')) ?? text(at(p, 'PartyName', 'Name')), vatId, ...identifier };
}

function readUbl(root: Node, attachmentName: string): StoredEInvoice | string {
  const invoiceNumber = text(at(root, 'ID'));
  if (!invoiceNumber) return 'le numéro de facture (BT-1) est absent';
  const profileId = text(at(root, 'CustomizationID'));
  const currency = text(at(root, 'DocumentCurrencyCode'));
  const totals = at(root, 'LegalMonetaryTotal');
  const taxTotals = all(root.TaxTotal).map((t) => at(t, 'TaxAmount'));
  const tax = taxTotals.find((t) => attr(t, 'currencyID') === currency) ?? taxTotals[0];
  const seller = ublParty(at(root, 'AccountingSupplierParty'));
  const buyer = ublParty(at(root, 'AccountingCustomerParty'));
  return {
    syntax: 'UBL',
    attachmentName,
    profileId,
    profile: profileName(profileId),
    invoiceNumber,
    typeCode: text(at(root, 'InvoiceTypeCode')) ?? text(at(root, 'CreditNoteTypeCode')),
    issueDate: isoDay(text(at(root, 'IssueDate'))),
    currency,
    seller: { name: seller.name, legalId: seller.legalId, legalIdScheme: seller.legalIdScheme, vatId: seller.vatId },
    buyer: { name: buyer.name, legalId: buyer.legalId, legalIdScheme: buyer.legalIdScheme },
    taxBasisCents: decimalToCents(text(at(totals, 'TaxExclusiveAmount'))),
    taxCents: decimalToCents(text(tax)),
    grandTotalCents: decimalToCents(text(at(totals, 'TaxInclusiveAmount'))),
    duePayableCents: decimalToCents(text(at(totals, 'PayableAmount'))),
  };
}

/** Parses the EN 16931 XML (CII or UBL). Returns the data, or a French reason why it cannot be read. */
export function parseEInvoiceXml(xml: string, attachmentName = 'factur-x.xml'): StoredEInvoice | string {
  // An invoice never needs a DTD: refusing one rules out entity expansion and external entities.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return 'le XML contient une déclaration DOCTYPE, refusée';
  let document: Node;
  try {
    document = parser.parse(xml, true) as Node;
  } catch {
    return 'le XML est mal formé';
  }
  const cii = asNode(document.CrossIndustryInvoice);
  if (cii) return readCii(cii, attachmentName);
  const ubl = asNode(document.Invoice) ?? asNode(document.CreditNote);
  if (ubl) return readUbl(ubl, attachmentName);
  if ('CrossIndustryDocument' in document) return 'le format ZUGFeRD 1.0 n’est plus pris en charge (Factur-X / ZUGFeRD 2 attendu)';
  return 'ce n’est pas une facture EN 16931 (CII ou UBL)';
}

/**
 * The electronic invoice inside a PDF: none (a plain PDF), unreadable (an e-invoice attachment that cannot be read,
 * with the reason) or its data, and the names of any other embedded file. A PDF pdf-lib cannot parse is reported as a
 * plain PDF (the upload checks already accepted its bytes); one too large once inflated throws PdfReadError.
 */
export async function readEInvoice(pdf: Uint8Array): Promise<EInvoiceReadResult> {
  let attachments: PdfAttachment[];
  try {
    attachments = await listPdfAttachments(pdf, { maxBytes: MAX_XML_BYTES });
  } catch (error) {
    if (error instanceof PdfReadError && error.reason === 'unparsable') return { kind: 'none', otherAttachments: [] };
    throw error;
  }
  const candidate = attachments.find((a) => isEInvoiceAttachmentName(a.name));
  const otherAttachments = attachments.filter((a) => a !== candidate).map((a) => a.name || 'sans nom');
  if (!candidate) return { kind: 'none', otherAttachments };
  if (!candidate.content) {
    return { kind: 'unreadable', otherAttachments, message: `Le fichier ${candidate.name} joint à la facture est illisible (compression inconnue, fichier corrompu ou trop volumineux)` };
  }
  const result = parseEInvoiceXml(new TextDecoder('utf-8').decode(candidate.content), candidate.name);
  if (typeof result === 'string') return { kind: 'unreadable', otherAttachments, message: `Le fichier ${candidate.name} joint à la facture est illisible : ${result}` };
  return { kind: 'e-invoice', data: result, otherAttachments };
}

export { PdfReadError };
