import { Link } from 'react-router';
import { HeartPulse, ShieldCheck, Wrench } from 'lucide-react';
import { paths } from '@/config/paths';
import { usePageMeta } from '@/hooks/use-page-meta';

export function LandingRoute() {
  usePageMeta({ title: 'Accueil', description: 'Participez à la chaîne de survie avec nous : maintenance de défibrillateurs partout en France.' });
  return (
    <main className="flex min-h-dvh flex-col bg-gradient-to-b from-primary-soft to-background">
      <header className="mx-auto flex w-full max-w-5xl items-center gap-2 px-5 py-5">
        <HeartPulse className="size-7 text-primary" aria-hidden="true" />
        <span className="text-xl font-bold tracking-tight">Maillon</span>
      </header>
      <section className="mx-auto flex w-full max-w-5xl flex-1 flex-col justify-center gap-10 px-5 pb-16">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-bold leading-tight tracking-tight sm:text-5xl">Participez à la chaîne de survie avec nous</h1>
          <p className="mt-4 text-base text-muted-foreground sm:text-lg">
            Chaque défibrillateur entretenu est une vie qui peut être sauvée. Trouvez des lots de missions de maintenance près
            de chez vous : l’inscription est gratuite et la formation est offerte.
          </p>
        </div>
        <div>
          <h2 className="mb-4 text-lg font-semibold">Vous êtes?</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <Link
              to={paths.technician.login.getHref()}
              className="group flex items-center gap-4 rounded-lg border bg-card p-5 shadow-xs transition hover:border-primary hover:shadow-md"
            >
              <span className="grid size-12 place-items-center rounded-full bg-primary text-primary-foreground">
                <Wrench className="size-6" aria-hidden="true" />
              </span>
              <span>
                <span className="block text-lg font-semibold">Technicien</span>
                <span className="block text-sm text-muted-foreground">Trouvez des missions, planifiez vos visites, facturez.</span>
              </span>
            </Link>
            <Link
              to={paths.admin.login.getHref()}
              className="group flex items-center gap-4 rounded-lg border bg-card p-5 shadow-xs transition hover:border-primary hover:shadow-md"
            >
              <span className="grid size-12 place-items-center rounded-full bg-foreground text-background">
                <ShieldCheck className="size-6" aria-hidden="true" />
              </span>
              <span>
                <span className="block text-lg font-semibold">Administrateur</span>
                <span className="block text-sm text-muted-foreground">Modérez, organisez les lots, suivez les paiements.</span>
              </span>
            </Link>
          </div>
        </div>
      </section>
    </main>
  );
}
