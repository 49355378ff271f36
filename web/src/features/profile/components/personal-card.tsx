import { useForm } from 'react-hook-form';
import { UserRound } from 'lucide-react';
import type { UpdatePersonal } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdatePersonal } from '../api/update-personal';
import { personalResolver } from './form-resolvers';
import { applyFieldErrors, orEmpty, ProfileCard } from './profile-card';

const valuesOf = (t: Technician): UpdatePersonal => ({ firstName: t.firstName, lastName: t.lastName, phone: orEmpty(t.phone) });

export function PersonalCard({ technician }: { technician: Technician }) {
  const mutation = useUpdatePersonal(technician.id);
  const form = useForm<UpdatePersonal>({ resolver: personalResolver, defaultValues: valuesOf(technician) });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await mutation.mutateAsync(values);
      form.reset(valuesOf(saved));
      toast({ title: 'Informations personnelles mises à jour', variant: 'success' });
    } catch (error) {
      applyFieldErrors(form, error);
      toastError('Erreur lors de la mise à jour des informations personnelles', error);
    }
  });

  return (
    <ProfileCard title="Informations personnelles" icon={<UserRound aria-hidden="true" />}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="profile-firstName" label="Prénom" required error={errors.firstName?.message}>
            <Input autoComplete="given-name" {...form.register('firstName')} />
          </Field>
          <Field id="profile-lastName" label="Nom" required error={errors.lastName?.message}>
            <Input autoComplete="family-name" {...form.register('lastName')} />
          </Field>
        </div>
        <Field id="profile-phone" label="Téléphone" error={errors.phone?.message}>
          <Input type="tel" inputMode="tel" autoComplete="tel" {...form.register('phone')} />
        </Field>
        <Field id="profile-email" label="Email" hint="L'adresse email ne peut pas être modifiée.">
          <Input type="email" value={technician.email} readOnly disabled />
        </Field>
        <Button type="submit" className="justify-self-start" disabled={!isDirty} loading={isSubmitting}>
          {isSubmitting ? 'Enregistrement...' : 'Enregistrer'}
        </Button>
      </form>
    </ProfileCard>
  );
}
