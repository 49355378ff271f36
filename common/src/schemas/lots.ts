import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants';
import { LOT_RADII_KM, LOT_SORTS, type LotRadius } from '../lot-rules';

// The choices live in lot-rules.ts, without zod, for the technician's page (decision 013).
export { LOT_RADII_KM, LOT_SORTS, type LotRadius, type LotSort } from '../lot-rules';

const lotFilterFields = {
  technicianId: z.string().uuid('Identifiant de technicien invalide').optional(),
  department: z.string().trim().max(3, 'Département invalide').optional(),
  tag: z.string().trim().max(100, 'Tag invalide').optional(),
  search: z.string().trim().max(200, 'Recherche trop longue (200 caractères maximum)').optional(),
  radius: z.coerce
    .number({ error: 'Rayon invalide (25, 50, 100 ou 200 km)' })
    .refine((value): value is LotRadius => (LOT_RADII_KM as readonly number[]).includes(value), 'Rayon invalide (25, 50, 100 ou 200 km)')
    .optional(),
};

/** Query of the technician's lot search (GET /api/mission-batches/available-for-application). */
export const availableLotsQuerySchema = z.object({
  ...lotFilterFields,
  /** Default: nearest first when the technician's address is known, else the most recent. */
  sort: z.enum(LOT_SORTS, { error: 'Tri invalide' }).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type AvailableLotsQuery = z.infer<typeof availableLotsQuerySchema>;

/** Query of the lots' map: the same filters, no paging. */
export const availableLotsMapQuerySchema = z.object(lotFilterFields);

/** Query of one open lot (the map's popup). */
export const availableLotQuerySchema = z.object({ technicianId: lotFilterFields.technicianId });

/** A position on the map; approximate when placed by a postal code rather than the site's own coordinates. */
export const mapPointSchema = z.object({ lat: z.number(), lon: z.number(), approximate: z.boolean() });
export type MapPoint = z.infer<typeof mapPointSchema>;

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
  /** Metres as the crow flies from the technician's address to the lot's nearest site; null when either is unknown. */
  distance: z.number().nullable(),
  /** Estimated round trip from the address through every site and back (metres, seconds); null when unknown. */
  roundTrip: z.object({ distance: z.number(), duration: z.number() }).nullable(),
  /** The mean point of the lot's sites (approximate when none has its own coordinates); null when none is located. */
  position: mapPointSchema.nullable(),
});
export type AvailableLot = z.infer<typeof availableLotSchema>;

/**
 * GET /api/mission-batches/available-for-application/map: a marker per lot (nearest first), at most `MAP_LOTS_MAX`.
 * 500 (2 000 until decision 036): about 55 KB for a phone instead of 220 KB, kept offline once per set of filters, and
 * well beyond the 200 km of the widest distance filter in the denser regions; a filter narrows what is shown.
 */
export const MAP_LOTS_MAX = 500;
export const availableLotsMapSchema = z.object({
  /** The technician's address, when located. */
  home: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  lots: z.array(mapPointSchema.extend({ id: z.string().uuid(), title: z.string() })),
  /** Lots matching the filters with a known position (the markers are the first MAP_LOTS_MAX of them). */
  total: z.number().int().nonnegative(),
  /** Open lots matching the filters that cannot be placed on the map. */
  unlocated: z.number().int().nonnegative(),
});
export type AvailableLotsMap = z.infer<typeof availableLotsMapSchema>;

/** Values offered by the department and tag filters: those of the lots currently open. */
export const lotFiltersSchema = z.object({
  departments: z.array(z.string()),
  tags: z.array(z.string()),
});
export type LotFilters = z.infer<typeof lotFiltersSchema>;
