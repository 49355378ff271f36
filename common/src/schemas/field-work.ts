import { z } from 'zod';
import { APPLICATION_STATUSES } from '../enums';
import { VISIT_DATE_REQUIRED, NO_SITE_EMAIL, TECHNICIAN_INFO_MISSING, ADDRESS_MISSING, ALL_DEVICES_REQUIRED, TECHNICIAN_COMMENT_MAX } from '../field-work-rules';
import { VISIT_WINDOWS } from '../visit-slot';
import { checkWindowTimes, timeField, visitAppointmentSchema, visitWindowField } from './appointments';

/** Recruited field work: the lot's devices, progress, client notification, distances and route sorting (spec 01 §2, §7). */

// Texts and limits the browser shows live in field-work-rules.ts, without zod (decision 013).
export { VISIT_DATE_REQUIRED, NO_SITE_EMAIL, TECHNICIAN_INFO_MISSING, ADDRESS_MISSING, ALL_DEVICES_REQUIRED, TECHNICIAN_COMMENT_MAX };

const uuid = (message: string) => z.string({ error: message }).uuid(message);
export const missionIdField = uuid('Identifiant de mission invalide');
export const technicianIdField = uuid('Identifiant de technicien invalide');

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
function isValidDay(value: string): boolean {
  if (!isoDay.test(value)) return !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value);
  const date = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A visit date: "YYYY-MM-DD" (the date input) or an ISO date-time. */
export const visitDateField = z.string({ error: 'Date de passage invalide' }).trim().max(40).refine(isValidDay, 'Date de passage invalide');

/** "YYYY-MM-DD" is stored at noon UTC: the same calendar day in every French time zone. */
export function visitDateToDate(value: string): Date {
  return isoDay.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
}

const technicianCommentsField = z
  .string()
  .max(TECHNICIAN_COMMENT_MAX, `Le commentaire doit contenir au plus ${TECHNICIAN_COMMENT_MAX} caractères`)
  .nullable();

/**
 * The optional time window of the planned visit (issue 19): matin, après-midi or a range HH:MM–HH:MM. Absent: the
 * saved window is kept; null: a whole day. A range needs both times.
 */
const visitWindowFields = {
  visitWindow: visitWindowField.nullable().optional(),
  visitStartTime: timeField.nullable().optional(),
  visitEndTime: timeField.nullable().optional(),
};
const WINDOW_FIELD_NAMES = { window: 'visitWindow', startTime: 'visitStartTime', endTime: 'visitEndTime' };
const hasProgressData = (body: { plannedVisitDate?: unknown; isCompleted?: unknown; technicianComments?: unknown; visitWindow?: unknown }) =>
  body.plannedVisitDate !== undefined || body.isCompleted !== undefined || body.technicianComments !== undefined || body.visitWindow !== undefined;

/** What a technician may change on its progress record (the admin comment has its own route). */
export const progressPatchSchema = z
  .object({
    plannedVisitDate: visitDateField.nullable().optional(),
    ...visitWindowFields,
    isCompleted: z.boolean({ error: 'Valeur Effectué / À faire invalide' }).optional(),
    technicianComments: technicianCommentsField.optional(),
  })
  .refine(hasProgressData, { message: 'Aucune donnée à enregistrer' })
  .superRefine((body, context) =>
    checkWindowTimes({ window: body.visitWindow, startTime: body.visitStartTime, endTime: body.visitEndTime }, context, WINDOW_FIELD_NAMES),
  );
export type ProgressPatch = z.infer<typeof progressPatchSchema>;

export const createProgressRequestSchema = z
  .object({
    missionId: missionIdField,
    technicianId: technicianIdField,
    plannedVisitDate: visitDateField.nullable().optional(),
    ...visitWindowFields,
    isCompleted: z.boolean({ error: 'Valeur Effectué / À faire invalide' }).optional(),
    technicianComments: technicianCommentsField.optional(),
  })
  .refine(hasProgressData, { message: 'Aucune donnée à enregistrer' })
  .superRefine((body, context) =>
    checkWindowTimes({ window: body.visitWindow, startTime: body.visitStartTime, endTime: body.visitEndTime }, context, WINDOW_FIELD_NAMES),
  );
export type CreateProgressRequest = z.infer<typeof createProgressRequestSchema>;

