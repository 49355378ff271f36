import { z } from 'zod';
import { APPLICATION_STATUSES, MISSION_STATUSES } from '../enums';
import {
  completionLinkField,
  departmentField,
  isHttpUrl,
  optionalCoordinate,
  optionalEmail,
  optionalPostalCode,
  optionalText,
  requiredText,
  VISIT_MESSAGES,
} from './moderation';

export const MISSION_MESSAGES = {
  title: 'Le titre est requis',
  description: 'La description est requise',
  location: 'La localisation est requise',
  department: 'Le département est requis',
  budget: 'Le budget est requis',
  budgetPositive: 'Le budget doit être un nombre positif',
  deadline: 'La date limite est requise',
  deadlineInvalid: 'Date limite invalide',
  serialNumber: 'Le numéro de série ou minicode est requis',
  noneSelected: 'Aucune mission sélectionnée',
} as const;

/** The mission as the administrator reads it; money in euros. */
export const missionSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  department: z.string().nullable(),
  budget: z.number(),
  deadline: z.string().nullable(),
  tags: z.array(z.string()),
  status: z.enum(MISSION_STATUSES),
  batchId: z.string().uuid().nullable(),
  batchTitle: z.string().nullable(),
  serialNumber: z.string().nullable(),
  clientName: z.string().nullable(),
  defibrillatorModel: z.string().nullable(),
  visitType: z.string().nullable(),
  telSite: z.string().nullable(),
  emailSite: z.string().nullable(),
  completionLink: z.string().nullable(),
  observations: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  createdAt: z.string(),
});
export type Mission = z.infer<typeof missionSchema>;

const booleanQuery = z
  .enum(['true', 'false', '1', '0'], { error: 'Valeur invalide' })
  .transform((value) => value === 'true' || value === '1');

export const missionListQuerySchema = z.object({
  search: z.string().trim().max(200, '200 caractères maximum').optional(),
  batchId: z.string().uuid('Identifiant de lot invalide').optional(),
  unbatched: booleanQuery.optional(),
  status: z.enum(MISSION_STATUSES, { error: 'Statut invalide' }).optional(),
});

const optionalUrl = z
  .string({ error: VISIT_MESSAGES.completionLinkUrl })
  .trim()
  .max(2000, '2000 caractères maximum')
  .refine((value) => value === '' || isHttpUrl(value), VISIT_MESSAGES.completionLinkUrl)
  .nullish()
  .transform((value) => (value ? value : null));

const budgetField = z
  .union([z.number(), z.string()], { error: MISSION_MESSAGES.budget })
  .transform((value) => (typeof value === 'string' ? (value.trim() === '' ? Number.NaN : Number(value.replace(',', '.'))) : value))
  .pipe(z.number({ error: MISSION_MESSAGES.budget }).min(0, MISSION_MESSAGES.budgetPositive).max(1_000_000, 'Budget trop élevé'))
  .transform((euros) => Math.round(euros * 100) / 100);

