import { z } from 'zod';
import { E_INVOICE_FORMATS } from '../enums';

/**
 * Electronic invoices (Factur-X / ZUGFeRD: EN 16931 XML inside the PDF): what Maillon reads from them, checks and shows
 * (decision 021). Amounts are stored in cents and travel in euros like every amount (decision 003).
 */

/** The EN 16931 fields Maillon reads, as stored beside the submitted file (invoices_files.e_invoice). */
export interface StoredEInvoice {
  /** CII (Factur-X, ZUGFeRD, XRechnung CII) or UBL (XRechnung UBL). */
  syntax: 'CII' | 'UBL';
  /** The embedded file's name (factur-x.xml, zugferd-invoice.xml, xrechnung.xml...). */
  attachmentName: string;
  /** The specification identifier (BT-24) and its readable profile name (MINIMUM, BASIC WL, BASIC, EN 16931, EXTENDED...). */
  profileId: string | null;
  profile: string;
  /** BT-1, BT-3, BT-2 (yyyy-mm-dd), BT-5. */
  invoiceNumber: string;
  typeCode: string | null;
  issueDate: string | null;
  currency: string | null;
  seller: { name: string | null; legalId: string | null; legalIdScheme: string | null; vatId: string | null };
  buyer: { name: string | null; legalId: string | null; legalIdScheme: string | null };
  /** BT-109 (HT), BT-110, BT-112 (TTC), BT-115 (due). */
  taxBasisCents: number | null;
  taxCents: number | null;
  grandTotalCents: number | null;
  duePayableCents: number | null;
}

export const eInvoiceSchema = z.object({
  syntax: z.enum(['CII', 'UBL']),
  attachmentName: z.string(),
  profileId: z.string().nullable(),
  profile: z.string(),
  invoiceNumber: z.string(),
  typeCode: z.string().nullable(),
  issueDate: z.string().nullable(),
  currency: z.string().nullable(),
  seller: z.object({ name: z.string().nullable(), legalId: z.string().nullable(), legalIdScheme: z.string().nullable(), vatId: z.string().nullable() }),
  buyer: z.object({ name: z.string().nullable(), legalId: z.string().nullable(), legalIdScheme: z.string().nullable() }),
  /** Euros. */
  taxBasisAmount: z.number().nullable(),
  taxAmount: z.number().nullable(),
  grandTotalAmount: z.number().nullable(),
  duePayableAmount: z.number().nullable(),
});
export type EInvoice = z.infer<typeof eInvoiceSchema>;

/** One check of an uploaded invoice against Maillon's records: ok, or what differs, in French. */
export const eInvoiceCheckSchema = z.object({
  key: z.enum(['amount', 'seller', 'buyer', 'number', 'currency', 'type', 'required']),
  ok: z.boolean(),
  message: z.string(),
});
export type EInvoiceCheck = z.infer<typeof eInvoiceCheckSchema>;

/** POST /api/invoice/{id}/inspect: what the uploaded PDF is, what it says and whether it would be accepted. Nothing is stored. */
export const invoiceInspectionSchema = z.object({
  format: z.enum(E_INVOICE_FORMATS),
  accepted: z.boolean(),
  /** A one-line summary for the form. */
  summary: z.string(),
  eInvoice: eInvoiceSchema.nullable(),
  checks: z.array(eInvoiceCheckSchema),
  /** The reference the form should use: the invoice number of a Factur-X file. */
  suggestedReference: z.string().nullable(),
});
export type InvoiceInspection = z.infer<typeof invoiceInspectionSchema>;

/** What the admin sees of a submission's file: its format and, for Factur-X, the data read from it. */
export const invoiceFileFormatSchema = z.object({
  format: z.enum(E_INVOICE_FORMATS),
  eInvoice: eInvoiceSchema.nullable(),
});
export type InvoiceFileFormat = z.infer<typeof invoiceFileFormatSchema>;
