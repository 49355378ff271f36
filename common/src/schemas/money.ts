import { z } from 'zod';
import { pickerQueryFields } from './pickers';
import { E_INVOICE_FORMATS, INVOICE_STATUSES, TRANSFER_STATUSES } from '../enums';
import { eInvoiceSchema } from './e-invoice';
import {
  INVOICE_REFERENCE_MAX,
  INVOICE_SUBMIT_MESSAGES,
  invoiceReferenceSchema,
  submitInvoiceFormSchema,
  type SubmitInvoiceForm,
} from './invoice-submission';

// The submission form's part lives in invoice-submission.ts (zod/mini, loaded by the technician area): decision 013.
export { INVOICE_REFERENCE_MAX, INVOICE_SUBMIT_MESSAGES, invoiceReferenceSchema, submitInvoiceFormSchema, type SubmitInvoiceForm };

/** Chips of the admin "Factures & virements" tab (spec 02 §2, display rules of §4). */
export const INVOICE_CHIPS = ['Mission à réaliser', 'Facture à soumettre', 'Facture envoyée', 'Terminé'] as const;
export type InvoiceChip = (typeof INVOICE_CHIPS)[number];

/**
 * Display status of an invoice for the administrator (spec 02 §4): "Mission à terminer" (and the legacy "overdue")
 * is a mission still to carry out; an invoice whose transfer is Effectué, or that is archived, is Terminé.
 */
export function invoiceDisplayStatus(status: string, latestTransferStatus: string | null | undefined): InvoiceChip | string {
  if (status === 'Terminé' || status === 'Traité' || latestTransferStatus === 'Effectué') return 'Terminé';
  if (status === 'Mission à terminer' || status === 'overdue') return 'Mission à réaliser';
  if (status === 'Facture à soumettre' || status === 'pending') return 'Facture à soumettre';
  if (status === 'Facture envoyée' || status === 'paid') return 'Facture envoyée';
  return status;
}

const euros = z.number();
const isoDate = z.string();

/** A technician's invoice ("Mes revenus"). */
export const technicianInvoiceSchema = z.object({
  id: z.string().uuid(),
  batchId: z.string().uuid().nullable(),
  status: z.enum(INVOICE_STATUSES),
  missionTitle: z.string().nullable(),
  description: z.string().nullable(),
  reference: z.string(),
  progression: z.string(),
  initialAmount: euros,
  amount: euros,
  validatedAmount: euros,
  batchPrice: euros,
  invoiceDate: isoDate.nullable(),
  dueDate: isoDate.nullable(),
  paidDate: isoDate.nullable(),
  createdAt: isoDate,
});
export type TechnicianInvoice = z.infer<typeof technicianInvoiceSchema>;

/** A transfer as the technician sees it ("Mes virements"); transferRef defaults to "En attente". */
export const technicianTransferSchema = z.object({
  id: z.string().uuid(),
  invoiceId: z.string().uuid().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  invoiceRef: z.string(),
  transferRef: z.string(),
  bankAccountLast4: z.string().nullable(),
  amount: euros,
  transferDate: isoDate.nullable(),
  missionTitle: z.string().nullable(),
  createdAt: isoDate,
});
export type TechnicianTransfer = z.infer<typeof technicianTransferSchema>;

/** The three totals of the revenue tab, computed by the server (spec 01 §4). */
export const revenueSummarySchema = z.object({
  activeMissionGains: euros,
  pendingTransfers: euros,
  paymentHistory: euros,
});
export type RevenueSummary = z.infer<typeof revenueSummarySchema>;

/** The text fields of POST /api/invoice/{id}/submit (multipart; the file is checked from its bytes). */
export const submitInvoiceFieldsSchema = z.object({
  reference: invoiceReferenceSchema,
  amount_certified: z
    .string({ error: INVOICE_SUBMIT_MESSAGES.certificationRequired })
    .trim()
    .min(1, INVOICE_SUBMIT_MESSAGES.certificationRequired)
    .regex(/^\d{1,9}([.,]\d{1,2})?$/, 'Montant certifié invalide')
    .transform((v) => Number(v.replace(',', '.'))),
});

export const submitInvoiceResponseSchema = z.object({
  invoice: technicianInvoiceSchema,
  transfer: technicianTransferSchema,
});
export type SubmitInvoiceResponse = z.infer<typeof submitInvoiceResponseSchema>;

/* ------------------------------------------------------------------ admin ------------------------------------------------------------------ */

