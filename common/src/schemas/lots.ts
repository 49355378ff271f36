import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants';

/** Query of the technician's lot search (GET /api/mission-batches/available-for-application). */
export const availableLotsQuerySchema = z.object({
  technicianId: z.string().uuid('Identifiant de technicien invalide').optional(),
  department: z.string().trim().max(3, 'Département invalide').optional(),
  tag: z.string().trim().max(100, 'Tag invalide').optional(),
  search: z.string().trim().max(200, 'Recherche trop longue (200 caractères maximum)').optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type AvailableLotsQuery = z.infer<typeof availableLotsQuerySchema>;

/** A lot open to applications as a technician sees it; price in euros excluding tax. */
export const availableLotSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string(),
  price: z.number(),
  /** Main department first. */
  departments: z.array(z.string()),
  tags: z.array(z.string()),
  deadline: z.string().nullable(),
  defibrillatorCount: z.number().int().nonnegative(),
  candidateCount: z.number().int().nonnegative(),
  /** Distinct defibrillator models of the lot's missions. */
  models: z.array(z.string()),
  /** Departments of the lot's missions (may go beyond the lot's own list). */
  missionDepartments: z.array(z.string()),
  hasApplied: z.boolean(),
  /** A technician is already recruited: applying would be refused ("Déjà assigné"). */
  isAssigned: z.boolean(),
  createdAt: z.string(),
});
export type AvailableLot = z.infer<typeof availableLotSchema>;

/** Values offered by the department and tag filters: those of the lots currently open. */
export const lotFiltersSchema = z.object({
  departments: z.array(z.string()),
  tags: z.array(z.string()),
});
export type LotFilters = z.infer<typeof lotFiltersSchema>;
