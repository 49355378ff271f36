import { z } from 'zod';
import { isDepartmentCode } from '../departments';
import { JOB_STATUSES } from '../enums';
import { DEFIBRILLATOR_MODELS, VISIT_TYPES_MODERATION } from '../reference-lists';

/** Required-field messages of the manual visit form (spec 02 §5), word for word. */
export const VISIT_MESSAGES = {
  serialNumber: 'Le numéro de série est requis',
  clientName: 'La dénomination client est requise',
  defibrillatorModel: 'Le modèle défibrillateur est requis',
  visitType: 'Le type de visite est requis',
  department: 'Le département est requis',
  address: "L'adresse postale est requise",
  completionLink: 'Le lien de complétion est requis',
  completionLinkUrl: 'Le lien de complétion doit être une URL valide',
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const httpUrl = z.url({ protocol: /^https?$/, hostname: /^[^\s]+$/ });

export function isHttpUrl(value: string): boolean {
  return httpUrl.safeParse(value).success;
}

/** A required text whose missing, non-text and blank values all give the same French message. */
export const requiredText = (message: string, max = 300) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `${max} caractères maximum`);

/** An optional text: blank, null or absent become null. */
export const optionalText = (max = 300) =>
  z
    .string({ error: 'Texte attendu' })
    .trim()
    .max(max, `${max} caractères maximum`)
    .nullish()
    .transform((value) => (value ? value : null));

export const optionalEmail = z
  .string({ error: 'Adresse email invalide' })
  .trim()
  .max(254, '254 caractères maximum')
  .refine((value) => value === '' || EMAIL_PATTERN.test(value), 'Adresse email invalide')
  .nullish()
  .transform((value) => (value ? value : null));

export const optionalPostalCode = z
  .string({ error: 'Code postal invalide' })
  .trim()
  .refine((value) => value === '' || /^\d{5}$/.test(value), 'Code postal invalide')
  .nullish()
  .transform((value) => (value ? value : null));

export const optionalCoordinate = (min: number, max: number) =>
  z
    .number({ error: 'Coordonnée invalide' })
    .min(min, 'Coordonnée invalide')
    .max(max, 'Coordonnée invalide')
    .nullish()
    .transform((value) => value ?? null);

export const departmentField = (message: string = VISIT_MESSAGES.department) =>
  requiredText(message, 3).refine(isDepartmentCode, 'Département inconnu');

export const completionLinkField = requiredText(VISIT_MESSAGES.completionLink, 2000).refine(isHttpUrl, VISIT_MESSAGES.completionLinkUrl);

const inList = (list: readonly string[]) => (value: string) => list.includes(value);

/**
 * The visit fields of a moderation job. The model is free text here (the visit-suggestion tool and CSV files
 * may name models outside our list); the visit type must come from the moderation list.
 */
export const jobFieldsSchema = z.object({
  serialNumber: requiredText(VISIT_MESSAGES.serialNumber, 100),
  clientName: requiredText(VISIT_MESSAGES.clientName, 200),
  defibrillatorModel: requiredText(VISIT_MESSAGES.defibrillatorModel, 200),
  visitType: requiredText(VISIT_MESSAGES.visitType, 100).refine(inList(VISIT_TYPES_MODERATION), 'Veuillez choisir un type de visite de la liste'),
  department: departmentField(),
  address: requiredText(VISIT_MESSAGES.address, 500),
  completionLink: completionLinkField,
  telSite: optionalText(40),
  emailSite: optionalEmail,
  observations: optionalText(2000),
  postalCode: optionalPostalCode,
  city: optionalText(120),
  latitude: optionalCoordinate(-90, 90),
  longitude: optionalCoordinate(-180, 180),
});
export type JobFieldsInput = z.input<typeof jobFieldsSchema>;
export type JobFields = z.output<typeof jobFieldsSchema>;

/** "Ajout Manuel": the model and the visit type are picked from the reference lists. */
export const manualVisitRequestSchema = jobFieldsSchema.extend({
  defibrillatorModel: requiredText(VISIT_MESSAGES.defibrillatorModel, 200).refine(
    inList(DEFIBRILLATOR_MODELS),
    'Veuillez choisir un modèle de la liste',
  ),
});
export type ManualVisitInput = z.input<typeof manualVisitRequestSchema>;
export type ManualVisitRequest = z.output<typeof manualVisitRequestSchema>;

