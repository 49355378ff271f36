import { useForm } from 'react-hook-form';
import { Landmark } from 'lucide-react';
import type { UpdateBanking } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdateBanking } from '../api/update-banking';
import { bankingResolver } from './form-resolvers';
import { applyFieldErrors, ProfileCard } from './profile-card';

/** The full IBAN never comes back from the server: only its last 4 characters are shown. */
export function BankingCard({ technician }: { technician: Technician }) {
  const mutation = useUpdateBanking(technician.id);
  const form = useForm<UpdateBanking>({ resolver: bankingResolver, defaultValues: { iban: '' } });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync(values);
      form.reset({ iban: '' });
      toast({ title: 'Informations bancaires mises à jour', variant: 'success' });
    } catch (error) {
      applyFieldErrors(form, error);
      toastError('Erreur lors de la mise à jour des informations bancaires', error);
    }
  });

  return (
    <ProfileCard title="Informations bancaires" icon={<Landmark aria-hidden="true" />} description="Le compte sur lequel vos rémunérations sont versées.">
      <div className="rounded-md bg-muted px-3 py-2 text-sm">
        <span className="text-muted-foreground">IBAN enregistré : </span>
        {technician.ibanLast4 ? (
          <span className="font-mono font-medium" aria-label={`IBAN se terminant par ${technician.ibanLast4}`}>
            •••• •••• •••• {technician.ibanLast4}
          </span>
        ) : (
          <span className="font-medium">Aucun IBAN enregistré</span>
        )}
      </div>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field id="profile-iban" label={technician.ibanLast4 ? 'Nouvel IBAN' : 'IBAN'} error={errors.iban?.message}>
          <Input autoComplete="off" spellCheck={false} placeholder="FR76 …" {...form.register('iban')} />
        </Field>
        <Button type="submit" className="justify-self-start" disabled={!isDirty} loading={isSubmitting}>
          {isSubmitting ? 'Enregistrement...' : 'Enregistrer'}
        </Button>
      </form>
    </ProfileCard>
  );
}
