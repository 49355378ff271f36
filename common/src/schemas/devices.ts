import { z } from 'zod';
import { DEVICE_ACCESS, DEVICE_STATES, VISIT_OUTCOMES } from '../enums';
import {
  checkOpeningHours,
  deviceSerialKey,
  isIsoDay,
  isValidSiren,
  normalizeOpeningHours,
  PHONE_INVALID,
  SERIAL_INVALID,
  SIREN_INVALID,
  toInternationalPhone,
} from '../device-rules';

/** The device registry (Parc DAE): one record per physical defibrillator, keyed by its normalised serial number. */

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An optional text: blank or null become null. */
const text = (max: number) =>
  z
    .string({ error: 'Texte attendu' })
    .trim()
    .max(max, `${max} caractères maximum`)
    .nullable()
    .transform((value) => (value ? value : null));

const email = z
  .string({ error: 'Adresse e-mail invalide' })
  .trim()
  .max(254, '254 caractères maximum')
  .refine((value) => value === '' || EMAIL_PATTERN.test(value), 'Adresse e-mail invalide')
  .nullable()
  .transform((value) => (value ? value : null));

const phone = z
  .string({ error: PHONE_INVALID })
  .trim()
  .max(40, PHONE_INVALID)
  .refine((value) => value === '' || toInternationalPhone(value) !== null, PHONE_INVALID)
  .nullable()
  .transform((value) => (value ? value : null));

const day = (label: string) =>
  z
    .string({ error: `${label} : date invalide` })
    .trim()
    .refine((value) => value === '' || isIsoDay(value), `${label} : date invalide`)
    .nullable()
    .transform((value) => (value ? value : null));

const coordinate = (min: number, max: number) => z.number({ error: 'Coordonnée invalide' }).min(min, 'Coordonnée invalide').max(max, 'Coordonnée invalide').nullable();

const siren = z
  .string({ error: SIREN_INVALID })
  .trim()
  .refine((value) => value === '' || isValidSiren(value), SIREN_INVALID)
  .nullable()
  .transform((value) => (value ? value.replace(/\s+/g, '') : null));

const openingHours = z
  .string({ error: 'Horaires invalides' })
  .trim()
  .superRefine((value, context) => {
    if (value === '') return;
    const error = checkOpeningHours(value);
    if (error) context.addIssue({ code: 'custom', message: error });
  })
  .nullable()
  .transform((value) => (value ? normalizeOpeningHours(value) : null));

export const serialNumberField = z
  .string({ error: 'Le numéro de série est requis' })
  .trim()
  .min(1, 'Le numéro de série est requis')
  .max(100, '100 caractères maximum')
  .refine((value) => deviceSerialKey(value) !== null, SERIAL_INVALID);

/** Every registry field the administrator may change (PATCH: each one optional; null clears it). */
export const deviceFieldsSchema = z.object({
  manufacturer: text(120),
  model: text(120),
  siteName: text(200),
  address: text(300),
  postalCode: z
    .string({ error: 'Code postal invalide' })
    .trim()
    .refine((value) => value === '' || /^\d{5}$/.test(value), 'Code postal invalide')
    .nullable()
    .transform((value) => (value ? value : null)),
  city: text(120),
  latitude: coordinate(-90, 90),
  longitude: coordinate(-180, 180),
  access: z.enum(DEVICE_ACCESS, { error: 'Choisissez Intérieur ou Extérieur' }).nullable(),
  freeAccess: z.boolean({ error: 'Valeur oui / non attendue' }).nullable(),
  accessFloor: text(40),
  accessDetails: text(500),
  openingHours,
  availabilityDetails: text(500),
  sitePhone: phone,
  siteEmail: email,
  operatorName: text(200),
  operatorSiren: siren,
  operatorPhone: phone,
  operatorEmail: email,
  functionalState: z.enum(DEVICE_STATES, { error: 'État de fonctionnement invalide' }),
  batteryExpiry: day('Péremption de la batterie'),
  adultPadsExpiry: day('Péremption des électrodes adultes'),
  pediatricPadsPresent: z.boolean({ error: 'Valeur oui / non attendue' }).nullable(),
  pediatricPadsExpiry: day('Péremption des électrodes pédiatriques'),
  installedOn: day('Date d’installation'),
  lastMaintenanceOn: day('Dernière maintenance'),
  maintenanceIntervalMonths: z.number({ error: 'Périodicité invalide' }).int('Périodicité invalide').min(1, 'Périodicité : 1 mois au moins').max(60, 'Périodicité : 60 mois au plus'),
  nextMaintenanceDue: day('Prochaine maintenance'),
});
export type DeviceFields = z.output<typeof deviceFieldsSchema>;

export const updateDeviceRequestSchema = deviceFieldsSchema
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Aucune donnée à enregistrer' });
export type UpdateDeviceInput = z.input<typeof updateDeviceRequestSchema>;
export type UpdateDeviceRequest = z.output<typeof updateDeviceRequestSchema>;

/** "Ajouter un défibrillateur": the serial number, and any registry field known already. */
export const createDeviceRequestSchema = deviceFieldsSchema.partial().extend({ serialNumber: serialNumberField });
export type CreateDeviceInput = z.input<typeof createDeviceRequestSchema>;
export type CreateDeviceRequest = z.output<typeof createDeviceRequestSchema>;

