import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { formatEuros } from '@maillon/common/format';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import {
  INVOICE_REFERENCE_MAX,
  INVOICE_SUBMIT_MESSAGES,
  submitInvoiceFormSchema,
  type SubmitInvoiceForm,
} from '@maillon/common/schemas/invoice-submission';
import type { TechnicianInvoice } from '@maillon/common/schemas/money';
import type { InvoiceInspection } from '@maillon/common/schemas/e-invoice';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import '@/lib/zod-locale';
import { useInspectInvoice } from '../api/inspect-invoice';
import { useSubmitInvoice } from '../api/submit-invoice';
import { InspectionPanel } from './inspection-panel';

const FAILURE = 'Impossible de soumettre la facture. Veuillez réessayer.';

/** What differs, as the server says it (every failed check). */
const refusal = (inspection: InvoiceInspection) =>
  inspection.checks
    .filter((c) => !c.ok)
    .map((c) => c.message)
    .join(' · ') || inspection.summary;

/** A PDF starts with "%PDF-": checked from the bytes, like the server does. */
async function isPdf(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 5).arrayBuffer());
  return String.fromCharCode(...head) === '%PDF-';
}

interface SubmitInvoiceDialogProps {
  technicianId: string;
  /** The transfer goes to the IBAN on file: without one the server refuses the submission. */
  hasIban: boolean;
  invoice: TechnicianInvoice | null;
  onOpenChange: (open: boolean) => void;
}

export function SubmitInvoiceDialog({ technicianId, hasIban, invoice, onOpenChange }: SubmitInvoiceDialogProps) {
  return (
    <Dialog open={invoice !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        {invoice ? <SubmitInvoiceFormBody key={invoice.id} technicianId={technicianId} hasIban={hasIban} invoice={invoice} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function SubmitInvoiceFormBody({
  technicianId,
  hasIban,
  invoice,
  onDone,
}: {
  technicianId: string;
  hasIban: boolean;
  invoice: TechnicianInvoice;
  onDone: () => void;
}) {
  const submit = useSubmitInvoice(technicianId);
  const inspect = useInspectInvoice();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [inspection, setInspection] = useState<InvoiceInspection | null>(null);
  const form = useForm<SubmitInvoiceForm>({
    resolver: zodResolver(submitInvoiceFormSchema),
    defaultValues: { reference: '', certified: false },
  });
  const { errors, isSubmitting } = form.formState;
  const amount = formatEuros(invoice.validatedAmount);

  const checkFile = async (candidate: File | null): Promise<string | undefined> => {
    if (!candidate || candidate.size === 0) return INVOICE_SUBMIT_MESSAGES.fileRequired;
    if (candidate.size > UPLOAD_MAX_BYTES) return 'Le fichier dépasse la taille maximale de 10 Mo';
    if (!(await isPdf(candidate))) return INVOICE_SUBMIT_MESSAGES.pdfOnly;
    return undefined;
  };

  /** What the server reads in the chosen PDF: a Factur-X invoice pre-fills the reference and is checked at once. */
  const onFileChange = async (candidate: File | null) => {
    setFile(candidate);
    setInspection(null);
    const problem = candidate ? await checkFile(candidate) : undefined;
    setFileError(problem);
    if (!candidate || problem) return;
    try {
      const result = await inspect.mutateAsync({ invoiceId: invoice.id, file: candidate });
      setInspection(result);
      if (result.suggestedReference) form.setValue('reference', result.suggestedReference, { shouldValidate: true, shouldDirty: true });
      if (!result.accepted) setFileError(refusal(result));
    } catch (error) {
      setFileError(error instanceof ApiError && error.userMessage ? error.userMessage : 'Impossible de lire cette facture. Veuillez réessayer.');
    }
  };

  const onSubmit = form.handleSubmit(
    async (values) => {
      const problem = (await checkFile(file)) ?? (inspection && !inspection.accepted ? refusal(inspection) : undefined);
      setFileError(problem);
      if (problem || !file) return;
      try {
        await submit.mutateAsync({ invoiceId: invoice.id, reference: values.reference, amountCertified: invoice.validatedAmount, file });
        toast({ title: 'Facture soumise avec succès', description: `${invoice.missionTitle ?? 'Facture'} · ${amount}`, variant: 'success' });
        onDone();
      } catch (error) {
        const fields = error instanceof ApiError ? error.fields : undefined;
        if (fields?.reference) form.setError('reference', { message: fields.reference });
        if (fields?.invoice_file) setFileError(fields.invoice_file);
        if (error instanceof ApiError && error.code === 'INVALID_FILE' && error.userMessage) setFileError(error.userMessage);
        toast({ title: FAILURE, description: error instanceof ApiError ? error.userMessage : undefined, variant: 'destructive' });
      }
    },
    async () => {
      // Show the file message together with the other field messages.
      setFileError(await checkFile(file));
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Envoyer facture</DialogTitle>
        <DialogDescription>
          {invoice.missionTitle ?? 'Mission'} · progression {invoice.progression} · montant validé {amount} HT
        </DialogDescription>
      </DialogHeader>

      {hasIban ? null : (
        <p role="note" className="rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-warning">
          Aucun IBAN n’est enregistré : renseignez-le dans « Mon compte » pour recevoir le virement.
        </p>
      )}

      <Field id="invoice-reference" label="Référence de la facture" required error={errors.reference?.message}>
        <Input autoComplete="off" maxLength={INVOICE_REFERENCE_MAX} placeholder="FAC-2026-001" {...form.register('reference')} />
      </Field>

      <Field id="invoice-file" label="Facture (PDF)" required error={fileError} hint="PDF ou Factur-X, 10 Mo au maximum : une facture Factur-X est lue et vérifiée dès son choix.">
        <Input
          type="file"
          accept="application/pdf,.pdf"
          className="h-auto py-2 file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1.5 file:text-sm file:font-medium"
          onChange={(e) => void onFileChange(e.target.files?.[0] ?? null)}
        />
      </Field>
      <InspectionPanel pending={inspect.isPending} inspection={inspection} />

      <div className="grid gap-1.5">
        <div className="flex items-start gap-3">
          <Controller
            control={form.control}
            name="certified"
            render={({ field }) => (
              <Checkbox
                id="invoice-certified"
                className="mt-0.5"
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                aria-invalid={errors.certified ? true : undefined}
                aria-describedby={errors.certified ? 'invoice-certified-error' : undefined}
              />
            )}
          />
          <Label htmlFor="invoice-certified" className="leading-snug">
            Je certifie que le montant de ma facture est de {amount} HT, égal au montant validé.
          </Label>
        </div>
        {errors.certified ? (
          <p id="invoice-certified-error" role="alert" className="text-sm text-destructive">
            {errors.certified.message}
          </p>
        ) : null}
      </div>

      <DialogFooter>
        <Button type="button" variant="outline" size="lg" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" size="lg" loading={isSubmitting} disabled={inspect.isPending}>
          {isSubmitting ? 'Envoi...' : 'Envoyer la facture'}
        </Button>
      </DialogFooter>
    </form>
  );
}
