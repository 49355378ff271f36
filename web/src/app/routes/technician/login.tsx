import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { HeartPulse } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { ForgotPasswordDialog } from '@/features/onboarding/components/forgot-password-dialog';
import { RegistrationDialog } from '@/features/onboarding/components/registration-dialog';
import { usePageMeta } from '@/hooks/use-page-meta';

export function TechnicianLoginRoute() {
  usePageMeta({ title: 'Connexion technicien' });
  const navigate = useNavigate();
  const [forgotOpen, setForgotOpen] = useState(false);
  const [registerOpen, setRegisterOpen] = useState(false);
  const [registeredEmail, setRegisteredEmail] = useState<string | undefined>(undefined);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-primary-soft to-background px-4 py-8">
      <Link to="/" className="mb-6 flex items-center gap-2 text-xl font-bold">
        <HeartPulse className="size-7 text-primary" aria-hidden="true" /> Maillon
      </Link>
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle className="text-xl">Espace technicien</CardTitle>
          <CardDescription>Connectez-vous pour trouver des missions et suivre vos interventions.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <LoginForm
            key={registeredEmail ?? 'login'}
            idPrefix="technician-login"
            defaultEmail={registeredEmail}
            onSuccess={(session) =>
              navigate(session.user.role === 'admin' ? paths.admin.dashboard.getHref() : paths.technician.dashboard.getHref(), {
                replace: true,
              })
            }
          />
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <Button variant="link" className="h-auto px-0" onClick={() => setForgotOpen(true)}>
              Mot de passe oublié ?
            </Button>
            <Button variant="outline" onClick={() => setRegisterOpen(true)}>
              S'enregistrer
            </Button>
          </div>
          <Link to="/" className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline">
            Retour à l'accueil
          </Link>
        </CardContent>
      </Card>
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
      <RegistrationDialog open={registerOpen} onOpenChange={setRegisterOpen} onRegistered={setRegisteredEmail} />
    </main>
  );
}
