import { useState, type ReactNode } from 'react';
import { Download, FileSpreadsheet, FileText } from 'lucide-react';
import type { TechnicianOption } from '@maillon/common/schemas/money';
import { TechnicianPicker } from '@/components/forms/technician-picker';
import { PageHeader } from '@/components/layout/dashboard-shell';
import { buttonVariants } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { accountingExportUrl, annualStatementUrl } from '../api/links';

const currentYear = () => Number(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric' }).format(new Date()));
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** « Relevés & comptabilité »: a technician's yearly statement, and the payments of a period for the accounting. */
export function StatementsPanel({ toolbar }: { toolbar?: ReactNode }) {
  const [technician, setTechnician] = useState<TechnicianOption | null>(null);
  const technicianId = technician?.id ?? '';
  const [year, setYear] = useState(currentYear);
  const [from, setFrom] = useState(() => `${currentYear()}-01-01`);
  const [to, setTo] = useState(today);
  const years = Array.from({ length: 6 }, (_, i) => currentYear() - i);
  const periodError = from && to && from > to ? 'La date de début doit précéder la date de fin' : undefined;

  return (
    <section>
      <PageHeader title="Factures & virements" description="Relevés de paiements par technicien et export comptable des virements effectués. Montants hors taxes." />
      {toolbar}
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="statement-title" className="rounded-lg border bg-card p-4 shadow-xs">
          <h2 id="statement-title" className="flex items-center gap-2 text-lg font-semibold">
            <FileText aria-hidden="true" className="size-5 text-muted-foreground" /> Relevé annuel des paiements
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">Le PDF que le technicien télécharge aussi dans « Revenus & Virements » : virements effectués de l’année, total HT.</p>
          <div className="mt-4 grid gap-3 sm:grid-cols-[1fr_8rem]">
            <Field id="statement-technician" label="Technicien">
              <TechnicianPicker source="invoices" value={technicianId} onChange={setTechnician} placeholder="Choisir un technicien" />
            </Field>
            <Field id="statement-year" label="Année">
              <NativeSelect value={String(year)} onChange={(e) => setYear(Number(e.target.value))}>
                {years.map((y) => (
                  <option key={y} value={y}>
                    {y}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <a
            className={cn(buttonVariants({ variant: 'outline' }), 'mt-4', !technicianId && 'pointer-events-none opacity-60')}
            aria-disabled={!technicianId}
            href={technicianId ? annualStatementUrl(technicianId, year) : undefined}
            download
            onClick={() => toast({ title: 'Relevé annuel téléchargé', description: `${technician?.name ?? ''} · ${year}`, variant: 'success' })}
          >
            <Download aria-hidden="true" /> Télécharger le relevé
          </a>
        </section>

        <section aria-labelledby="accounting-title" className="rounded-lg border bg-card p-4 shadow-xs">
          <h2 id="accounting-title" className="flex items-center gap-2 text-lg font-semibold">
            <FileSpreadsheet aria-hidden="true" className="size-5 text-muted-foreground" /> Export comptable des paiements
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            Journal de banque au format des colonnes FEC : chaque virement débite le compte fournisseur 401 du technicien et crédite la banque 512.
          </p>
          <div className="mt-4 grid gap-3 sm:grid-cols-2">
            <Field id="accounting-from" label="Du">
              <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
            </Field>
            <Field id="accounting-to" label="Au" error={periodError}>
              <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
            </Field>
          </div>
          <a
            className={cn(buttonVariants({ variant: 'outline' }), 'mt-4', (periodError || !from || !to) && 'pointer-events-none opacity-60')}
            aria-disabled={Boolean(periodError || !from || !to)}
            href={periodError || !from || !to ? undefined : accountingExportUrl(from, to)}
            download
            onClick={() => toast({ title: 'Export comptable téléchargé', description: `Paiements du ${from.split('-').reverse().join('/')} au ${to.split('-').reverse().join('/')}`, variant: 'success' })}
          >
            <Download aria-hidden="true" /> Exporter les paiements (CSV)
          </a>
        </section>
      </div>
    </section>
  );
}