export const adminCommentRequestSchema = z.object({
  adminComments: z
    .string({ error: 'Veuillez saisir un commentaire' })
    .trim()
    .min(1, 'Veuillez saisir un commentaire')
    .max(TECHNICIAN_COMMENT_MAX, `Le commentaire doit contenir au plus ${TECHNICIAN_COMMENT_MAX} caractères`),
});
export type AdminCommentRequest = z.infer<typeof adminCommentRequestSchema>;

/** A technician's progress on one device (technician mission data). */
export const missionProgressSchema = z.object({
  missionId: z.string().uuid(),
  technicianId: z.string().uuid(),
  plannedVisitDate: z.string().nullable(),
  /** The time window of the visit (null: the whole day) and its hours HH:MM. */
  visitWindow: z.enum(VISIT_WINDOWS).nullable(),
  visitStartTime: z.string().nullable(),
  visitEndTime: z.string().nullable(),
  isCompleted: z.boolean(),
  technicianComments: z.string().nullable(),
  adminComments: z.string().nullable(),
  routePosition: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
});
export type MissionProgress = z.infer<typeof missionProgressSchema>;

export const workMissionSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  defibrillatorModel: z.string().nullable(),
  serialNumber: z.string().nullable(),
  clientName: z.string().nullable(),
  telSite: z.string().nullable(),
  /** The site e-mail itself stays on the server; the technician only needs to know a client can be informed. */
  hasEmailSite: z.boolean(),
  observations: z.string().nullable(),
  location: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  department: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  completionLink: z.string().nullable(),
  progress: missionProgressSchema,
  /** The site's side of the visit: invitation, confirmation or proposal (issue 19); null until the site is invited. */
  appointment: visitAppointmentSchema.nullable(),
});
export type WorkMission = z.infer<typeof workMissionSchema>;

/**
 * GET /api/missions for a technician: a device of one of its Recruté lots, with the fields and progress the Recruté
 * view shows, and the lot and application it belongs to.
 */
export const technicianMissionSchema = workMissionSchema.extend({
  batchId: z.string().uuid(),
  batchTitle: z.string(),
  applicationId: z.string().uuid(),
});
export type TechnicianMission = z.infer<typeof technicianMissionSchema>;

export const lotMessageSchema = z.object({
  id: z.string().uuid(),
  content: z.string(),
  createdAt: z.string(),
});
export type LotMessage = z.infer<typeof lotMessageSchema>;

export const technicianLotCommentSchema = z.object({
  content: z.string(),
  updatedAt: z.string().nullable(),
});
export type TechnicianLotComment = z.infer<typeof technicianLotCommentSchema>;

export const technicianLotCommentRequestSchema = z.object({
  content: z
    .string({ error: 'Commentaire invalide' })
    .max(TECHNICIAN_COMMENT_MAX, `Le commentaire doit contenir au plus ${TECHNICIAN_COMMENT_MAX} caractères`),
});
export type TechnicianLotCommentRequest = z.infer<typeof technicianLotCommentRequestSchema>;

/** GET /api/applications/{id}/work: everything the Recruté view shows, in one answer. */
export const applicationWorkSchema = z.object({
  application: z.object({
    id: z.string().uuid(),
    status: z.enum(APPLICATION_STATUSES),
    appliedAt: z.string(),
    adminComment: z.string().nullable(),
    technicianId: z.string().uuid(),
  }),
  lot: z.object({
    id: z.string().uuid(),
    title: z.string(),
    description: z.string().nullable(),
    price: z.number(),
    deadline: z.string().nullable(),
    tags: z.array(z.string()),
    departments: z.array(z.string()),
    status: z.string(),
    defibrillatorsSum: z.number().int(),
    defibrillatorsDone: z.number().int(),
    amountPerDefib: z.number(),
    /** amountPerDefib × defibrillatorsDone, euros. */
    finalRevenue: z.number(),
    models: z.array(z.string()),
  }),
  missions: z.array(workMissionSchema),
  adminMessages: z.array(lotMessageSchema),
  technicianComment: technicianLotCommentSchema,
  cancellationBlocked: z.boolean(),
  canFinish: z.boolean(),
});
export type ApplicationWork = z.infer<typeof applicationWorkSchema>;

export const applicationTransitionSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(APPLICATION_STATUSES),
});
export type ApplicationTransition = z.infer<typeof applicationTransitionSchema>;

