import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CheckCircle2, Clock, CloudOff, FileDown, Loader2, Save, Tags } from 'lucide-react';
import { SITE_INACCESSIBLE, type VisitOutcome } from '@maillon/common/enums';
import { CHECK_LABELS, CHECK_VALUES, CHECKLIST_ITEMS, formatDay, REPORT_MESSAGES, type CheckValue } from '@maillon/common/device-rules';
import { formatDateTime } from '@maillon/common/format';
import { SHIPMENT_ITEMS } from '@maillon/common/reference-lists';
import type { VisitReport, VisitReportContext } from '@maillon/common/schemas/visit-reports';
import { NetworkRequired } from '@/components/offline/pending-mark';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState, Skeleton } from '@/components/ui/feedback';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { toast, toastError } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/error-message';
import { useLocalChanges, useOnline } from '@/lib/offline/use-queue';
import { useVisitReport, visitReportPath, visitReportQueryKey } from '../api/get-visit-report';
import { reportTarget } from '../api/report-target';
import { useSaveVisitReport } from '../api/save-visit-report';
import { useSaveVisitReportDraft } from '../api/save-visit-report-draft';
import { initialForm, localReport, type LocalReport } from '../lib/local-report';
import { checkForm, toRequest, type ReportForm } from '../lib/report-form';
import { newId } from '../lib/new-id';
import { PhotosField } from './photos-field';
import { ChoiceGroup, ReportSection } from './report-section';
import { SignatureField } from './signature-field';

/** The pause after the last change before the draft is saved on the server. */
const AUTOSAVE_DELAY_MS = 1200;

const OUTCOME_OPTIONS = [
  { value: 'En fonctionnement', label: 'En fonctionnement', tone: 'success' },
  { value: 'Hors service', label: 'Hors service', tone: 'danger' },
  { value: 'Absent momentanément', label: 'Absent momentanément', tone: 'warning' },
  { value: 'Supprimé définitivement', label: 'Supprimé définitivement', tone: 'neutral' },
  { value: 'Inconnu', label: 'Inconnu', tone: 'neutral' },
  { value: SITE_INACCESSIBLE, label: 'Site inaccessible', tone: 'warning' },
] as const satisfies readonly { value: VisitOutcome; label: string; tone: string }[];

const CHECK_OPTIONS = CHECK_VALUES.map((value) => ({ value, label: CHECK_LABELS[value], tone: value === 'ok' ? 'success' : value === 'issue' ? 'warning' : 'neutral' })) as {
  value: CheckValue;
  label: string;
  tone: 'success' | 'warning' | 'neutral';
}[];

type SaveState = 'idle' | 'saving' | 'saved' | 'error';

function AutosaveStatus({ state, savedAt }: { state: SaveState | 'offline'; savedAt: Date | null }) {
  const text =
    state === 'saving'
      ? 'Enregistrement du brouillon…'
      : state === 'saved' && savedAt
        ? `Brouillon enregistré à ${savedAt.toLocaleTimeString('fr-FR', { hour: '2-digit', minute: '2-digit' })}`
        : state === 'offline'
          ? 'Brouillon enregistré sur le téléphone — envoi au retour du réseau'
          : state === 'error'
            ? 'Brouillon non enregistré'
            : '';
  return (
    <p role="status" aria-live="polite" className={cn('flex min-h-5 items-center gap-1.5 text-xs', state === 'offline' || state === 'error' ? 'text-warning' : 'text-muted-foreground')}>
      {state === 'saving' ? <Loader2 className="size-3.5 animate-spin" aria-hidden="true" /> : null}
      {state === 'offline' ? <CloudOff className="size-3.5" aria-hidden="true" /> : null}
      {state === 'saved' ? <CheckCircle2 className="size-3.5 text-success" aria-hidden="true" /> : null}
      {text}
    </p>
  );
}

/** Consumables of the device's brand first: the list holds every brand's parcel items. */
function consumableChoices(model: string | null): { suggested: readonly string[]; others: readonly string[] } {
  const brand = (model ?? '').split(' - ')[0]?.trim().toLowerCase();
  if (!brand) return { suggested: [], others: SHIPMENT_ITEMS };
  const suggested = SHIPMENT_ITEMS.filter((item) => item.toLowerCase().includes(brand));
  return { suggested, others: SHIPMENT_ITEMS.filter((item) => !suggested.includes(item)) };
}

