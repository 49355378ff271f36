import { Download, FileText } from 'lucide-react';
import { formatEuros } from '@maillon/common/format';
import { buttonVariants } from '@/components/ui/button';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { toast } from '@/components/ui/use-toast';
import { annualStatementUrl, useStatementYears } from '../api/get-statement-years';

/** « Relevés annuels des paiements »: one PDF per calendar year the technician was paid in, for its accountant. */
export function StatementsCard({ technicianId }: { technicianId: string }) {
  const years = useStatementYears(technicianId);
  return (
    <section aria-labelledby="revenue-statements-title" className="rounded-lg border bg-card p-4 shadow-xs">
      <h2 id="revenue-statements-title" className="flex items-center gap-2 text-lg font-semibold">
        <FileText aria-hidden="true" className="size-5 text-muted-foreground" /> Relevés annuels des paiements
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">Tous les virements reçus dans l’année, montants HT, à transmettre à votre comptable.</p>
      {years.isPending ? (
        <Skeleton className="mt-3 h-11 w-full" />
      ) : years.isError ? (
        <ErrorState error={years.error} className="mt-3" />
      ) : years.data.length === 0 ? (
        <p className="mt-3 text-sm">Aucun virement reçu pour l’instant : votre premier relevé apparaîtra ici.</p>
      ) : (
        <ul className="mt-3 grid gap-2" aria-label="Relevés annuels">
          {years.data.map((year) => (
            <li key={year.year} className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2">
              <span>
                <span className="font-medium">{year.year}</span>
                <span className="text-sm text-muted-foreground">
                  {' '}
                  · {year.count} {year.count > 1 ? 'paiements' : 'paiement'} · {formatEuros(year.total)} HT
                </span>
              </span>
              <a
                className={buttonVariants({ variant: 'outline', size: 'lg' })}
                href={annualStatementUrl(technicianId, year.year)}
                download
                onClick={() => toast({ title: 'Relevé annuel téléchargé', description: `Année ${year.year} · ${formatEuros(year.total)} HT`, variant: 'success' })}
              >
                <Download aria-hidden="true" /> Relevé {year.year}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
