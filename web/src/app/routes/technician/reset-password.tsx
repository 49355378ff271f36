import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { usePageMeta } from '@/hooks/use-page-meta';

export function ResetPasswordRoute() {
  usePageMeta({ title: 'Nouveau mot de passe' });
  return (
    <main className="grid min-h-dvh place-items-center px-4">
      <div className="grid gap-2 text-center">
        <h1 className="text-xl font-semibold">Nouveau mot de passe</h1>
        <Link to={paths.technician.login.getHref()} className="text-sm text-primary">
          Retour à la connexion
        </Link>
      </div>
    </main>
  );
}
