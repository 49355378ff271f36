import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordFormSchema, type ResetPasswordForm as ResetPasswordValues } from '@maillon/common/schemas/registration';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { confirmPasswordReset } from '../api/confirm-password-reset';

interface ResetPasswordFormProps {
  token: string;
  onSuccess: () => void;
}

/** The page opened from the e-mailed link: choose a new password (min 6 characters, twice). */
export function ResetPasswordForm({ token, onSuccess }: ResetPasswordFormProps) {
  const [linkError, setLinkError] = React.useState<string | null>(null);
  const form = useForm<ResetPasswordValues>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { password: '', confirmPassword: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setLinkError(null);
    try {
      await confirmPasswordReset({ token, password: values.password });
      toast({ title: 'Mot de passe modifié', description: 'Vous pouvez maintenant vous connecter avec votre nouveau mot de passe.', variant: 'success' });
      onSuccess();
    } catch (error) {
      const apiError = error instanceof ApiError ? error : null;
      const fieldMessage = apiError?.fields?.password;
      if (fieldMessage) form.setError('password', { message: fieldMessage }, { shouldFocus: true });
      else setLinkError(apiError?.userMessage ?? 'Impossible de modifier le mot de passe. Réessayez plus tard.');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      {linkError ? (
        <div role="alert" className="rounded-lg border border-destructive/30 bg-primary-soft px-4 py-3 text-sm text-destructive">
          {linkError}
        </div>
      ) : null}
      <Field id="reset-password" label="Nouveau mot de passe" hint="6 caractères minimum" error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('password')} />
      </Field>
      <Field id="reset-password-confirm" label="Confirmer le nouveau mot de passe" error={errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
      </Field>
      <Button type="submit" size="lg" className="h-auto min-h-11 whitespace-normal py-2" loading={isSubmitting}>
        {isSubmitting ? 'Enregistrement...' : 'Enregistrer le nouveau mot de passe'}
      </Button>
    </form>
  );
}
