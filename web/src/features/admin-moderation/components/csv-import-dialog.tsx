import { useState } from 'react';
import { CheckCircle2, FileWarning } from 'lucide-react';
import type { CsvImportResponse } from '@maillon/common/schemas/moderation';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { useImportJobsCsv } from '../api/import-jobs-csv';

const FIELD_LABELS: Record<string, string> = {
  serialNumber: 'Numéro de série',
  clientName: 'Dénomination client',
  defibrillatorModel: 'Modèle',
  visitType: 'Type de visite',
  department: 'Département',
  address: 'Adresse',
  completionLink: 'Lien de complétion',
  telSite: 'Téléphone',
  emailSite: 'Email',
  observations: 'Observations',
  postalCode: 'Code postal',
  city: 'Ville',
  latitude: 'Latitude',
  longitude: 'Longitude',
};

/** CSV import into moderation: a preview with per-row errors, then an all-or-nothing import. */
export function CsvImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-4xl">
        <DialogHeader>
          <DialogTitle>Importer des visites (CSV)</DialogTitle>
          <DialogDescription>
            Colonnes attendues : numéro de série, dénomination client, modèle défibrillateur, type de visite, département, adresse postale,
            lien de complétion ; facultatives : téléphone site, email site, observations, code postal, ville, latitude, longitude. Séparateur
            « ; » ou « , ».
          </DialogDescription>
        </DialogHeader>
        {open ? <CsvImportForm onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CsvImportForm({ onDone }: { onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CsvImportResponse | null>(null);
  const importCsv = useImportJobsCsv();
  const toCreate = preview ? preview.valid - preview.duplicates : 0;

  const runPreview = async () => {
    if (!file) return;
    try {
      setPreview(await importCsv.mutateAsync({ file, mode: 'preview' }));
    } catch (error) {
      setPreview(null);
      toastError("Erreur lors de l'import", error);
    }
  };

  const commit = async () => {
    if (!file) return;
    try {
      const result = await importCsv.mutateAsync({ file, mode: 'commit' });
      toast({
        title: 'Import terminé',
        description: `${result.created} visite${result.created > 1 ? 's' : ''} ajoutée${result.created > 1 ? 's' : ''} à la modération`,
        variant: 'success',
      });
      onDone();
    } catch (error) {
      toastError("Erreur lors de l'import", error);
    }
  };

  return (
    <div className="grid gap-4">
      <Field id="csv-file" label="Fichier CSV" hint="10 Mo maximum, 2000 lignes">
        <Input
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setPreview(null);
          }}
        />
      </Field>

      {preview ? (
        <section aria-label="Prévisualisation" className="grid gap-3">
          <p className="text-sm">
            <strong>{preview.total}</strong> ligne{preview.total > 1 ? 's' : ''} · <span className="text-success">{preview.valid} valide{preview.valid > 1 ? 's' : ''}</span>
            {' · '}
            <span className={preview.invalid ? 'text-destructive' : ''}>
              {preview.invalid} en erreur
            </span>
            {' · '}
            {preview.duplicates} déjà à modérer
          </p>
          <div className="max-h-80 overflow-auto rounded-md border">
            <table className="w-full text-left text-sm">
              <thead className="sticky top-0 bg-muted text-xs uppercase text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2">Ligne</th>
                  <th scope="col" className="px-3 py-2">Numéro de série</th>
                  <th scope="col" className="px-3 py-2">Client</th>
                  <th scope="col" className="px-3 py-2">Résultat</th>
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row) => {
                  const errors = Object.entries(row.errors);
                  return (
                    <tr key={row.line} className="border-t align-top">
                      <td className="px-3 py-2 tabular-nums">{row.line}</td>
                      <td className="px-3 py-2">{row.serialNumber || '—'}</td>
                      <td className="px-3 py-2">{row.clientName || '—'}</td>
                      <td className="px-3 py-2">
                        {errors.length ? (
                          <ul className="grid gap-0.5 text-destructive">
                            {errors.map(([field, message]) => (
                              <li key={field}>
                                {FIELD_LABELS[field] ?? field} : {message}
                              </li>
                            ))}
                          </ul>
                        ) : row.duplicate ? (
                          <Badge variant="warning">Déjà à modérer</Badge>
                        ) : (
                          <Badge variant="success">Prête</Badge>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {preview.invalid > 0 ? (
            <p className="flex items-center gap-2 text-sm text-destructive">
              <FileWarning className="size-4" aria-hidden="true" /> Corrigez les lignes en erreur puis prévisualisez à nouveau : rien ne sera importé
              tant que le fichier contient des erreurs.
            </p>
          ) : (
            <p className="flex items-center gap-2 text-sm text-success">
              <CheckCircle2 className="size-4" aria-hidden="true" /> {toCreate} visite{toCreate > 1 ? 's' : ''} à importer.
            </p>
          )}
        </section>
      ) : null}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Annuler
        </Button>
        <Button type="button" variant="outline" disabled={!file} loading={importCsv.isPending && !preview} onClick={runPreview}>
          Prévisualiser
        </Button>
        <Button type="button" disabled={!preview || preview.invalid > 0 || toCreate === 0} loading={importCsv.isPending && Boolean(preview)} onClick={commit}>
          Importer
        </Button>
      </DialogFooter>
    </div>
  );
}
