import { Link, useNavigate, useSearchParams } from 'react-router';
import { HeartPulse } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { ResetPasswordForm } from '@/features/onboarding/components/reset-password-form';
import { usePageMeta } from '@/hooks/use-page-meta';

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
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-xl font-semibold leading-tight">Nouveau mot de passe</h1>
          <CardDescription>Choisissez le nouveau mot de passe de votre compte technicien.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {token ? (
            <ResetPasswordForm token={token} onSuccess={() => navigate(paths.technician.login.getHref(), { replace: true })} />
          ) : (
            <div role="alert" className="rounded-lg border border-destructive/30 bg-primary-soft px-4 py-3 text-sm text-destructive">
              Ce lien de réinitialisation est incomplet. Ouvrez le lien reçu par email, ou demandez-en un nouveau depuis la page de connexion
              (« Mot de passe oublié ? »).
            </div>
          )}
          <Link to={paths.technician.login.getHref()} className="text-center text-sm text-primary underline-offset-4 hover:underline">
            Retour à la connexion
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}
