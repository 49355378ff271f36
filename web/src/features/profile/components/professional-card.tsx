import { useForm } from 'react-hook-form';
import { Building2 } from 'lucide-react';
import type { UpdateProfessional } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdateProfessional } from '../api/update-professional';
import { professionalResolver } from './form-resolvers';
import { applyFieldErrors, orEmpty, ProfileCard } from './profile-card';

const valuesOf = (t: Technician): UpdateProfessional => ({ companyName: orEmpty(t.companyName), siret: orEmpty(t.siret) });

export function ProfessionalCard({ technician }: { technician: Technician }) {
  const mutation = useUpdateProfessional(technician.id);
  const form = useForm<UpdateProfessional>({ resolver: professionalResolver, defaultValues: valuesOf(technician) });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await mutation.mutateAsync(values);
      form.reset(valuesOf(saved));
      toast({ title: 'Informations professionnelles mises à jour', variant: 'success' });
    } catch (error) {
      applyFieldErrors(form, error);
      toastError('Erreur lors de la mise à jour des informations professionnelles', error);
    }
  });

  return (
    <ProfileCard title="Informations professionnelles" icon={<Building2 aria-hidden="true" />}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field id="profile-companyName" label="Nom de l'entreprise" error={errors.companyName?.message}>
          <Input autoComplete="organization" {...form.register('companyName')} />
        </Field>
        <Field id="profile-siret" label="SIRET" hint="14 chiffres" error={errors.siret?.message}>
          <Input inputMode="numeric" autoComplete="off" {...form.register('siret')} />
        </Field>
        <Button type="submit" className="justify-self-start" disabled={!isDirty} loading={isSubmitting}>
          {isSubmitting ? 'Enregistrement...' : 'Enregistrer'}
        </Button>
      </form>
    </ProfileCard>
  );
}
