import { z } from 'zod';
import { APPLICATION_PILLS, APPLICATION_STATUSES } from '../enums';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants';

const technicianIdField = z.string({ error: 'Technicien requis' }).uuid('Identifiant de technicien invalide');

/** POST /api/applications/batch: a technician applies to a lot. */
export const applyToBatchRequestSchema = z.object({
  batchId: z.string({ error: 'Lot requis' }).uuid('Identifiant de lot invalide'),
  technicianId: technicianIdField,
  status: z.literal('En attente', { error: 'Statut de candidature invalide' }).default('En attente'),
});
export type ApplyToBatchRequest = z.input<typeof applyToBatchRequestSchema>;

/** POST /api/applications: single-mission application (kept for compatibility), status "pending". */
export const applyToMissionRequestSchema = z.object({
  missionId: z.string({ error: 'Mission requise' }).uuid('Identifiant de mission invalide'),
  technicianId: technicianIdField,
  status: z.enum(['pending', 'En attente'], { error: 'Statut de candidature invalide' }).default('pending'),
});
export type ApplyToMissionRequest = z.input<typeof applyToMissionRequestSchema>;

export const applicationSchema = z.object({
  id: z.string().uuid(),
  batchId: z.string().uuid().nullable(),
  missionId: z.string().uuid().nullable(),
  technicianId: z.string().uuid(),
  status: z.enum(APPLICATION_STATUSES),
  appliedAt: z.string().nullable(),
  adminComment: z.string().nullable(),
});
export type Application = z.infer<typeof applicationSchema>;

/** The lot an application is about, as the technician's list shows it (prices in euros excluding tax). */
export const applicationLotSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string(),
  price: z.number(),
  departments: z.array(z.string()),
  tags: z.array(z.string()),
  deadline: z.string().nullable(),
  status: z.string(),
  defibrillatorCount: z.number().int().nonnegative(),
  defibrillatorsDone: z.number().int().nonnegative(),
  amountPerDefib: z.number(),
  candidateCount: z.number().int().nonnegative(),
  models: z.array(z.string()),
});
export type ApplicationLot = z.infer<typeof applicationLotSchema>;

/** A device of a finished lot: "Effectué" when done, otherwise "Non traité". */
export const treatedDeviceSchema = z.object({
  id: z.string().uuid(),
  serialNumber: z.string().nullable(),
  clientName: z.string().nullable(),
  done: z.boolean(),
});
export type TreatedDevice = z.infer<typeof treatedDeviceSchema>;

export const technicianApplicationSchema = applicationSchema.extend({
  lot: applicationLotSchema,
  /** Terminé only: amountPerDefib × defibrillatorsDone, in euros. */
  finalRevenue: z.number().nullable(),
  /** Terminé only: the lot's devices with their state. */
  devices: z.array(treatedDeviceSchema).nullable(),
});
export type TechnicianApplication = z.infer<typeof technicianApplicationSchema>;

/** A pill of the technician's tab (groups statuses, Annulé under Refusé) or one exact status. */
export const applicationStatusFilterSchema = z.enum([...new Set([...APPLICATION_PILLS, ...APPLICATION_STATUSES])] as [string, ...string[]], {
  error: 'Statut de candidature invalide',
});

export const applicationsQuerySchema = z.object({
  technicianId: z.string().uuid('Identifiant de technicien invalide').optional(),
  batchId: z.string().uuid('Identifiant de lot invalide').optional(),
  status: applicationStatusFilterSchema.optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type ApplicationsQuery = z.infer<typeof applicationsQuerySchema>;

/** Number of applications under each pill of the technician's tab. */
export const applicationPillCountsSchema = z.object({
  Recruté: z.number().int().nonnegative(),
  'En attente': z.number().int().nonnegative(),
  Refusé: z.number().int().nonnegative(),
  Terminé: z.number().int().nonnegative(),
});
export type ApplicationPillCounts = z.infer<typeof applicationPillCountsSchema>;