const deadlineField = z
  .string({ error: MISSION_MESSAGES.deadline })
  .trim()
  .min(1, MISSION_MESSAGES.deadline)
  .refine((value) => !Number.isNaN(new Date(value).getTime()), MISSION_MESSAGES.deadlineInvalid)
  // A bare day is kept at 18:00 UTC like lot deadlines.
  .transform((value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T18:00:00.000Z`) : new Date(value)));

/**
 * POST /api/missions: title, description, location, department, budget and deadline are required (spec 02 §5);
 * the visit fields are optional so the spec's two-call validation (create then delete the job) works.
 */
export const createMissionRequestSchema = z.object({
  title: requiredText(MISSION_MESSAGES.title, 200),
  description: requiredText(MISSION_MESSAGES.description, 2000),
  location: requiredText(MISSION_MESSAGES.location, 500),
  department: departmentField(MISSION_MESSAGES.department),
  budget: budgetField,
  deadline: deadlineField,
  tags: z.array(z.string().trim().min(1).max(200), { error: 'Liste de tags invalide' }).max(10, '10 tags maximum').default([]),
  status: z.enum(['draft', 'active'], { error: 'Statut invalide' }).default('draft'),
  batchId: z.string().uuid('Identifiant de lot invalide').nullish().transform((value) => value ?? null),
  serialNumber: optionalText(100),
  clientName: optionalText(200),
  defibrillatorModel: optionalText(200),
  visitType: optionalText(100),
  telSite: optionalText(40),
  emailSite: optionalEmail,
  completionLink: optionalUrl,
  observations: optionalText(2000),
  postalCode: optionalPostalCode,
  city: optionalText(120),
  latitude: optionalCoordinate(-90, 90),
  longitude: optionalCoordinate(-180, 180),
});
export type CreateMissionInput = z.input<typeof createMissionRequestSchema>;
export type CreateMissionRequest = z.output<typeof createMissionRequestSchema>;

/**
 * Edit mission (spec 02 §5): serial number or minicode, client, model, visit type (mission-edit list, or the
 * mission's current type left unchanged — checked by the server), department, completion link and address.
 */
export const updateMissionRequestSchema = z.object({
  serialNumber: requiredText(MISSION_MESSAGES.serialNumber, 100),
  clientName: requiredText(VISIT_MESSAGES.clientName, 200),
  defibrillatorModel: requiredText(VISIT_MESSAGES.defibrillatorModel, 200),
  visitType: requiredText(VISIT_MESSAGES.visitType, 100),
  department: departmentField(),
  completionLink: completionLinkField,
  address: requiredText(VISIT_MESSAGES.address, 500),
  title: optionalText(200),
  description: optionalText(2000),
  telSite: optionalText(40),
  emailSite: optionalEmail,
  observations: optionalText(2000),
  postalCode: optionalPostalCode,
  city: optionalText(120),
});
export type UpdateMissionInput = z.input<typeof updateMissionRequestSchema>;
export type UpdateMissionRequest = z.output<typeof updateMissionRequestSchema>;

const missionIdsField = z
  .array(z.string().uuid('Identifiant de mission invalide'), { error: MISSION_MESSAGES.noneSelected })
  .min(1, MISSION_MESSAGES.noneSelected)
  .max(500, '500 missions maximum à la fois')
  .transform((ids) => [...new Set(ids)]);

export const moveMissionsRequestSchema = z.object({
  missionIds: missionIdsField,
  /** null: back to "À trier (sans lot)". */
  batchId: z.string({ error: 'Identifiant de lot invalide' }).uuid('Identifiant de lot invalide').nullable(),
});
export type MoveMissionsRequest = z.output<typeof moveMissionsRequestSchema>;

export const bulkDeleteMissionsRequestSchema = z.object({ missionIds: missionIdsField });
export type BulkDeleteMissionsRequest = z.output<typeof bulkDeleteMissionsRequestSchema>;

export const missionBatchRequestSchema = z.object({
  batchId: z.string({ error: 'Identifiant de lot invalide' }).uuid('Identifiant de lot invalide').nullable(),
});

export const bulkResultSchema = z.object({ count: z.number().int() });

/** ATS: an application with the technician's details (spec 02 §3). */
export const applicationWithTechnicianSchema = z.object({
  id: z.string().uuid(),
  batchId: z.string().uuid().nullable(),
  missionId: z.string().uuid().nullable(),
  technicianId: z.string().uuid(),
  status: z.enum(APPLICATION_STATUSES),
  appliedAt: z.string(),
  adminComment: z.string().nullable(),
  earnings: z.number(),
  missionCount: z.number().int(),
  technician: z.object({
    firstName: z.string(),
    lastName: z.string(),
    companyName: z.string().nullable(),
    email: z.string(),
    phone: z.string().nullable(),
    departments: z.array(z.string()),
    remarks: z.string().nullable(),
    preferredRelayPoint: z.string().nullable(),
    postalCode: z.string().nullable(),
  }),
});
export type ApplicationWithTechnician = z.infer<typeof applicationWithTechnicianSchema>;

export const applicationsQuerySchema = z
  .object({
    batchId: z.string().uuid('Identifiant de lot invalide').optional(),
    missionId: z.string().uuid('Identifiant de mission invalide').optional(),
  })
  .refine((q) => Boolean(q.batchId) !== Boolean(q.missionId), { message: 'Veuillez préciser un lot ou une mission', path: ['batchId'] });

export const ADMIN_APPLICATION_DECISIONS = ['Recruté', 'Refusé'] as const;

export const applicationStatusRequestSchema = z.object({
  status: z.enum(ADMIN_APPLICATION_DECISIONS, { error: 'Statut invalide' }),
});
export type ApplicationStatusRequest = z.infer<typeof applicationStatusRequestSchema>;

export const adminCommentRequestSchema = z.object({
  adminComment: requiredText('Le commentaire est requis', 2000),
});
export type AdminCommentRequest = z.infer<typeof adminCommentRequestSchema>;

export const adminCommentResponseSchema = z.object({
  message: z.string(),
  application: applicationWithTechnicianSchema,
});

/** At most this many missions on the admin's map for one view (« À trier » first). */
export const MAP_MISSIONS_MAX = 3000;

/**
 * A view at least four sectors of the finest grid across that holds more missions than this is drawn in groups per
 * sector (decisions 041, 053): more markers than this over a region are a cloud the admin cannot read or select in.
 */
export const MAP_GROUPS_ABOVE = 500;

const latitudeQuery = z.coerce.number({ error: 'Coordonnée invalide' }).min(-90, 'Coordonnée invalide').max(90, 'Coordonnée invalide');
const longitudeQuery = z.coerce.number({ error: 'Coordonnée invalide' }).min(-180, 'Coordonnée invalide').max(180, 'Coordonnée invalide');

/** GET /api/missions/map: the missions to sort and those of the active lots, within a view (south, west, north, east). */
export const missionsMapQuerySchema = z
  .object({
    south: latitudeQuery.optional(),
    west: longitudeQuery.optional(),
    north: latitudeQuery.optional(),
    east: longitudeQuery.optional(),
    /** « À trier » only, or with the missions of the active lots. */
    scope: z.enum(['unsorted', 'all'], { error: 'Choix invalide' }).default('all'),
  })
  .refine((q) => [q.south, q.west, q.north, q.east].every((v) => v === undefined) || [q.south, q.west, q.north, q.east].every((v) => v !== undefined), {
    message: 'La zone doit avoir ses quatre bords',
  })
  .refine((q) => q.south === undefined || (q.south <= q.north! && q.west! <= q.east!), { message: 'Zone invalide' });
export type MissionsMapQuery = z.infer<typeof missionsMapQuerySchema>;

export const mapMissionSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  lat: z.number(),
  lon: z.number(),
  /** Placed by its postal code / city rather than its own coordinates. */
  approximate: z.boolean(),
  /** Null: « À trier ». */
  batchId: z.string().uuid().nullable(),
  status: z.enum(MISSION_STATUSES),
});
export type MapMission = z.infer<typeof mapMissionSchema>;

/**
 * A group of missions drawn as one bubble when the view holds more than MAP_GROUPS_ABOVE (decision 041): the missions
 * of one cell of a grid, drawn at their mean position; south, west, north and east frame most of them (two standard
 * deviations around the mean, within the cell), the view to open the group onto.
 */
export const mapClusterSchema = z.object({
  lat: z.number(),
  lon: z.number(),
  count: z.number().int().positive(),
  /** Of which « À trier ». */
  unsorted: z.number().int().nonnegative(),
  south: z.number(),
  west: z.number(),
  north: z.number(),
  east: z.number(),
});
export type MapCluster = z.infer<typeof mapClusterSchema>;

export const missionsMapSchema = z.object({
  /** Empty when the view is drawn in groups. */
  missions: z.array(mapMissionSchema),
  /** The lots of the missions shown (legend), by title. */
  lots: z.array(z.object({ id: z.string().uuid(), title: z.string(), defibrillatorsSum: z.number().int() })),
  /** The view holds more missions than the MAP_MISSIONS_MAX shown (zoom in and search the smaller view). */
  more: z.boolean(),
  /** The view's missions in groups, when it holds more than MAP_GROUPS_ABOVE and is wide enough; otherwise empty. */
  clusters: z.array(mapClusterSchema),
  /** « À trier » missions (draft or active) that cannot be placed on the map. */
  unlocatedUnsorted: z.number().int().nonnegative(),
});
export type MissionsMap = z.infer<typeof missionsMapSchema>;
