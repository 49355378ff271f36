import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { invoiceReferenceSchema, type AdminInvoice } from '@maillon/common/schemas/money';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdateInvoice } from '../api/update-invoice';

const editInvoiceFormSchema = z.object({
  reference: invoiceReferenceSchema,
  description: z.string().max(2000, 'La description doit contenir au plus 2000 caractères'),
  invoiceDate: z.string(),
  dueDate: z.string(),
});
type EditInvoiceForm = z.infer<typeof editInvoiceFormSchema>;

const toDay = (value: string | null) => (value ? value.slice(0, 10) : '');

export function EditInvoiceDialog({ invoice, onOpenChange }: { invoice: AdminInvoice | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={invoice !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        {invoice ? <EditInvoiceForm key={invoice.id} invoice={invoice} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditInvoiceForm({ invoice, onDone }: { invoice: AdminInvoice; onDone: () => void }) {
  const update = useUpdateInvoice();
  const form = useForm<EditInvoiceForm>({
    resolver: zodResolver(editInvoiceFormSchema),
    defaultValues: {
      reference: invoice.reference,
      description: invoice.description ?? '',
      invoiceDate: toDay(invoice.invoiceDate),
      dueDate: toDay(invoice.dueDate),
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({
        invoiceId: invoice.id,
        body: {
          reference: values.reference,
          description: values.description.trim() || null,
          invoiceDate: values.invoiceDate || null,
          dueDate: values.dueDate || null,
        },
      });
      toast({ title: 'Facture modifiée', description: values.reference, variant: 'success' });
      onDone();
    } catch (error) {
      toastError('Impossible de modifier la facture', error);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Modifier la facture</DialogTitle>
        <DialogDescription>
          {invoice.missionTitle ?? 'Mission'} · {invoice.technicianName}
        </DialogDescription>
      </DialogHeader>
      <Field id="edit-invoice-reference" label="Référence" required error={errors.reference?.message}>
        <Input autoComplete="off" {...form.register('reference')} />
      </Field>
      <Field id="edit-invoice-description" label="Description" error={errors.description?.message}>
        <Textarea rows={3} {...form.register('description')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="edit-invoice-date" label="Date de facture" error={errors.invoiceDate?.message}>
          <Input type="date" {...form.register('invoiceDate')} />
        </Field>
        <Field id="edit-invoice-due" label="Date d’échéance" error={errors.dueDate?.message}>
          <Input type="date" {...form.register('dueDate')} />
        </Field>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Enregistrer
        </Button>
      </DialogFooter>
    </form>
  );
}
