import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { HeartPulse } from 'lucide-react';
import { buttonVariants } from '@/components/ui/recipes';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { usePageMeta } from '@/hooks/use-page-meta';

// The popups (react-hook-form, zod, Radix dialog) load when first opened: the page itself needs none of them.
const ForgotPasswordDialog = lazy(() =>
  import('@/features/onboarding/components/forgot-password-dialog').then((m) => ({ default: m.ForgotPasswordDialog })),
);
const RegistrationDialog = lazy(() =>
  import('@/features/onboarding/components/registration-dialog').then((m) => ({ default: m.RegistrationDialog })),
);

export function TechnicianLoginRoute() {
  usePageMeta({ title: 'Connexion technicien' });
  const navigate = useNavigate();
  const [forgotOpen, setForgotOpen] = useState(false);
  const [registerOpen, setRegisterOpen] = useState(false);
  // Once opened, a popup stays mounted so that it closes with its animation and keeps its state, as before.
  const [forgotUsed, setForgotUsed] = useState(false);
  const [registerUsed, setRegisterUsed] = useState(false);
  if (forgotOpen && !forgotUsed) setForgotUsed(true);
  if (registerOpen && !registerUsed) setRegisterUsed(true);
  const [registeredEmail, setRegisteredEmail] = useState<string | undefined>(undefined);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-primary-soft to-background px-4 py-8">
      <Link to="/" className="mb-6 flex items-center gap-2 text-xl font-bold">
        <HeartPulse className="size-7 text-primary" aria-hidden="true" /> Maillon
      </Link>
      {/* Card's markup with the page's overrides already merged: no tailwind-merge on the public pages (decision 013). */}
      <div className="w-full max-w-md rounded-lg border bg-card text-card-foreground shadow-xs">
        <div className="flex flex-col gap-1.5 p-4 sm:p-5">
          <h3 className="text-xl font-semibold">Espace technicien</h3>
          <p className="text-sm text-muted-foreground">Connectez-vous pour trouver des missions et suivre vos interventions.</p>
        </div>
        <div className="grid gap-4 p-4 pt-0 sm:p-5 sm:pt-0">
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
            <button
              type="button"
              className={buttonVariants({ variant: 'link', size: 'inline' })}
              onClick={() => setForgotOpen(true)}
            >
              Mot de passe oublié ?
            </button>
            <button type="button" className={buttonVariants({ variant: 'outline' })} onClick={() => setRegisterOpen(true)}>
              S'enregistrer
            </button>
          </div>
          <Link to="/" className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline">
            Retour à l'accueil
          </Link>
        </div>
      </div>
      {forgotUsed ? (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
        </Suspense>
      ) : null}
      {registerUsed ? (
        <Suspense fallback={null}>
          <RegistrationDialog open={registerOpen} onOpenChange={setRegisterOpen} onRegistered={setRegisteredEmail} />
        </Suspense>
      ) : null}
    </main>
  );
}
