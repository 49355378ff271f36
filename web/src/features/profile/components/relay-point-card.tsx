import { useForm } from 'react-hook-form';
import { Package } from 'lucide-react';
import type { UpdateRelayPoint } from '@maillon/common/schemas/profile';
import type { Technician } from '@maillon/common/schemas/technicians';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useUpdateRelayPoint } from '../api/update-relay-point';
import { relayPointResolver } from './form-resolvers';
import { applyFieldErrors, orEmpty, ProfileCard } from './profile-card';

const valuesOf = (t: Technician): UpdateRelayPoint => ({ preferredRelayPoint: orEmpty(t.preferredRelayPoint) });

export function RelayPointCard({ technician }: { technician: Technician }) {
  const mutation = useUpdateRelayPoint(technician.id);
  const form = useForm<UpdateRelayPoint>({ resolver: relayPointResolver, defaultValues: valuesOf(technician) });
  const { errors, isSubmitting, isDirty } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await mutation.mutateAsync(values);
      form.reset(valuesOf(saved));
      toast({ title: 'Point relais mis à jour', variant: 'success' });
    } catch (error) {
      applyFieldErrors(form, error);
      toastError('Erreur lors de la mise à jour du point relais', error);
    }
  });

  return (
    <ProfileCard title="Point relais favori" icon={<Package aria-hidden="true" />} description="Où vous préférez recevoir le matériel des missions.">
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field id="profile-preferredRelayPoint" label="Point relais préféré" error={errors.preferredRelayPoint?.message}>
          <Input placeholder="Nom et adresse du point relais" {...form.register('preferredRelayPoint')} />
        </Field>
        <Button type="submit" className="justify-self-start" disabled={!isDirty} loading={isSubmitting}>
          {isSubmitting ? 'Enregistrement...' : 'Enregistrer'}
        </Button>
      </form>
    </ProfileCard>
  );
}
