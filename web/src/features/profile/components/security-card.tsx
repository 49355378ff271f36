import { useForm } from 'react-hook-form';
import { KeyRound } from 'lucide-react';
import type { ChangePasswordForm } from '@maillon/common/schemas/profile';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useChangePassword } from '../api/change-password';
import { passwordResolver } from './form-resolvers';
import { applyFieldErrors, ProfileCard } from './profile-card';

/** Lets the toast be read before the page reloads (spec §7: the page reloads after a password change). */
const RELOAD_DELAY_MS = 1200;

export function SecurityCard({ userId }: { userId: string }) {
  const mutation = useChangePassword(userId);
  const form = useForm<ChangePasswordForm>({
    resolver: passwordResolver,
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await mutation.mutateAsync({ currentPassword, newPassword });
      form.reset();
      toast({ title: 'Mot de passe modifié', description: 'Vos autres appareils ont été déconnectés.', variant: 'success' });
      setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
    } catch (error) {
      applyFieldErrors(form, error);
      toastError('Erreur lors de la mise à jour du mot de passe', error);
    }
  });

  return (
    <ProfileCard title="Sécurité" icon={<KeyRound aria-hidden="true" />} description="Changer votre mot de passe déconnecte vos autres appareils.">
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field id="profile-currentPassword" label="Mot de passe actuel" error={errors.currentPassword?.message}>
          <Input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
        </Field>
        <Field id="profile-newPassword" label="Nouveau mot de passe" hint="6 caractères minimum" error={errors.newPassword?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('newPassword')} />
        </Field>
        <Field id="profile-confirmPassword" label="Confirmer le nouveau mot de passe" error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
        </Field>
        <Button type="submit" className="justify-self-start" loading={isSubmitting}>
          {isSubmitting ? 'Modification...' : 'Changer le mot de passe'}
        </Button>
      </form>
    </ProfileCard>
  );
}
