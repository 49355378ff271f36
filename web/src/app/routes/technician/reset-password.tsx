import { lazy, Suspense } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { HeartPulse } from 'lucide-react';
import { PlainSpinner } from '@/components/ui/plain-spinner';
import { paths } from '@/config/paths';
import { usePageMeta } from '@/hooks/use-page-meta';

// As on the register page, the form (react-hook-form, zod) streams in after the page's heading and text (decision 017);
// the card is written with Card's classes so that the page loads no tailwind-merge.
const ResetPasswordForm = lazy(() =>
  import('@/features/onboarding/components/reset-password-form').then((m) => ({ default: m.ResetPasswordForm })),
);

export function ResetPasswordRoute() {
  usePageMeta({ title: 'Nouveau mot de passe' });
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-primary-soft to-background px-4 py-8">
      <Link to="/" className="mb-6 flex items-center gap-2 text-xl font-bold">
        <HeartPulse className="size-7 text-primary" aria-hidden="true" /> Maillon
      </Link>
      <div className="w-full max-w-md rounded-lg border bg-card text-card-foreground shadow-xs">
        <div className="flex flex-col gap-1.5 p-4 sm:p-5">
          <h1 className="text-xl font-semibold leading-tight">Nouveau mot de passe</h1>
          <p className="text-sm text-muted-foreground">Choisissez le nouveau mot de passe de votre compte technicien.</p>
        </div>
        <div className="grid gap-4 p-4 pt-0 sm:p-5 sm:pt-0">
          {token ? (
            <Suspense fallback={<PlainSpinner />}>
              <ResetPasswordForm token={token} onSuccess={() => navigate(paths.technician.login.getHref(), { replace: true })} />
            </Suspense>
          ) : (
            <div role="alert" className="rounded-lg border border-destructive/30 bg-primary-soft px-4 py-3 text-sm text-destructive">
              Ce lien de réinitialisation est incomplet. Ouvrez le lien reçu par email, ou demandez-en un nouveau depuis la page de connexion
              (« Mot de passe oublié ? »).
            </div>
          )}
          <Link to={paths.technician.login.getHref()} className="text-center text-sm text-primary underline-offset-4 hover:underline">
            Retour à la connexion
          </Link>
        </div>
      </div>
    </main>
  );
}
