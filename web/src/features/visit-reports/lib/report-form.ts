import type { VisitOutcome } from '@maillon/common/enums';
import { checkCompleteReport, type ChecklistKey, type CheckValue } from '@maillon/common/device-rules';
import type { ReportValuesInput, VisitReport } from '@maillon/common/schemas/visit-reports';

/** What the report screen edits (the form), kept as the server's draft on every pause in typing. */
export interface ReportForm {
  /** datetime-local value (France's time on the phone): "2026-05-12T10:30". */
  visitedAt: string;
  outcome: VisitOutcome | null;
  checklist: Partial<Record<ChecklistKey, CheckValue>>;
  batteryExpiry: string;
  adultPadsExpiry: string;
  pediatricPadsPresent: boolean | null;
  pediatricPadsExpiry: string;
  consumablesReplaced: string[];
  observations: string;
  signerName: string;
  signedAt: string | null;
  /** base64 PNG of the drawn signature (without the data: prefix). */
  signature: string | null;
  cannotSign: boolean;
  unsignedReason: string;
  photoIds: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the value of a datetime-local input, in the phone's time. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value back to an ISO instant (null when empty or invalid). */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function emptyForm(now: Date = new Date()): ReportForm {
  return {
    visitedAt: toLocalInput(now),
    outcome: null,
    checklist: {},
    batteryExpiry: '',
    adultPadsExpiry: '',
    pediatricPadsPresent: null,
    pediatricPadsExpiry: '',
    consumablesReplaced: [],
    observations: '',
    signerName: '',
    signedAt: null,
    signature: null,
    cannotSign: false,
    unsignedReason: '',
    photoIds: [],
  };
}

type Values = Partial<Omit<ReportValuesInput, 'checklist'>> & { checklist?: Record<string, string | null | undefined> };

/** The form from report values (a server draft, a saved report or a request waiting on the phone) and its photos. */
export function fromValues(values: Values, photos: string[]): ReportForm {
  const base = emptyForm();
  return {
    visitedAt: values.visitedAt ? toLocalInput(new Date(values.visitedAt)) : base.visitedAt,
    outcome: (values.outcome as VisitOutcome | null | undefined) ?? null,
    checklist: (values.checklist ?? {}) as ReportForm['checklist'],
    batteryExpiry: values.batteryExpiry ?? '',
    adultPadsExpiry: values.adultPadsExpiry ?? '',
    pediatricPadsPresent: values.pediatricPadsPresent ?? null,
    pediatricPadsExpiry: values.pediatricPadsExpiry ?? '',
    consumablesReplaced: values.consumablesReplaced ?? [],
    observations: values.observations ?? '',
    signerName: values.signerName ?? '',
    signedAt: values.signedAt ?? null,
    signature: values.signature ?? null,
    cannotSign: !values.signature && Boolean(values.unsignedReason),
    unsignedReason: values.unsignedReason ?? '',
    photoIds: photos,
  };
}

/**
 * The form from the server: the draft being typed if any, else the saved report, else an empty form whose « consommables
 * remplacés » start from the parts sent for this device (issue 20).
 */
export function formFromReport(report: VisitReport | null, partsComing: readonly string[] = []): ReportForm {
  if (!report) return { ...emptyForm(), consumablesReplaced: [...partsComing] };
  const saved = report.photos.map((photo) => photo.id);
  if (report.draft) {
    const ordered = report.draft.values.photoIds.filter((id) => saved.includes(id));
    // Photos sent after the draft's last save are kept too.
    return fromValues(report.draft.values, [...ordered, ...saved.filter((id) => !ordered.includes(id))]);
  }
  if (report.status === 'final') return fromValues(report, saved);
  return { ...emptyForm(), consumablesReplaced: [...partsComing], photoIds: saved };
}

/** The request body of a draft or of the complete report. */
export function toRequest(id: string, form: ReportForm): ReportValuesInput & { id: string } {
  const signed = !form.cannotSign && Boolean(form.signature);
  return {
    id,
    visitedAt: fromLocalInput(form.visitedAt),
    outcome: form.outcome,
    checklist: form.checklist,
    batteryExpiry: form.batteryExpiry || null,
    adultPadsExpiry: form.adultPadsExpiry || null,
    pediatricPadsPresent: form.pediatricPadsPresent,
    pediatricPadsExpiry: form.pediatricPadsPresent ? form.pediatricPadsExpiry || null : null,
    consumablesReplaced: form.consumablesReplaced,
    observations: form.observations.trim() || null,
    signerName: signed ? form.signerName.trim() || null : null,
    signedAt: signed ? form.signedAt : null,
    signature: signed ? form.signature : null,
    unsignedReason: signed ? null : form.unsignedReason.trim() || null,
    photoIds: form.photoIds,
  };
}

/** The phone's check before sending the complete report: the server's rules (device-rules.ts), by field. */
export function checkForm(form: ReportForm): Record<string, string> {
  const errors = checkCompleteReport({
    outcome: form.outcome,
    checklist: form.checklist,
    batteryExpiry: form.batteryExpiry || null,
    adultPadsExpiry: form.adultPadsExpiry || null,
    pediatricPadsPresent: form.pediatricPadsPresent,
    pediatricPadsExpiry: form.pediatricPadsPresent ? form.pediatricPadsExpiry || null : null,
    observations: form.observations,
    signerName: form.signerName,
    hasSignature: !form.cannotSign && Boolean(form.signature),
    unsignedReason: form.unsignedReason,
  });
  if (!fromLocalInput(form.visitedAt)) errors.visitedAt = 'Indiquez la date et l’heure de la visite';
  else if (new Date(form.visitedAt).getTime() > Date.now() + 10 * 60_000) errors.visitedAt = 'La date de la visite ne peut pas être dans le futur';
  return errors;
}