interface ScreenProps {
  missionId: string;
  technicianId: string;
  backHref: string;
}

/** The « Rapport de visite » of one device, full screen on the phone (issue 16). */
export function VisitReportScreen({ missionId, technicianId, backHref }: ScreenProps) {
  const query = useVisitReport(missionId);
  // What this phone typed and took that the server does not have yet (offline queue): shown over the server's data.
  const local = localReport(missionId, useLocalChanges(reportTarget(missionId)));
  // The form owns its values once open: it starts again only for a new saved version or a reload asked for.
  const [reloads, setReloads] = useState(0);
  if (query.isPending) {
    return (
      <div className="grid gap-3 p-4" aria-busy="true">
        <Skeleton className="h-20" />
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
      </div>
    );
  }
  if (query.isError) {
    // A visit this technician no longer has (the lot closed with the device not done, the visit taken out of the lot):
    // the server says only « introuvable », on purpose; this screen knows why that happens.
    const gone = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="grid gap-3 p-4">
        <ErrorState error={query.error} className="grid gap-1">
          {gone ? (
            <>
              <p className="font-medium">Cette visite n’est plus dans vos missions</p>
              <p>L’administrateur a clôturé le lot ou retiré la visite : son rapport ne peut plus être ouvert ni enregistré.</p>
            </>
          ) : null}
        </ErrorState>
        <Button asChild variant="outline" size="lg">
          <Link to={backHref}>
            <ArrowLeft aria-hidden="true" /> Retour à la mission
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <ReportEditor
      key={`${query.data.report?.version ?? 0}:${reloads}`}
      context={query.data}
      local={local}
      missionId={missionId}
      technicianId={technicianId}
      backHref={backHref}
      reload={() => void query.refetch().then(() => setReloads((n) => n + 1))}
    />
  );
}