export const batchFiguresSchema = z.object({
  id: z.string().uuid(),
  defibrillatorsSum: z.number().int(),
  defibrillatorsDone: z.number().int(),
  amountPerDefib: z.number(),
});
export type BatchFigures = z.infer<typeof batchFiguresSchema>;

export const defibrillatorsDoneRequestSchema = z.object({
  defibrillatorsDone: z.coerce.number({ error: 'Nombre invalide' }).int('Nombre invalide').min(0, 'Nombre invalide').optional(),
});

export const clientNotificationRequestSchema = z.object({
  missionId: missionIdField,
  technicianId: technicianIdField,
  visitDate: z.preprocess((v) => (v === '' ? undefined : v), visitDateField.optional()),
  /** When sent, the window must be the saved one (as the date). */
  ...visitWindowFields,
});
export type ClientNotificationRequest = z.infer<typeof clientNotificationRequestSchema>;

export const clientNotificationResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  visitDate: z.string(),
});

const placeObjectSchema = z.object({
  address: z.string().trim().max(300).optional(),
  postalCode: z.string().trim().max(10).optional(),
  city: z.string().trim().max(120).optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
});

/** An address line ("12 rue X, 75011 Paris"), or postal code + city, or coordinates. */
export const placeSchema = z.union([z.string().trim().min(1, 'Adresse manquante').max(300, 'Adresse trop longue'), placeObjectSchema], {
  error: 'Adresse manquante',
});
export type Place = z.infer<typeof placeSchema>;

export const distanceRequestSchema = z.object({
  origin: placeSchema,
  destination: placeSchema,
});
export type DistanceRequest = z.infer<typeof distanceRequestSchema>;

export const DISTANCE_SOURCES = ['osrm', 'estimate'] as const;

/** Distance result (spec §3): metres and seconds; success false when a place could not be located. */
export const distanceResultSchema = z.object({
  success: z.boolean(),
  distance: z.number().nullable(),
  duration: z.number().nullable(),
  source: z.enum(DISTANCE_SOURCES).nullable(),
  message: z.string().optional(),
});
export type DistanceResult = z.infer<typeof distanceResultSchema>;

export const routeStopSchema = z.object({
  missionId: z.string().uuid(),
  position: z.number().int().nullable(),
  /** From the previous stop (home for the first); null when the device could not be located. */
  distance: z.number().nullable(),
  duration: z.number().nullable(),
});
export type RouteStop = z.infer<typeof routeStopSchema>;

export const sortRouteResponseSchema = z.object({
  sortedCount: z.number().int(),
  message: z.string(),
  /** Kilometres saved against the order shown before sorting (one decimal, never negative). */
  savedKm: z.number(),
  totalDistance: z.number(),
  totalDuration: z.number(),
  /** From the last device back home. */
  returnDistance: z.number().nullable(),
  source: z.enum(DISTANCE_SOURCES),
  stops: z.array(routeStopSchema),
});
export type SortRouteResponse = z.infer<typeof sortRouteResponseSchema>;

/** A device on the Recruté view's map, numbered like the list (route order first). */
export const routeMapStopSchema = z.object({
  missionId: z.string().uuid(),
  /** The device's number in the list (1-based). */
  number: z.number().int().positive(),
  title: z.string(),
  defibrillatorModel: z.string().nullable(),
  lat: z.number(),
  lon: z.number(),
  /** Placed by its postal code / city rather than its own coordinates. */
  approximate: z.boolean(),
  isCompleted: z.boolean(),
});
export type RouteMapStop = z.infer<typeof routeMapStopSchema>;

/** GET /api/applications/{id}/route-map: home, the located devices, and the round trip through the undone ones. */
export const routeMapSchema = z.object({
  home: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  stops: z.array(routeMapStopSchema),
  /** Devices that cannot be placed on the map. */
  unlocated: z.number().int().nonnegative(),
  /** Home → undone devices in list order → home; null without an address or an undone located device. */
  route: z
    .object({
      distance: z.number(),
      duration: z.number(),
      source: z.enum(DISTANCE_SOURCES),
      /** The devices of the route, in order (mission ids). */
      order: z.array(z.string().uuid()),
    })
    .nullable(),
  /** Whether « Trier pour économiser ma route » has ordered the undone devices. */
  sorted: z.boolean(),
});
export type RouteMap = z.infer<typeof routeMapSchema>;
