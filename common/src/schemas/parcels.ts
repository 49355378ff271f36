import { z } from 'zod';
import { SHIPMENT_STATUSES } from '../enums';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants';
import { RECEIVABLE_SHIPMENT_STATUSES } from '../shipping-rules';

/** The technician's parcels, "Mes réceptions colis" (spec 01 §2, §3). */

// Without zod in shipping-rules.ts, for the technician's parcels (decision 013).
export { RECEIVABLE_SHIPMENT_STATUSES };

export const parcelSchema = z.object({
  id: z.string().uuid(),
  status: z.enum(SHIPMENT_STATUSES),
  missionId: z.string().uuid().nullable(),
  batchId: z.string().uuid().nullable(),
  missionTitle: z.string().nullable(),
  carrier: z.string(),
  trackingNumber: z.string().nullable(),
  destination: z.string().nullable(),
  content: z.string().nullable(),
  shippedDate: z.string().nullable(),
  deliveredDate: z.string().nullable(),
});
export type Parcel = z.infer<typeof parcelSchema>;

export const parcelListQuerySchema = z.object({
  technicianId: z.string({ error: 'Identifiant de technicien invalide' }).uuid('Identifiant de technicien invalide'),
  search: z.string().trim().max(200, 'Recherche trop longue').optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type ParcelListQuery = z.input<typeof parcelListQuerySchema>;