function ReportEditor({ context, local, missionId, technicianId, backHref, reload }: ScreenProps & { context: VisitReportContext; local: LocalReport; reload: () => void }) {
  const ids = { visitedAt: useId(), observations: useId(), signer: useId(), signature: useId(), reason: useId(), battery: useId(), adult: useId(), pediatric: useId(), outcome: useId(), pediatricPresence: useId() };
  const [reportId] = useState(() => context.report?.id ?? local.reportId ?? newId());
  const [form, setForm] = useState<ReportForm>(() => initialForm(context.report, local, context.partsComing));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The server's reason when it refused the report as a whole (not a field): kept under the button, a toast fades.
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const [savedAt, setSavedAt] = useState<Date | null>(context.report?.draft ? new Date(context.report.draft.updatedAt) : null);
  const [photosBusy, setPhotosBusy] = useState(false);
  const [showAllConsumables, setShowAllConsumables] = useState(false);
  const dirty = useRef(false);
  const queryClient = useQueryClient();
  // The sticky header and « Enregistrer le rapport » stay over the page: a field brought into view (focus, an error
  // scrolled to, the signature pad) stops clear of both instead of under them (WCAG 2.4.11).
  useEffect(() => {
    const root = document.documentElement.style;
    root.scrollPaddingTop = '7rem';
    root.scrollPaddingBottom = '8rem';
    return () => {
      root.scrollPaddingTop = '';
      root.scrollPaddingBottom = '';
    };
  }, []);
  const online = useOnline();
  const saveDraft = useSaveVisitReportDraft();
  const save = useSaveVisitReport();
  const editable = context.editable;
  const report = context.report;
  const saved = report?.status === 'final';
  const title = context.mission.title;

  const update = useCallback((patch: Partial<ReportForm> | ((form: ReportForm) => Partial<ReportForm>)) => {
    dirty.current = true;
    setForm((current) => ({ ...current, ...(typeof patch === 'function' ? patch(current) : patch) }));
  }, []);
  const onPhotos = useCallback((change: (ids: string[]) => string[]) => update((current) => ({ photoIds: change(current.photoIds) })), [update]);

  // Autosave: after a pause in typing the draft joins the offline queue (sent at once when the network is there, else
  // kept on the phone); a newer draft replaces one that has not left, and the device's scope keeps them in order.
  useEffect(() => {
    if (!editable || !dirty.current) return undefined;
    const timer = setTimeout(() => {
      // The complete report was sent meanwhile: nothing left to save as a draft.
      if (!dirty.current) return;
      dirty.current = false;
      setSaveState('saving');
      saveDraft.send({ missionId, title, draft: toRequest(reportId, form) }).then(
        (answer) => {
          setSaveState('saved');
          setSavedAt(new Date((answer as VisitReport).draft?.updatedAt ?? Date.now()));
        },
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 409 && error.fields?.id) {
            toast({ title: 'Un autre brouillon existe pour cette visite', description: 'Il a été commencé sur un autre appareil : il est rechargé.' });
            reload();
          } else {
            setSaveState('error');
            toastError('Brouillon non enregistré', error);
          }
        },
      );
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form, editable, missionId, reportId]); // eslint-disable-line react-hooks/exhaustive-deps

  const submit = async () => {
    const found = checkForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      toast({ title: 'Rapport incomplet', description: Object.values(found)[0], variant: 'destructive' });
      // Once the errors are on screen: open the first faulty section and bring it into view.
      window.setTimeout(() => {
        const first = document.querySelector('[aria-invalid="true"], [data-error="true"]');
        first?.closest('details')?.setAttribute('open', '');
        (first as HTMLElement | null)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      }, 0);
      return;
    }
    if (photosBusy) {
      toast({ title: 'Photos en préparation', description: 'Enregistrez le rapport quand les photos sont prêtes.' });
      return;
    }
    dirty.current = false;
    setErrors({});
    setRefusal(null);
    setSaveState('idle');
    // Queued after the device's drafts and photos: sent now, or kept on the phone until the network is back.
    const sent = save.send({ missionId, technicianId, title, report: toRequest(reportId, form) });
    if (!online) {
      toast({ title: 'Rapport enregistré sur le téléphone', description: 'Il sera envoyé au retour du réseau.' });
      window.scrollTo({ top: 0, behavior: 'smooth' });
    }
    try {
      const result = (await sent) as VisitReportContext;
      queryClient.setQueryData(visitReportQueryKey(missionId), result);
      const outcome = result.report?.outcome;
      toast({
        title: online ? 'Rapport enregistré' : 'Rapport envoyé',
        description: outcome === SITE_INACCESSIBLE ? 'Visite notée : site inaccessible.' : 'Le défibrillateur est marqué Effectué.',
        variant: 'success',
      });
      window.scrollTo({ top: 0, behavior: 'smooth' });
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      else setRefusal(errorMessage(error, 'Le serveur a refusé ce rapport'));
      toastError('Rapport non enregistré', error);
    }
  };

  const checkedOutcome = form.outcome === 'En fonctionnement' || form.outcome === 'Hors service';
  const checklistDone = checkedOutcome ? CHECKLIST_ITEMS.every((item) => form.checklist[item.key]) : true;
  const { suggested, others } = consumableChoices(context.mission.defibrillatorModel);
  const device = context.device;
  const signed = !form.cannotSign && Boolean(form.signature);
  const shownSaveState = !online && (saveState === 'saving' || local.waiting) ? 'offline' : saveState;
  const sending = online && local.finalWaiting;
  const stateOf = (keys: string[], done: boolean) => (keys.some((k) => errors[k]) ? 'error' : done ? 'done' : 'todo');

  return (
    <div className="mx-auto grid min-h-dvh max-w-2xl grid-cols-[minmax(0,1fr)] grid-rows-[auto_1fr_auto] bg-background">
      <header className="sticky top-0 z-10 grid grid-cols-[minmax(0,1fr)] gap-1 border-b bg-card px-4 py-3 shadow-xs">
        <div className="flex items-center gap-2">
          <Button asChild variant="ghost" size="icon" className="size-11 shrink-0">
            <Link to={backHref} aria-label="Retour à la mission">
              <ArrowLeft aria-hidden="true" />
            </Link>
          </Button>
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-lg font-bold leading-tight">Rapport de visite</h1>
            <p className="truncate text-sm text-muted-foreground">
              {context.mission.defibrillatorModel || 'Modèle non spécifié'} · N° {context.mission.serialNumber || 'non renseigné'}
            </p>
          </div>
          {local.finalWaiting ? <Badge variant="warning">En attente d’envoi</Badge> : saved ? <Badge variant="success">Version {report!.version}</Badge> : <Badge variant="warning">Brouillon</Badge>}
        </div>
        {editable && !local.finalWaiting ? <AutosaveStatus state={shownSaveState} savedAt={savedAt} /> : null}
      </header>

      <main className="grid grid-cols-[minmax(0,1fr)] content-start gap-3 px-3 py-4">
        <div className="grid gap-1 px-1">
          <p className="font-semibold leading-snug">{context.mission.clientName || context.mission.title}</p>
          {context.mission.location ? <p className="text-sm text-muted-foreground">{context.mission.location}</p> : null}
          <p className="text-sm text-muted-foreground">Lot : {context.lot.title}</p>
          {editable && online ? (
            <a className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline" href={`/api/mission-batches/${context.lot.id}/labels`} download>
              <Tags className="size-4" aria-hidden="true" /> Étiquettes de maintenance du lot (PDF)
            </a>
          ) : null}
        </div>

        {local.finalWaiting ? (
          <section aria-label="Rapport en attente d’envoi" aria-live="polite" className="grid gap-1 rounded-lg border border-warning/40 bg-warning-soft p-4">
            <p className="flex items-center gap-2 font-semibold text-warning">
              {sending ? <Loader2 className="size-5 animate-spin" aria-hidden="true" /> : <Clock className="size-5" aria-hidden="true" />}
              {sending ? 'Envoi du rapport…' : 'Rapport enregistré sur le téléphone — il sera envoyé au retour du réseau'}
            </p>
            <p className="text-sm">
              {form.outcome === SITE_INACCESSIBLE ? 'Visite notée : site inaccessible.' : 'Le défibrillateur est marqué Effectué sur ce téléphone.'} Ne vous déconnectez pas
              avant l’envoi.
            </p>
          </section>
        ) : null}

        {saved ? (
          <section aria-label="Rapport enregistré" className="grid gap-2 rounded-lg border border-success/40 bg-success-soft/60 p-4">
            <p className="flex items-center gap-2 font-semibold text-success">
              <CheckCircle2 className="size-5" aria-hidden="true" /> Rapport enregistré (version {report!.version})
            </p>
            <p className="text-sm">
              {report!.outcome === SITE_INACCESSIBLE ? 'Site inaccessible' : context.isCompleted ? 'Défibrillateur Effectué' : 'Défibrillateur À faire'} · le{' '}
              {formatDateTime(report!.finalizedAt)}
            </p>
            {online ? (
              <Button asChild size="lg" variant="outline">
                <a href={visitReportPath(missionId, '/pdf')} download>
                  <FileDown aria-hidden="true" /> Télécharger le PV
                </a>
              </Button>
            ) : (
              <>
                <Button size="lg" variant="outline" disabled>
                  <FileDown aria-hidden="true" /> Télécharger le PV
                </Button>
                <NetworkRequired>Connexion requise pour télécharger le PV : disponible dès le retour du réseau</NetworkRequired>
              </>
            )}
            {report!.draft && editable ? <p className="text-sm text-warning">Des modifications non enregistrées sont en cours : enregistrez le rapport pour créer une nouvelle version.</p> : null}
          </section>
        ) : null}
        {!editable ? (
          <p className="rounded-md bg-info-soft px-3 py-2 text-sm text-info" role="note">
            Ce lot n’est plus en cours : le rapport se consulte sans modification.
          </p>
        ) : null}

        <ReportSection id="section-outcome" title="Résultat de la visite" summary={form.outcome ?? 'À indiquer'} state={stateOf(['outcome', 'visitedAt'], Boolean(form.outcome))}>
          <ChoiceGroup label="État constaté" labelId={ids.outcome} options={OUTCOME_OPTIONS} value={form.outcome} onChange={(outcome) => update({ outcome })} disabled={!editable} columns={2} error={errors.outcome} />
          <Field id={ids.visitedAt} label="Date et heure de la visite" error={errors.visitedAt}>
            <Input type="datetime-local" value={form.visitedAt} onChange={(e) => update({ visitedAt: e.target.value })} disabled={!editable} className="h-12" />
          </Field>
        </ReportSection>

        {form.outcome !== SITE_INACCESSIBLE ? (
          <ReportSection
            id="section-checklist"
            title="Liste de contrôle"
            summary={`${CHECKLIST_ITEMS.filter((item) => form.checklist[item.key]).length} / ${CHECKLIST_ITEMS.length} points`}
            state={stateOf(['checklist'], checklistDone && Object.keys(form.checklist).length > 0)}
          >
            {errors.checklist ? (
              <p role="alert" data-error="true" className="text-sm text-destructive">
                {errors.checklist}
              </p>
            ) : null}
            {CHECKLIST_ITEMS.map((item) => (
              <ChoiceGroup
                key={item.key}
                label={item.label}
                labelId={`check-${item.key}`}
                options={CHECK_OPTIONS}
                value={form.checklist[item.key] ?? null}
                onChange={(value) => update((current) => ({ checklist: { ...current.checklist, [item.key]: value } }))}
                disabled={!editable}
              />
            ))}
          </ReportSection>
        ) : null}

        {form.outcome !== SITE_INACCESSIBLE ? (
          <ReportSection
            id="section-consumables"
            title="Consommables"
            summary={form.consumablesReplaced.length ? `${form.consumablesReplaced.length} remplacé(s)` : 'Dates de péremption relevées'}
            state={stateOf(['batteryExpiry', 'adultPadsExpiry', 'pediatricPadsExpiry', 'pediatricPadsPresent'], Boolean(form.batteryExpiry && form.adultPadsExpiry && form.pediatricPadsPresent !== null))}
          >
            <p className="text-sm text-muted-foreground">Relevez les dates sur les consommables en place (après remplacement s’il y en a eu).</p>
            <Field id={ids.battery} label="Péremption de la batterie" error={errors.batteryExpiry} hint={device?.batteryExpiry ? `Registre : ${formatDay(device.batteryExpiry)}` : undefined}>
              <Input type="date" value={form.batteryExpiry} onChange={(e) => update({ batteryExpiry: e.target.value })} disabled={!editable} className="h-12" />
            </Field>
            <Field id={ids.adult} label="Péremption des électrodes adultes" error={errors.adultPadsExpiry} hint={device?.adultPadsExpiry ? `Registre : ${formatDay(device.adultPadsExpiry)}` : undefined}>
              <Input type="date" value={form.adultPadsExpiry} onChange={(e) => update({ adultPadsExpiry: e.target.value })} disabled={!editable} className="h-12" />
            </Field>
            <ChoiceGroup
              label="Électrodes pédiatriques présentes ?"
              labelId={ids.pediatricPresence}
              options={[
                { value: 'yes', label: 'Oui', tone: 'neutral' },
                { value: 'no', label: 'Non', tone: 'neutral' },
              ]}
              value={form.pediatricPadsPresent === null ? null : form.pediatricPadsPresent ? 'yes' : 'no'}
              onChange={(value) => update({ pediatricPadsPresent: value === 'yes' })}
              disabled={!editable}
              columns={2}
              error={errors.pediatricPadsPresent}
            />
            {form.pediatricPadsPresent ? (
              <Field id={ids.pediatric} label="Péremption des électrodes pédiatriques" error={errors.pediatricPadsExpiry} hint={device?.pediatricPadsExpiry ? `Registre : ${formatDay(device.pediatricPadsExpiry)}` : undefined}>
                <Input type="date" value={form.pediatricPadsExpiry} onChange={(e) => update({ pediatricPadsExpiry: e.target.value })} disabled={!editable} className="h-12" />
              </Field>
            ) : null}
            <fieldset className="grid gap-1">
              <legend className="mb-1 text-sm font-medium">Consommables remplacés</legend>
              {[...suggested, ...(showAllConsumables || suggested.length === 0 ? others : others.filter((item) => form.consumablesReplaced.includes(item)))].map((item) => {
                const checked = form.consumablesReplaced.includes(item);
                return (
                  <label key={item} className="flex min-h-12 cursor-pointer items-center gap-3 rounded-md border bg-background px-3 py-2 text-sm">
                    <input
                      type="checkbox"
                      className="size-5 shrink-0 accent-[var(--color-primary)]"
                      checked={checked}
                      disabled={!editable}
                      onChange={(e) =>
                        update((current) => ({
                          consumablesReplaced: e.target.checked ? [...current.consumablesReplaced, item] : current.consumablesReplaced.filter((x) => x !== item),
                        }))
                      }
                    />
                    <span>{item}</span>
                  </label>
                );
              })}
              {suggested.length > 0 ? (
                <Button type="button" variant="link" className="justify-start px-0" onClick={() => setShowAllConsumables((v) => !v)}>
                  {showAllConsumables ? 'Afficher seulement la marque de l’appareil' : 'Afficher tous les articles'}
                </Button>
              ) : null}
            </fieldset>
          </ReportSection>
        ) : null}

        <ReportSection id="section-photos" title="Photos" summary={`${form.photoIds.length} / 6`} state={form.photoIds.length > 0 ? 'done' : 'optional'} defaultOpen={editable || form.photoIds.length > 0}>
          <PhotosField missionId={missionId} title={title} reportId={reportId} photoIds={form.photoIds} localPhotos={local.photos} onChange={onPhotos} onBusyChange={setPhotosBusy} disabled={!editable} />
          {errors.photoIds ? (
            <p role="alert" className="text-sm text-destructive">
              {errors.photoIds}
            </p>
          ) : null}
        </ReportSection>

        <ReportSection id="section-observations" title="Observations" summary={form.observations ? form.observations.slice(0, 60) : 'Facultatif, sauf hors service'} state={stateOf(['observations'], Boolean(form.observations.trim()))}>
          <Field id={ids.observations} label="Observations" error={errors.observations}>
            <Textarea rows={5} value={form.observations} onChange={(e) => update({ observations: e.target.value })} disabled={!editable} maxLength={4000} placeholder="Anomalies, interventions, conseils au site…" />
          </Field>
        </ReportSection>

        {form.outcome !== SITE_INACCESSIBLE ? (
          <ReportSection
            id="section-signature"
            title="Signature du contact sur site"
            summary={signed ? form.signerName || 'Signé' : form.cannotSign ? 'Signature impossible' : 'À recueillir'}
            state={stateOf(['signature', 'signerName'], signed ? Boolean(form.signerName.trim()) : form.cannotSign && Boolean(form.unsignedReason.trim()))}
          >
            {!form.cannotSign ? (
              <>
                <Field id={ids.signer} label="Nom du contact qui signe" error={errors.signerName}>
                  <Input value={form.signerName} onChange={(e) => update({ signerName: e.target.value })} disabled={!editable} autoComplete="off" className="h-12" maxLength={120} />
                </Field>
                <div className="grid gap-1.5" data-error={errors.signature ? 'true' : undefined}>
                  <span id={ids.signature} className="text-sm font-medium">
                    Signature
                  </span>
                  <SignatureField value={form.signature} onChange={(signature, signedAt) => update({ signature, signedAt })} disabled={!editable} labelledBy={ids.signature} />
                </div>
              </>
            ) : (
              <Field id={ids.reason} label="Pourquoi la signature n’a pas pu être recueillie ?" error={errors.signature}>
                <Textarea rows={3} value={form.unsignedReason} onChange={(e) => update({ unsignedReason: e.target.value })} disabled={!editable} maxLength={300} />
              </Field>
            )}
            {errors.signature && !form.cannotSign ? (
              <p role="alert" className="text-sm text-destructive">
                {errors.signature}
              </p>
            ) : null}
            {editable ? (
              <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-md border bg-background px-3 py-2 text-sm">
                <input type="checkbox" className="size-5 accent-[var(--color-primary)]" checked={form.cannotSign} onChange={(e) => update({ cannotSign: e.target.checked })} />
                Signature impossible (personne sur place, refus…)
              </label>
            ) : null}
          </ReportSection>
        ) : null}
      </main>

      {editable ? (
        <footer className="sticky bottom-0 z-10 grid gap-1 border-t bg-card/95 px-3 py-3 backdrop-blur">
          <Button size="lg" className="h-14 w-full text-base" onClick={() => void submit()} loading={sending} disabled={photosBusy}>
            <Save aria-hidden="true" /> Enregistrer le rapport
          </Button>
          {photosBusy ? <p className="text-center text-xs text-muted-foreground">Préparation des photos…</p> : null}
          {Object.keys(errors).length > 0 ? (
            <p className="text-center text-xs text-destructive" role="alert">
              {Object.keys(errors).length === 1 ? '1 point à corriger' : `${Object.keys(errors).length} points à corriger`} : {Object.values(errors)[0] ?? REPORT_MESSAGES.outcomeRequired}
            </p>
          ) : refusal ? (
            <p className="text-center text-xs text-destructive" role="alert">
              Rapport non enregistré : {refusal}
            </p>
          ) : null}
        </footer>
      ) : null}
    </div>
  );
}
