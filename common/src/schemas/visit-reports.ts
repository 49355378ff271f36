import { z } from 'zod';
import { DEVICE_STATES, VISIT_OUTCOMES } from '../enums';
import { SHIPMENT_ITEMS } from '../reference-lists';
import {
  CHECK_VALUES,
  CHECKLIST_KEYS,
  checkCompleteReport,
  isIsoDay,
  OBSERVATIONS_MAX,
  REPORT_MESSAGES,
  VISIT_PHOTOS_MAX,
  type ChecklistKey,
  type CheckValue,
} from '../device-rules';

/**
 * The visit report ("Rapport de visite") a technician writes for a device of its Recruté lot. Every write is one
 * replayable request: the report and each photo carry an id made by the client; saving the same content again
 * changes nothing (docs/decisions/024).
 */

const uuid = (message: string) => z.string({ error: message }).uuid(message);
export const reportIdField = uuid('Identifiant de rapport invalide');
export const photoIdField = uuid('Identifiant de photo invalide');

const instant = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(40, message)
    .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), message);

const day = (label: string) =>
  z
    .string({ error: REPORT_MESSAGES.expiryInvalid(label) })
    .trim()
    .refine((value) => value === '' || isIsoDay(value), REPORT_MESSAGES.expiryInvalid(label))
    .nullish()
    .transform((value) => (value ? value : null));

const text = (max: number) =>
  z
    .string({ error: 'Texte attendu' })
    .trim()
    .max(max, `${max} caractères maximum`)
    .nullish()
    .transform((value) => (value ? value : null));

const checkValue = z.enum(CHECK_VALUES, { error: 'Choisissez OK, À signaler ou Non applicable' }).nullish();
const checklistSchema = z
  .strictObject(Object.fromEntries(CHECKLIST_KEYS.map((key) => [key, checkValue])) as Record<ChecklistKey, typeof checkValue>, { error: 'Liste de contrôle invalide' })
  .default({})
  .transform((value) => Object.fromEntries(Object.entries(value).filter(([, v]) => v)) as Partial<Record<ChecklistKey, CheckValue>>);

/** The signature drawn on the phone: a PNG, as a data URL or bare base64 (at most about 300 KB). */
export const SIGNATURE_MAX_CHARS = 400_000;
const signatureField = z
  .string({ error: 'Signature invalide' })
  .max(SIGNATURE_MAX_CHARS, 'Signature trop volumineuse')
  .transform((value) => value.replace(/^data:image\/png;base64,/, '').replace(/\s+/g, ''))
  .refine((value) => value === '' || /^[A-Za-z0-9+/]+={0,2}$/.test(value), 'Signature invalide')
  .nullish()
  .transform((value) => (value ? value : null));

const consumablesField = z
  .array(z.string().refine((value) => SHIPMENT_ITEMS.includes(value), 'Consommable inconnu : choisissez-le dans la liste'), { error: 'Liste de consommables invalide' })
  .max(SHIPMENT_ITEMS.length, 'Liste de consommables invalide')
  .default([])
  .transform((items) => [...new Set(items)]);

/** The fields of a report (draft or complete). Photos are sent one by one beforehand; `photoIds` orders them. */
export const reportValuesSchema = z.object({
  visitedAt: instant('Date de visite invalide').nullish().transform((value) => value ?? null),
  outcome: z.enum(VISIT_OUTCOMES, { error: 'Résultat de visite invalide' }).nullish().transform((value) => value ?? null),
  checklist: checklistSchema,
  batteryExpiry: day('Péremption de la batterie'),
  adultPadsExpiry: day('Péremption des électrodes adultes'),
  pediatricPadsPresent: z.boolean({ error: 'Valeur oui / non attendue' }).nullish().transform((value) => value ?? null),
  pediatricPadsExpiry: day('Péremption des électrodes pédiatriques'),
  consumablesReplaced: consumablesField,
  observations: text(OBSERVATIONS_MAX),
  signerName: text(120),
  signedAt: instant('Heure de signature invalide').nullish().transform((value) => value ?? null),
  signature: signatureField,
  unsignedReason: text(300),
  photoIds: z
    .array(photoIdField, { error: 'Liste de photos invalide' })
    .max(VISIT_PHOTOS_MAX, REPORT_MESSAGES.photosMax)
    .default([])
    .refine((ids) => new Set(ids).size === ids.length, 'Photo en double'),
});
export type ReportValuesInput = z.input<typeof reportValuesSchema>;
export type ReportValues = z.output<typeof reportValuesSchema>;

/** PUT …/visit-report/draft: whatever has been typed so far, kept on the server (autosave). */
export const saveReportDraftRequestSchema = reportValuesSchema.extend({ id: reportIdField });
export type SaveReportDraftInput = z.input<typeof saveReportDraftRequestSchema>;
export type SaveReportDraftRequest = z.output<typeof saveReportDraftRequestSchema>;

