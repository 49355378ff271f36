import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordSchema, type ForgotPassword } from '@maillon/common/schemas/registration';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { requestPasswordReset } from '../api/request-password-reset';

interface ForgotPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** "Mot de passe oublié ?": asks for the address and e-mails a single-use link (decisions.md §2). */
export function ForgotPasswordDialog({ open, onOpenChange }: ForgotPasswordDialogProps) {
  const form = useForm<ForgotPassword>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await requestPasswordReset(values);
      toast({ title: 'Email envoyé', description: 'Un email avec un lien de réinitialisation a été envoyé à votre adresse', variant: 'success' });
      form.reset();
      onOpenChange(false);
    } catch (error) {
      toast({
        title: "Impossible d'envoyer l'email",
        description: error instanceof ApiError ? error.userMessage : undefined,
        variant: 'destructive',
      });
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Mot de passe oublié</DialogTitle>
          <DialogDescription>
            Entrez l'adresse email de votre compte : nous vous enverrons un lien, valable 1 heure, pour choisir un nouveau mot de passe.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <Field id="forgot-password-email" label="Email" error={errors.email?.message}>
            <Input type="email" inputMode="email" autoComplete="email" {...form.register('email')} />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Annuler
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {isSubmitting ? 'Envoi...' : 'Envoyer le lien'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
