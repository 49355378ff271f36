import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { RegistrationForm } from './registration-form';
import { RegistrationSuccess } from './registration-success';

interface RegistrationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After success, when the dialog closes: the login form can offer the new address. */
  onRegistered: (email: string) => void;
}

/** "S'enregistrer" on the login page: the registration form in a popup. */
export function RegistrationDialog({ open, onOpenChange, onRegistered }: RegistrationDialogProps) {
  const [registeredEmail, setRegisteredEmail] = React.useState<string | null>(null);
  const close = () => {
    if (registeredEmail) onRegistered(registeredEmail);
    setRegisteredEmail(null);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="max-w-2xl bg-background" aria-describedby="registration-dialog-description">
        <DialogHeader>
          <DialogTitle>Inscription technicien</DialogTitle>
          <DialogDescription id="registration-dialog-description">
            Créez votre compte gratuitement. Les champs marqués d'une astérisque (*) sont obligatoires.
          </DialogDescription>
        </DialogHeader>
        {registeredEmail ? (
          <RegistrationSuccess email={registeredEmail}>
            <Button onClick={close} className="mt-2">
              Se connecter
            </Button>
          </RegistrationSuccess>
        ) : (
          <RegistrationForm idPrefix="register-popup" onSuccess={setRegisteredEmail} />
        )}
      </DialogContent>
    </Dialog>
  );
}
