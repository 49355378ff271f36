import { toBasicLatin } from '../../lib/latin';

/**
 * The SEPA Credit Transfer initiation file (ISO 20022 pain.001.001.03, EPC SCT rulebook) a bank imports to pay a
 * payout batch: one group header, one payment information block (the charity's account, one execution date), one
 * CdtTrfTxInf per transfer. Texts are transliterated to the SEPA character set and cut to the schema's lengths;
 * amounts are written with a dot and two decimals. Pure: `buildSepaCreditTransfer(batch) -> string` (decision 021).
 */

export interface SepaTransaction {
  /** EndToEndId (Max35): the reference the technician's bank statement shows, and the transfer's reference in Maillon. */
  endToEndId: string;
  amountCents: number;
  creditorName: string;
  creditorIban: string;
  /** Unstructured remittance information (Max140): the invoice reference. */
  remittance: string;
}

export interface SepaBatch {
  /** MsgId (Max35): unique per file, banks refuse a second file with the same id. */
  messageId: string;
  createdAt: Date;
  /** yyyy-mm-dd */
  executionDate: string;
  initiatingPartyName: string;
  debtor: { name: string; iban: string; bic: string };
  transactions: SepaTransaction[];
}

export const SEPA_NAME_MAX = 70;
export const SEPA_REMITTANCE_MAX = 140;
export const SEPA_ID_MAX = 35;

/** The EPC's basic Latin character set: a-z A-Z 0-9 / - ? : ( ) . , ' + and space. */
const ALLOWED = /[A-Za-z0-9/\-?:().,'+ ]/;

/** A text in the SEPA character set: accents removed (é→e, ç→c), ligatures spelled (œ→oe, ß→ss), others as spaces; cut to `max`. */
export function toSepaText(value: string, max: number): string {
  const cleaned = [...toBasicLatin(value)].map((char) => (ALLOWED.test(char) ? char : ' ')).join('');
  return cleaned.replace(/\s+/g, ' ').trim().slice(0, max).trim();
}

/** An identifier (MsgId, PmtInfId, EndToEndId): SEPA characters without spaces, no leading, trailing or double slash. */
export function toSepaId(value: string): string {
  return toSepaText(value, 200).replace(/ /g, '-').replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '').slice(0, SEPA_ID_MAX);
}

/** 1234567 cents → "12345.67" */
export function sepaAmount(cents: number): string {
  if (!Number.isInteger(cents) || cents <= 0) throw new Error(`SEPA amount must be a positive number of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** ISODateTime in Europe/Paris local time, without offset (what the French banks' import screens expect). */
function parisDateTime(date: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** A tiny indented XML writer: elements in the schema's order, text escaped. */
class Xml {
  private readonly lines: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  private depth = 0;
  open(name: string, attributes = ''): this {
    this.lines.push(`${'  '.repeat(this.depth)}<${name}${attributes}>`);
    this.depth += 1;
    return this;
  }
  close(name: string): this {
    this.depth -= 1;
    this.lines.push(`${'  '.repeat(this.depth)}</${name}>`);
    return this;
  }
  leaf(name: string, value: string, attributes = ''): this {
    this.lines.push(`${'  '.repeat(this.depth)}<${name}${attributes}>${escapeXml(value)}</${name}>`);
    return this;
  }
  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/** The pain.001.001.03 document of a batch. Throws on an empty batch or a non-positive amount (the service refuses them first). */
export function buildSepaCreditTransfer(batch: SepaBatch): string {
  if (batch.transactions.length === 0) throw new Error('A SEPA file needs at least one transaction');
  const count = String(batch.transactions.length);
  const controlSum = sepaAmount(batch.transactions.reduce((sum, t) => sum + t.amountCents, 0));
  const xml = new Xml()
    .open('Document', ' xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"')
    .open('CstmrCdtTrfInitn')
    .open('GrpHdr')
    .leaf('MsgId', toSepaId(batch.messageId))
    .leaf('CreDtTm', parisDateTime(batch.createdAt))
    .leaf('NbOfTxs', count)
    .leaf('CtrlSum', controlSum)
    .open('InitgPty')
    .leaf('Nm', toSepaText(batch.initiatingPartyName, SEPA_NAME_MAX))
    .close('InitgPty')
    .close('GrpHdr')
    .open('PmtInf')
    .leaf('PmtInfId', toSepaId(`${batch.messageId}-P1`))
    .leaf('PmtMtd', 'TRF')
    .leaf('BtchBookg', 'true')
    .leaf('NbOfTxs', count)
    .leaf('CtrlSum', controlSum)
    .open('PmtTpInf')
    .open('SvcLvl')
    .leaf('Cd', 'SEPA')
    .close('SvcLvl')
    .close('PmtTpInf')
    .leaf('ReqdExctnDt', batch.executionDate)
    .open('Dbtr')
    .leaf('Nm', toSepaText(batch.debtor.name, SEPA_NAME_MAX))
    .close('Dbtr')
    .open('DbtrAcct')
    .open('Id')
    .leaf('IBAN', batch.debtor.iban)
    .close('Id')
    .close('DbtrAcct')
    .open('DbtrAgt')
    .open('FinInstnId')
    .leaf('BIC', batch.debtor.bic)
    .close('FinInstnId')
    .close('DbtrAgt')
    .leaf('ChrgBr', 'SLEV');
  for (const transaction of batch.transactions) {
    const endToEnd = toSepaId(transaction.endToEndId);
    xml
      .open('CdtTrfTxInf')
      .open('PmtId')
      .leaf('InstrId', endToEnd)
      .leaf('EndToEndId', endToEnd)
      .close('PmtId')
      .open('Amt')
      .leaf('InstdAmt', sepaAmount(transaction.amountCents), ' Ccy="EUR"')
      .close('Amt')
      .open('Cdtr')
      .leaf('Nm', toSepaText(transaction.creditorName, SEPA_NAME_MAX))
      .close('Cdtr')
      .open('CdtrAcct')
      .open('Id')
      .leaf('IBAN', transaction.creditorIban)
      .close('Id')
      .close('CdtrAcct')
      .open('RmtInf')
      .leaf('Ustrd', toSepaText(transaction.remittance, SEPA_REMITTANCE_MAX))
      .close('RmtInf')
      .close('CdtTrfTxInf');
  }
  return xml.close('PmtInf').close('CstmrCdtTrfInitn').close('Document').toString();
}
