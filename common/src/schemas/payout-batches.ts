import { z } from 'zod';
import { PAYOUT_BATCH_STATUSES, PAYOUT_LINE_STATUSES } from '../enums';

/** SEPA payout batches (« Factures & virements »): the admin pays the waiting transfers with one bank file. Decision 018. */

const day = z
  .string({ error: 'Date invalide' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date invalide (AAAA-MM-JJ)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T12:00:00Z`)) && new Date(`${v}T12:00:00Z`).toISOString().startsWith(v), 'Date invalide');

export const PAYOUT_BATCH_MAX_TRANSFERS = 1000;

/** Whether the SEPA debtor account is configured (CHARITY_IBAN, CHARITY_BIC), and the charity's identifiers. */
export const payoutSettingsSchema = z.object({
  debtorConfigured: z.boolean(),
  debtorName: z.string(),
  debtorIbanLast4: z.string().nullable(),
  debtorBic: z.string().nullable(),
  charitySiret: z.string().nullable(),
});
export type PayoutSettings = z.infer<typeof payoutSettingsSchema>;

/** A transfer « Enregistré » that no batch holds yet: what the admin picks from. */
export const payoutCandidateSchema = z.object({
  transferId: z.string().uuid(),
  invoiceId: z.string().uuid().nullable(),
  technicianId: z.string().uuid(),
  technicianName: z.string(),
  companyName: z.string().nullable(),
  missionTitle: z.string().nullable(),
  invoiceRef: z.string(),
  amount: z.number(),
  submittedAt: z.string(),
  /** Last 4 characters of the technician's IBAN now, and of the one the invoice was submitted with. */
  ibanLast4: z.string().nullable(),
  submittedIbanLast4: z.string().nullable(),
  ibanChanged: z.boolean(),
  /** Why this transfer cannot be put in a SEPA file (no IBAN, invalid IBAN, outside the SEPA zone, zero amount), or null. */
  problem: z.string().nullable(),
});
export type PayoutCandidate = z.infer<typeof payoutCandidateSchema>;

/** POST /api/payout-batches: some transfers, or every one that can be paid. */
export const createPayoutBatchRequestSchema = z
  .object({
    transferIds: z
      .array(z.string().uuid('Identifiant invalide'), { error: 'Sélection invalide' })
      .min(1, 'Sélectionnez au moins un virement')
      .max(PAYOUT_BATCH_MAX_TRANSFERS, `Un lot contient au plus ${PAYOUT_BATCH_MAX_TRANSFERS} virements`)
      .refine((ids) => new Set(ids).size === ids.length, 'Un virement est sélectionné deux fois')
      .optional(),
    all: z.literal(true, { error: 'Valeur invalide' }).optional(),
    /** Requested execution date (ReqdExctnDt); today by default. */
    executionDate: day.optional(),
  })
  .refine((v) => (v.transferIds ? !v.all : v.all === true), { message: 'Sélectionnez des virements, ou demandez-les tous', path: ['transferIds'] });
export type CreatePayoutBatchRequest = z.infer<typeof createPayoutBatchRequestSchema>;

export const payoutLineSchema = z.object({
  id: z.string().uuid(),
  lineNumber: z.number().int(),
  transferId: z.string().uuid().nullable(),
  invoiceId: z.string().uuid().nullable(),
  technicianId: z.string().uuid().nullable(),
  creditorName: z.string(),
  /** Never the full IBAN: the file has it, the screen shows its end. */
  creditorIbanLast4: z.string(),
  ibanChanged: z.boolean(),
  amount: z.number(),
  remittance: z.string(),
  endToEndId: z.string(),
  status: z.enum(PAYOUT_LINE_STATUSES),
});
export type PayoutLine = z.infer<typeof payoutLineSchema>;

export const payoutBatchSchema = z.object({
  id: z.string().uuid(),
  reference: z.string(),
  status: z.enum(PAYOUT_BATCH_STATUSES),
  executionDate: z.string(),
  debtorName: z.string(),
  debtorIbanLast4: z.string(),
  transferCount: z.number().int(),
  total: z.number(),
  paidCount: z.number().int(),
  refusedCount: z.number().int(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;

export const payoutBatchDetailSchema = payoutBatchSchema.extend({ lines: z.array(payoutLineSchema) });
export type PayoutBatchDetail = z.infer<typeof payoutBatchDetailSchema>;

export const payoutBatchFiltersSchema = z.object({
  status: z.enum(PAYOUT_BATCH_STATUSES, { error: 'Statut invalide' }).optional(),
});

/** GET /api/payments/accounting.csv: the paid transfers of a period (dates included, Europe/Paris). */
export const accountingExportQuerySchema = z
  .object({ from: day, to: day })
  .refine((v) => v.from <= v.to, { message: 'La date de début doit précéder la date de fin', path: ['to'] })
  .refine((v) => Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`) <= 366 * 86_400_000 * 5, {
    message: 'La période est limitée à 5 ans',
    path: ['to'],
  });
export type AccountingExportQuery = z.infer<typeof accountingExportQuerySchema>;

/** The years a technician was paid in, with their totals: the yearly statements it can download. */
export const statementYearSchema = z.object({ year: z.number().int(), count: z.number().int(), total: z.number() });
export type StatementYear = z.infer<typeof statementYearSchema>;

export const statementQuerySchema = z.object({
  year: z.coerce
    .number({ error: 'Année invalide' })
    .int('Année invalide')
    .min(2000, 'Année invalide')
    .max(2100, 'Année invalide'),
});