export const deviceSchema = z.object({
  id: z.string().uuid(),
  serialNumber: z.string(),
  serialKey: z.string(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  siteName: z.string().nullable(),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  access: z.enum(DEVICE_ACCESS).nullable(),
  freeAccess: z.boolean().nullable(),
  accessFloor: z.string().nullable(),
  accessDetails: z.string().nullable(),
  openingHours: z.string().nullable(),
  availabilityDetails: z.string().nullable(),
  sitePhone: z.string().nullable(),
  siteEmail: z.string().nullable(),
  operatorName: z.string().nullable(),
  operatorSiren: z.string().nullable(),
  operatorPhone: z.string().nullable(),
  operatorEmail: z.string().nullable(),
  functionalState: z.enum(DEVICE_STATES),
  batteryExpiry: z.string().nullable(),
  adultPadsExpiry: z.string().nullable(),
  pediatricPadsPresent: z.boolean().nullable(),
  pediatricPadsExpiry: z.string().nullable(),
  installedOn: z.string().nullable(),
  lastMaintenanceOn: z.string().nullable(),
  maintenanceIntervalMonths: z.number().int(),
  nextMaintenanceDue: z.string().nullable(),
  /** The soonest of the battery, electrodes and maintenance dates (null when none is known). */
  nextDueOn: z.string().nullable(),
  /** Expired, due within 30 days, or out of order: what the Parc DAE badge counts. */
  needsAttention: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Device = z.infer<typeof deviceSchema>;

/** A row of the registry list: the device and its visits. */
export const deviceListItemSchema = deviceSchema.extend({
  visitCount: z.number().int(),
  /** Visits marked Effectué without a saved report (the spec's plain toggle). */
  withoutReportCount: z.number().int(),
});
export type DeviceListItem = z.infer<typeof deviceListItemSchema>;

export const DUE_FILTERS = ['expired', '30', '60', '90'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];
export const DUE_SUBJECTS = ['any', 'battery', 'pads', 'maintenance'] as const;
export type DueSubject = (typeof DUE_SUBJECTS)[number];
export const DUE_SUBJECT_LABELS: Record<DueSubject, string> = {
  any: 'Batterie, électrodes ou maintenance',
  battery: 'Batterie',
  pads: 'Électrodes',
  maintenance: 'Maintenance',
};

const booleanQuery = z
  .enum(['true', 'false', '1', '0'], { error: 'Valeur invalide' })
  .transform((value) => value === 'true' || value === '1');

export const deviceListQuerySchema = z.object({
  search: z.string().trim().max(200, '200 caractères maximum').optional(),
  state: z.enum(DEVICE_STATES, { error: 'État de fonctionnement invalide' }).optional(),
  /** expired: the date is past; 30/60/90: past or within that many days. */
  due: z.enum(DUE_FILTERS, { error: 'Échéance invalide' }).optional(),
  dueSubject: z.enum(DUE_SUBJECTS, { error: 'Échéance invalide' }).default('any'),
  /** The badge's devices: expired or due within 30 days, or out of order. */
  attention: booleanQuery.optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;

/** A saved report as the registry shows it (no photos or signature: the PV holds them). */
export const deviceReportSummarySchema = z.object({
  id: z.string().uuid(),
  technicianId: z.string().uuid(),
  technicianName: z.string(),
  status: z.enum(['draft', 'final']),
  version: z.number().int(),
  outcome: z.enum(VISIT_OUTCOMES).nullable(),
  visitedAt: z.string().nullable(),
  finalizedAt: z.string().nullable(),
  hasPdf: z.boolean(),
});
export type DeviceReportSummary = z.infer<typeof deviceReportSummarySchema>;

/** One mission (visit) of a device, with the lot's recruit's progress and every report written for it. */
export const deviceVisitSchema = z.object({
  missionId: z.string().uuid(),
  missionTitle: z.string(),
  missionStatus: z.string(),
  visitType: z.string().nullable(),
  batchId: z.string().uuid().nullable(),
  batchTitle: z.string().nullable(),
  technicianName: z.string().nullable(),
  plannedVisitDate: z.string().nullable(),
  isCompleted: z.boolean(),
  /** Effectué by the recruit without a saved report from them. */
  withoutReport: z.boolean(),
  reports: z.array(deviceReportSummarySchema),
  createdAt: z.string(),
});
export type DeviceVisit = z.infer<typeof deviceVisitSchema>;

export const deviceDetailSchema = deviceSchema.extend({ visits: z.array(deviceVisitSchema) });
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

// ---- Géo'DAE export ----

export const geodaeExportQuerySchema = z
  .object({
    from: z.string({ error: 'Date de début requise' }).trim().refine(isIsoDay, 'Date de début invalide'),
    to: z.string({ error: 'Date de fin requise' }).trim().refine(isIsoDay, 'Date de fin invalide'),
  })
  .refine((query) => query.from <= query.to, { message: 'La date de début doit précéder la date de fin', path: ['to'] });
export type GeodaeExportQuery = z.infer<typeof geodaeExportQuerySchema>;

export const geodaeExcludedDeviceSchema = z.object({
  deviceId: z.string().uuid(),
  serialNumber: z.string(),
  siteName: z.string().nullable(),
  city: z.string().nullable(),
  /** What is missing or invalid, in French ("Coordonnées", "SIREN de l’exploitant invalide"…). */
  missing: z.array(z.string()),
});
export type GeodaeExcludedDevice = z.infer<typeof geodaeExcludedDeviceSchema>;

/** Which devices maintained in the range go into the file, and which cannot (with what they lack). */
export const geodaeExportCheckSchema = z.object({
  from: z.string(),
  to: z.string(),
  maintained: z.number().int(),
  exportable: z.number().int(),
  excluded: z.array(geodaeExcludedDeviceSchema),
});
export type GeodaeExportCheck = z.infer<typeof geodaeExportCheckSchema>;
