import { useState } from 'react';
import { CheckCircle2, Download, TriangleAlert } from 'lucide-react';
import { isIsoDay, parisDay } from '@maillon/common/device-rules';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState, Spinner } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { geodaeExportHref, useGeodaeExportCheck } from '../api/check-geodae-export';

/**
 * The Géo'DAE export of the devices maintained in a range: first the check (how many are ready, and what each other
 * one lacks), then the CSV of the ready ones (schema-dae 1.0.8).
 */
export function GeodaeExportDialog({ onClose }: { onClose: () => void }) {
  const today = parisDay();
  const [from, setFrom] = useState(`${today.slice(0, 4)}-01-01`);
  const [to, setTo] = useState(today);
  const valid = isIsoDay(from) && isIsoDay(to) && from <= to;
  const check = useGeodaeExportCheck(valid ? { from, to } : null);
  const data = check.data;

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Export Géo’DAE</DialogTitle>
          <DialogDescription>
            Fichier CSV au schéma national schema-dae 1.0.8 des défibrillateurs dont la dernière maintenance tombe dans la période, à déposer sur Géo’DAE.
          </DialogDescription>
        </DialogHeader>
        <div className="grid grid-cols-2 gap-3">
          <Field id="geodae-from" label="Maintenus du">
            <Input type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
          </Field>
          <Field id="geodae-to" label="au" error={valid ? undefined : 'La date de début doit précéder la date de fin'}>
            <Input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
          </Field>
        </div>
        {!valid ? null : check.isPending ? (
          <Spinner label="Vérification des données…" />
        ) : check.isError ? (
          <ErrorState error={check.error} />
        ) : data ? (
          <div className="grid gap-3">
            <p className="flex items-center gap-2 text-sm" role="status">
              <CheckCircle2 className="size-5 text-success" aria-hidden="true" />
              {data.exportable} défibrillateur{data.exportable > 1 ? 's' : ''} prêt{data.exportable > 1 ? 's' : ''} sur {data.maintained} maintenu{data.maintained > 1 ? 's' : ''} dans la période.
            </p>
            {data.excluded.length > 0 ? (
              <section aria-labelledby="geodae-excluded" className="grid gap-2">
                <h3 id="geodae-excluded" className="flex items-center gap-2 text-sm font-semibold text-warning">
                  <TriangleAlert className="size-4" aria-hidden="true" /> Non exportés : données obligatoires manquantes ({data.excluded.length})
                </h3>
                <ul className="grid max-h-64 gap-1.5 overflow-y-auto rounded-md border bg-background p-2 text-sm">
                  {data.excluded.map((device) => (
                    <li key={device.deviceId} className="grid gap-0.5 rounded px-2 py-1 odd:bg-muted/50">
                      <span>
                        <span className="font-mono font-medium">{device.serialNumber}</span>
                        {device.siteName ? ` · ${device.siteName}` : ''}
                        {device.city ? ` · ${device.city}` : ''}
                      </span>
                      <span className="text-muted-foreground">Manque : {device.missing.join(', ')}</span>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            <div className="flex justify-end">
              {data.exportable > 0 ? (
                <Button asChild>
                  <a href={geodaeExportHref({ from, to })} download>
                    <Download aria-hidden="true" /> Télécharger le CSV Géo’DAE
                  </a>
                </Button>
              ) : (
                <Button disabled>
                  <Download aria-hidden="true" /> Aucun défibrillateur à exporter
                </Button>
              )}
            </div>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