/** PUT …/visit-report: the complete report; its checks are the phone's (device-rules checkCompleteReport). */
export const saveReportRequestSchema = reportValuesSchema.extend({ id: reportIdField }).superRefine((report, context) => {
  if (!report.visitedAt) context.addIssue({ code: 'custom', message: REPORT_MESSAGES.visitedAtRequired, path: ['visitedAt'] });
  const errors = checkCompleteReport({ ...report, hasSignature: Boolean(report.signature) });
  for (const [path, message] of Object.entries(errors)) context.addIssue({ code: 'custom', message, path: [path] });
});
export type SaveReportInput = z.input<typeof saveReportRequestSchema>;
export type SaveReportRequest = z.output<typeof saveReportRequestSchema>;

export const visitPhotoSchema = z.object({
  id: z.string().uuid(),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int(),
  sha256: z.string(),
});
export type VisitPhoto = z.infer<typeof visitPhotoSchema>;

/** The report's values as stored and answered (dates as ISO strings), common to a draft and a saved version. */
const storedReportValues = {
  visitedAt: z.string().nullable(),
  outcome: z.enum(VISIT_OUTCOMES).nullable(),
  checklist: z.record(z.string(), z.enum(CHECK_VALUES)),
  batteryExpiry: z.string().nullable(),
  adultPadsExpiry: z.string().nullable(),
  pediatricPadsPresent: z.boolean().nullable(),
  pediatricPadsExpiry: z.string().nullable(),
  consumablesReplaced: z.array(z.string()),
  observations: z.string().nullable(),
  signerName: z.string().nullable(),
  signedAt: z.string().nullable(),
};

/** The values kept in a draft (the signature as base64 PNG, so another device can show it again). */
export const reportDraftSchema = z.object({
  values: z.object({
    ...storedReportValues,
    signature: z.string().nullable(),
    unsignedReason: z.string().nullable(),
    photoIds: z.array(z.string()),
  }),
  updatedAt: z.string(),
});
export type ReportDraft = z.infer<typeof reportDraftSchema>;

/** A report: its last saved (complete) version, its photos, and the draft being typed on top of it, if any. */
export const visitReportSchema = z.object({
  id: z.string().uuid(),
  missionId: z.string().uuid(),
  technicianId: z.string().uuid(),
  deviceId: z.string().uuid().nullable(),
  /** draft: never saved complete; final: saved (version ≥ 1) and its PV exists. */
  status: z.enum(['draft', 'final']),
  version: z.number().int(),
  ...storedReportValues,
  unsignedReason: z.string().nullable(),
  hasSignature: z.boolean(),
  /** The saved signature (base64 PNG), so the form can show it and send it again with a corrected report. */
  signature: z.string().nullable(),
  photos: z.array(visitPhotoSchema),
  /** SHA-256 of the saved version's canonical data, printed in the PV's footer. */
  fingerprint: z.string().nullable(),
  finalizedAt: z.string().nullable(),
  updatedAt: z.string(),
  draft: reportDraftSchema.nullable(),
});
export type VisitReport = z.infer<typeof visitReportSchema>;

/** GET …/visit-report: the device and visit it is about, what the registry knew before, and the report. */
export const visitReportContextSchema = z.object({
  mission: z.object({
    id: z.string().uuid(),
    title: z.string(),
    serialNumber: z.string().nullable(),
    defibrillatorModel: z.string().nullable(),
    clientName: z.string().nullable(),
    location: z.string().nullable(),
    visitType: z.string().nullable(),
    hasEmailSite: z.boolean(),
  }),
  lot: z.object({ id: z.string().uuid(), title: z.string() }),
  applicationId: z.string().uuid(),
  technicianId: z.string().uuid(),
  /** The caller may write: its own Recruté lot, still open. */
  editable: z.boolean(),
  isCompleted: z.boolean(),
  device: z
    .object({
      id: z.string().uuid(),
      functionalState: z.enum(DEVICE_STATES),
      batteryExpiry: z.string().nullable(),
      adultPadsExpiry: z.string().nullable(),
      pediatricPadsPresent: z.boolean().nullable(),
      pediatricPadsExpiry: z.string().nullable(),
      lastMaintenanceOn: z.string().nullable(),
      nextMaintenanceDue: z.string().nullable(),
    })
    .nullable(),
  report: visitReportSchema.nullable(),
  /** Parts sent for this device in the lot's live parcels (issue 20): « consommables remplacés » starts from them. */
  partsComing: z.array(z.string()),
});
export type VisitReportContext = z.infer<typeof visitReportContextSchema>;

export const deletePhotoResponseSchema = z.object({ success: z.literal(true) });
