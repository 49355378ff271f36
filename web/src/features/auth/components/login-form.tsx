import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequestSchema, type LoginRequest, type SessionResponse } from '@maillon/common/schemas/auth';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, NetworkError } from '@/lib/api-client';
import { useLogin } from '../api/login';

interface LoginFormProps {
  defaultEmail?: string | undefined;
  onSuccess: (session: SessionResponse) => void;
  idPrefix: string;
}

/** Shared login form: inline field errors, toasts of spec §8, "Connexion..." while submitting. */
export function LoginForm({ defaultEmail, onSuccess, idPrefix }: LoginFormProps) {
  const loginMutation = useLogin();
  const form = useForm<LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: defaultEmail ?? '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (defaultEmail && !form.getValues('email')) form.setValue('email', defaultEmail);
  }, [defaultEmail, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const session = await loginMutation.mutateAsync(values);
      onSuccess(session);
    } catch (error) {
      if (error instanceof NetworkError) {
        toast({ title: 'Erreur de connexion', description: 'Erreur de connexion au serveur', variant: 'destructive' });
      } else {
        const message = error instanceof ApiError ? error.userMessage : undefined;
        toast({ title: 'Erreur de connexion', description: message || 'Identifiants invalides', variant: 'destructive' });
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Field id={`${idPrefix}-email`} label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" {...form.register('email')} />
      </Field>
      <Field id={`${idPrefix}-password`} label="Mot de passe" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...form.register('password')} />
      </Field>
      <Button type="submit" size="lg" loading={isSubmitting}>
        {isSubmitting ? 'Connexion...' : 'Se connecter'}
      </Button>
    </form>
  );
}