export const transferSchema = z.object({
  id: z.string().uuid(),
  invoiceId: z.string().uuid().nullable(),
  batchId: z.string().uuid().nullable(),
  technicianId: z.string().uuid(),
  status: z.enum(TRANSFER_STATUSES),
  invoiceRef: z.string(),
  transferRef: z.string().nullable(),
  bankAccountLast4: z.string().nullable(),
  amount: euros,
  transferDate: isoDate.nullable(),
  createdAt: isoDate,
});
export type Transfer = z.infer<typeof transferSchema>;

export const adminTransferSchema = transferSchema.extend({
  technicianName: z.string(),
  missionTitle: z.string().nullable(),
});
export type AdminTransfer = z.infer<typeof adminTransferSchema>;

export const invoiceFileSchema = z.object({
  id: z.string().uuid(),
  invoiceId: z.string().uuid(),
  technicianId: z.string().uuid(),
  reference: z.string(),
  fileId: z.string().uuid(),
  fileName: z.string(),
  size: z.number().int(),
  amountCertified: euros,
  /** Factur-X (read and checked, its data below) or a plain PDF (decision 021). */
  format: z.enum(E_INVOICE_FORMATS),
  eInvoice: eInvoiceSchema.nullable(),
  createdAt: isoDate,
});
export type InvoiceFile = z.infer<typeof invoiceFileSchema>;

export const adminInvoiceSchema = technicianInvoiceSchema.extend({
  technicianId: z.string().uuid(),
  technicianName: z.string(),
  companyName: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  displayStatus: z.string(),
  latestTransfer: transferSchema.nullable(),
  /** The stored file of the latest submission (download through GET /api/files/{id}). */
  fileId: z.string().uuid().nullable(),
  fileName: z.string().nullable(),
  /** How that file arrived: Factur-X with the data read from it, or « PDF simple ». */
  fileFormat: z.enum(E_INVOICE_FORMATS).nullable(),
  eInvoice: eInvoiceSchema.nullable(),
  /** The payout batch the waiting transfer is in (its file may be at the bank): pay or refuse it from the batch. */
  payoutBatchReference: z.string().nullable(),
});
export type AdminInvoice = z.infer<typeof adminInvoiceSchema>;

export const adminInvoiceFiltersSchema = z.object({
  technicianId: z.string().uuid('Identifiant invalide').optional(),
  search: z.string().trim().max(200).optional(),
  status: z.enum(INVOICE_CHIPS, { error: 'Statut invalide' }).optional(),
});
export type AdminInvoiceFilters = z.infer<typeof adminInvoiceFiltersSchema>;

export const invoiceChipCountsSchema = z.object({
  'Mission à réaliser': z.number().int(),
  'Facture à soumettre': z.number().int(),
  'Facture envoyée': z.number().int(),
  Terminé: z.number().int(),
});
export type InvoiceChipCounts = z.infer<typeof invoiceChipCountsSchema>;

/** One technician of the admin's technician pickers (invoices, statements, shipments). */
export const technicianOptionSchema = z.object({ id: z.string().uuid(), name: z.string() });
export type TechnicianOption = z.infer<typeof technicianOptionSchema>;

/**
 * Query of the admin's technician pickers (GET /api/invoices/technicians, GET /api/shipments/admin/technicians): the
 * technicians whose name (either way round), e-mail or company contains `search`, a few at a time, never the whole
 * list (5 000 names at full scale).
 */
export const technicianOptionsQuerySchema = z.object(pickerQueryFields('techniciens'));
export type TechnicianOptionsQuery = z.infer<typeof technicianOptionsQuerySchema>;

/** Marquer Payée (Effectué) or Refuser (Refus) the live transfer of an invoice. */
export const updateTransferStatusRequestSchema = z.object({
  invoiceId: z.string({ error: 'Facture requise' }).uuid('Identifiant invalide'),
  status: z.enum(['Effectué', 'Refus'], { error: 'Statut invalide' }),
});
export type UpdateTransferStatusRequest = z.infer<typeof updateTransferStatusRequestSchema>;

/** Archiver. */
export const updateInvoiceStatusRequestSchema = z.object({
  status: z.literal('Terminé', { error: 'Statut invalide' }),
});

const optionalDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date invalide')
  .refine((v) => !Number.isNaN(new Date(`${v}T12:00:00Z`).getTime()), 'Date invalide')
  .nullable()
  .optional();

/** Admin edit of an invoice (modal). Dates as yyyy-mm-dd or null. */
export const updateInvoiceRequestSchema = z.object({
  description: z.string().trim().max(2000, 'La description doit contenir au plus 2000 caractères').nullable().optional(),
  reference: z.optional(invoiceReferenceSchema),
  invoiceDate: optionalDay,
  dueDate: optionalDay,
});
export type UpdateInvoiceRequest = z.infer<typeof updateInvoiceRequestSchema>;
