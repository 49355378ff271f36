// zod/mini: the technician's invoice submission form validates with these in the browser (decision 013); money.ts
// re-exports them for the server.
import * as z from 'zod/mini';

/** Spec 01 §5 / §8 texts of the invoice submission, shared by the form and the server. */
export const INVOICE_SUBMIT_MESSAGES = {
  referenceRequired: 'Veuillez entrer une référence',
  pdfOnly: 'Seuls les fichiers PDF sont autorisés',
  fileRequired: 'Veuillez sélectionner un fichier PDF',
  certificationRequired: 'Veuillez certifier le montant de la facture',
  amountMismatch: 'Le montant certifié doit être égal au montant validé',
} as const;

export const INVOICE_REFERENCE_MAX = 100;

export const invoiceReferenceSchema = z
  .string({ error: INVOICE_SUBMIT_MESSAGES.referenceRequired })
  .check(
    z.trim(),
    z.minLength(1, INVOICE_SUBMIT_MESSAGES.referenceRequired),
    z.maxLength(INVOICE_REFERENCE_MAX, `La référence doit contenir au plus ${INVOICE_REFERENCE_MAX} caractères`),
  );

/** The submission dialog's form (the file is kept beside it, checked by the component and the server). */
export const submitInvoiceFormSchema = z.object({
  reference: invoiceReferenceSchema,
  certified: z.boolean().check(z.refine((v) => v, INVOICE_SUBMIT_MESSAGES.certificationRequired)),
});
export type SubmitInvoiceForm = z.infer<typeof submitInvoiceFormSchema>;
