import { Suspense, use } from 'react';
import { Link, useNavigate } from 'react-router';
import { ShieldCheck } from 'lucide-react';
import { paths } from '@/config/paths';
import { getPublicConfig } from '@/features/auth/api/get-public-config';
import { LoginForm } from '@/features/auth/components/login-form';
import { usePageMeta } from '@/hooks/use-page-meta';

/** The form waits for the public config, which prefills the admin address. */
function AdminLoginForm() {
  const navigate = useNavigate();
  const config = use(getPublicConfig());
  return (
    <LoginForm
      idPrefix="admin-login"
      defaultEmail={config?.adminEmailHint}
      onSuccess={(session) =>
        navigate(session.user.role === 'admin' ? paths.admin.dashboard.getHref() : paths.technician.dashboard.getHref(), {
          replace: true,
        })
      }
    />
  );
}

export function AdminLoginRoute() {
  usePageMeta({ title: 'Connexion administrateur' });
  return (
    <main className="grid min-h-dvh lg:grid-cols-2">
      <section className="flex flex-col justify-center gap-4 bg-primary px-10 py-12 text-primary-foreground">
        <ShieldCheck className="size-12" aria-hidden="true" />
        <h1 className="text-4xl font-bold tracking-tight">Administrateur</h1>
        <p className="text-lg opacity-90">Connectez-vous en tant qu'administrateur.</p>
      </section>
      <section className="flex flex-col justify-center px-6 py-12 sm:px-16">
        <div className="mx-auto grid w-full max-w-sm gap-6">
          <div className="grid gap-1">
            <h2 className="text-2xl font-semibold">Connexion</h2>
            <p className="text-sm text-muted-foreground">Entrez vos identifiants pour continuer.</p>
          </div>
          <Suspense fallback={null}>
            <AdminLoginForm />
          </Suspense>
          <Link to="/" className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline">
            Retour à l'accueil
          </Link>
        </div>
      </section>
    </main>
  );
}
