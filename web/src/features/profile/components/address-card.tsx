import { useForm } from 'react-hook-form';
import { MapPin } from 'lucide-react';
import type { UpdateAddress } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdateAddress } from '../api/update-address';
import { addressResolver } from './form-resolvers';
import { applyFieldErrors, orEmpty, ProfileCard } from './profile-card';

const valuesOf = (t: Technician): UpdateAddress => ({ address: orEmpty(t.address), city: orEmpty(t.city), postalCode: orEmpty(t.postalCode) });

export function AddressCard({ technician }: { technician: Technician }) {
  const mutation = useUpdateAddress(technician.id);
  const form = useForm<UpdateAddress>({ resolver: addressResolver, defaultValues: valuesOf(technician) });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await mutation.mutateAsync(values);
      form.reset(valuesOf(saved));
      toast({ title: 'Adresse mise à jour', variant: 'success' });
    } catch (error) {
      applyFieldErrors(form, error);
      toastError("Erreur lors de la mise à jour de l'adresse", error);
    }
  });

  return (
    <ProfileCard title="Adresse postale" icon={<MapPin aria-hidden="true" />} description="Point de départ de vos tournées (tri des défibrillateurs par trajet).">
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field id="profile-address" label="Adresse" error={errors.address?.message}>
          <Input autoComplete="street-address" {...form.register('address')} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <Field id="profile-city" label="Ville" error={errors.city?.message}>
            <Input autoComplete="address-level2" {...form.register('city')} />
          </Field>
          <Field id="profile-postalCode" label="Code postal" error={errors.postalCode?.message}>
            <Input inputMode="numeric" autoComplete="postal-code" {...form.register('postalCode')} />
          </Field>
        </div>
        <Button type="submit" className="justify-self-start" disabled={!isDirty} loading={isSubmitting}>
          {isSubmitting ? 'Enregistrement...' : 'Enregistrer'}
        </Button>
      </form>
    </ProfileCard>
  );
}
