import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ArrowLeft, HeartPulse } from 'lucide-react';
import { paths } from '@/config/paths';
import { PlainSpinner } from '@/components/ui/plain-spinner';
import { RegistrationSuccess } from '@/features/onboarding/components/registration-success';
import { usePageMeta } from '@/hooks/use-page-meta';

// The form (react-hook-form, zod, Radix checkbox and dialog) streams in after the page's heading and text.
const RegistrationForm = lazy(() =>
  import('@/features/onboarding/components/registration-form').then((m) => ({ default: m.RegistrationForm })),
);

/** Spec §9: the page goes back to the login 2 s after a successful registration. */
const REDIRECT_AFTER_REGISTRATION_MS = 2000;

export function TechnicianRegisterRoute() {
  usePageMeta({ title: 'Inscription technicien' });
  const navigate = useNavigate();
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  useEffect(() => {
    if (!registeredEmail) return;
    const timer = setTimeout(() => navigate(paths.technician.login.getHref(), { replace: true }), REDIRECT_AFTER_REGISTRATION_MS);
    return () => clearTimeout(timer);
  }, [registeredEmail, navigate]);

  return (
    <main className="min-h-dvh bg-gradient-to-b from-primary-soft to-background px-4 py-6 sm:py-10">
      <div className="mx-auto grid w-full max-w-2xl gap-5">
        <div className="flex items-center justify-between gap-3">
          <Link to="/" className="flex items-center gap-2 text-xl font-bold">
            <HeartPulse className="size-7 text-primary" aria-hidden="true" /> Maillon
          </Link>
          <Link
            to={paths.technician.login.getHref()}
            className="inline-flex h-10 items-center gap-1 rounded-md px-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            <ArrowLeft className="size-4" aria-hidden="true" /> Annuler
          </Link>
        </div>
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold tracking-tight">Inscription technicien</h1>
          <p className="text-sm text-muted-foreground">
            Créez votre compte gratuitement. Les champs marqués d'une astérisque (*) sont obligatoires.
          </p>
        </div>
        {registeredEmail ? (
          <div className="rounded-lg border bg-card p-5">
            <RegistrationSuccess email={registeredEmail}>
              <p className="text-sm text-muted-foreground">Redirection vers la page de connexion…</p>
            </RegistrationSuccess>
          </div>
        ) : (
          <Suspense fallback={<PlainSpinner />}>
            <RegistrationForm idPrefix="register-page" onSuccess={setRegisteredEmail} />
          </Suspense>
        )}
        {!registeredEmail ? (
          <p className="pb-4 text-center text-sm text-muted-foreground">
            Déjà inscrit ?{' '}
            <Link to={paths.technician.login.getHref()} className="font-medium text-primary underline-offset-4 hover:underline">
              Se connecter
            </Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}