/** Modifier (PUT /api/jobs/{id}): the same fields as a job. */
export const updateJobRequestSchema = jobFieldsSchema;

export const jobStatusRequestSchema = z.object({
  status: z.enum(JOB_STATUSES, { error: 'Statut invalide' }),
});
export type JobStatusRequest = z.infer<typeof jobStatusRequestSchema>;

export const INGEST_MAX_ITEMS = 500;

/** POST /api/jobs/ingest: one visit or an array of visits, each validated (errors are reported per item index). */
export const ingestRequestSchema = z.preprocess(
  (value) => (Array.isArray(value) ? value : [value]),
  z
    .array(jobFieldsSchema)
    .min(1, 'Aucune visite à importer')
    .max(INGEST_MAX_ITEMS, `${INGEST_MAX_ITEMS} visites maximum par envoi`),
);

export const ingestResponseSchema = z.object({
  created: z.number().int(),
  duplicates: z.number().int(),
  items: z.array(z.object({ index: z.number().int(), id: z.string().uuid(), status: z.enum(['created', 'duplicate']) })),
});
export type IngestResponse = z.infer<typeof ingestResponseSchema>;

export const jobSchema = z.object({
  id: z.string().uuid(),
  serialNumber: z.string(),
  clientName: z.string(),
  defibrillatorModel: z.string(),
  visitType: z.string(),
  department: z.string(),
  completionLink: z.string(),
  address: z.string(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  telSite: z.string().nullable(),
  emailSite: z.string().nullable(),
  observations: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  source: z.string(),
  status: z.enum(JOB_STATUSES),
  createdAt: z.string(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobCountsSchema = z.object({ pending: z.number().int(), refused: z.number().int() });
export type JobCounts = z.infer<typeof jobCountsSchema>;

export const jobListQuerySchema = z.object({
  search: z.string().trim().max(200, '200 caractères maximum').optional(),
});

export const CSV_IMPORT_MAX_ROWS = 2000;
export const CSV_IMPORT_MODES = ['preview', 'commit'] as const;
export type CsvImportMode = (typeof CSV_IMPORT_MODES)[number];

export const csvImportQuerySchema = z.object({
  mode: z.enum(CSV_IMPORT_MODES, { error: 'Mode d’import invalide' }).default('preview'),
});

export const csvImportRowSchema = z.object({
  /** Line number in the file (the header is line 1). */
  line: z.number().int(),
  serialNumber: z.string(),
  clientName: z.string(),
  visitType: z.string(),
  department: z.string(),
  errors: z.record(z.string(), z.string()),
  duplicate: z.boolean(),
});
export type CsvImportRow = z.infer<typeof csvImportRowSchema>;

export const csvImportResponseSchema = z.object({
  mode: z.enum(CSV_IMPORT_MODES),
  total: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  duplicates: z.number().int(),
  created: z.number().int(),
  rows: z.array(csvImportRowSchema),
});
export type CsvImportResponse = z.infer<typeof csvImportResponseSchema>;

/**
 * CSV column names accepted for each field: our field names and the French labels of the form,
 * compared without case, accents, spaces or punctuation.
 */
export const CSV_COLUMNS: Record<keyof JobFieldsInput, readonly string[]> = {
  serialNumber: ['serialNumber', 'numéro de série', 'numero serie', 'serie', 'minicode'],
  clientName: ['clientName', 'dénomination client', 'client'],
  defibrillatorModel: ['defibrillatorModel', 'modèle défibrillateur', 'modèle', 'model'],
  visitType: ['visitType', 'type de visite', 'type'],
  department: ['department', 'département', 'dept'],
  address: ['address', 'adresse postale', 'adresse'],
  completionLink: ['completionLink', 'lien de complétion', 'lien'],
  telSite: ['telSite', 'téléphone site', 'téléphone', 'tel'],
  emailSite: ['emailSite', 'email site', 'email', 'e-mail'],
  observations: ['observations', 'observation', 'remarques'],
  postalCode: ['postalCode', 'code postal', 'cp'],
  city: ['city', 'ville', 'commune'],
  latitude: ['latitude', 'lat'],
  longitude: ['longitude', 'lon', 'lng'],
};

export function normalizeCsvHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}
