import { z } from 'zod';
import { pickerQueryFields } from './pickers';
import { SHIPMENT_STATUSES } from '../enums';
import { trackingUrl } from '../shipping-rules';

export const SHIPMENT_CREATE_STATUSES = ['draft', 'in_transit'] as const;
export const NO_RELAY_POINT = 'Aucun point relais configuré';
export const NO_POSTAL_CODE = 'Non renseigné';
export const LOT_REQUIRED_MESSAGE = 'Veuillez sélectionner un lot de mission';

// Without zod in shipping-rules.ts, for the technician's parcels (decision 013).
export { trackingUrl };

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (value: string) =>
  isoDay.test(value) ? !Number.isNaN(Date.parse(`${value}T12:00:00Z`)) : !Number.isNaN(Date.parse(value));

/** A date as "YYYY-MM-DD" or ISO text; empty text becomes null (spec §5). */
export const optionalDateSchema = z.preprocess(
  (value) => (value === '' ? null : value),
  z.string().max(40).refine(isDate, 'Date invalide').nullable().optional(),
);

const optionalText = (max: number, message: string) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().max(max, message).nullable().optional());

export const shipmentSchema = z.object({
  id: z.string().uuid(),
  batchId: z.string().uuid().nullable(),
  technicianId: z.string().uuid().nullable(),
  technicianName: z.string().nullable(),
  missionId: z.string().uuid().nullable(),
  trackingNumber: z.string().nullable(),
  carrier: z.string(),
  status: z.enum(SHIPMENT_STATUSES),
  shippedDate: z.string().nullable(),
  deliveredDate: z.string().nullable(),
  destination: z.string().nullable(),
  destinationPostalCode: z.string().nullable(),
  content: z.string().nullable(),
  missionTitle: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Shipment = z.infer<typeof shipmentSchema>;

/** Pills of the admin Expéditions tab: "all" plus each status. */
export const SHIPMENT_FILTERS = ['all', ...SHIPMENT_STATUSES] as const;
export type ShipmentFilter = (typeof SHIPMENT_FILTERS)[number];
export const SHIPMENT_FILTER_LABELS: Record<ShipmentFilter, string> = {
  all: 'Toutes',
  draft: 'Brouillons',
  in_transit: 'Expédiées',
  delivered: 'Réceptionnées',
  cancelled: 'Annulés',
};

export const shipmentListQuerySchema = z.object({
  technicianId: z.string().uuid('Technicien inconnu').optional(),
  batchId: z.string().uuid('Lot inconnu').optional(),
  search: z.string().trim().max(200, 'Recherche trop longue').optional(),
  status: z.enum(SHIPMENT_FILTERS, { error: 'Statut inconnu' }).optional(),
});
export type ShipmentListQuery = z.infer<typeof shipmentListQuerySchema>;

/** Counts per status pill; the technician filter searches GET /api/shipments/admin/technicians. */
export const shipmentSummarySchema = z.object({
  counts: z.object({
    all: z.number().int(),
    draft: z.number().int(),
    in_transit: z.number().int(),
    delivered: z.number().int(),
    cancelled: z.number().int(),
  }),
});
export type ShipmentSummary = z.infer<typeof shipmentSummarySchema>;

/** A lot that can receive a parcel: it has a recruited technician, whose relay point is the destination. */
export const shipmentLotOptionSchema = z.object({
  batchId: z.string().uuid(),
  title: z.string(),
  technicianId: z.string().uuid(),
  technicianName: z.string(),
  destination: z.string(),
});
export type ShipmentLotOption = z.infer<typeof shipmentLotOptionSchema>;

/**
 * Query of the shipment modals' lot picker (GET /api/shipments/admin/lot-options): the lots whose title contains
 * `search`, a few at a time, never the whole list (2 000 lots with a recruit at full scale); `batchId` reads one lot's
 * option (the lot the modal opens with).
 */
export const shipmentLotOptionsQuerySchema = z.object({
  ...pickerQueryFields('lots'),
  batchId: z.string().uuid('Lot inconnu').optional(),
});
export type ShipmentLotOptionsQuery = z.infer<typeof shipmentLotOptionsQuerySchema>;

export const createShipmentRequestSchema = z.object({
  batchId: z.string({ error: LOT_REQUIRED_MESSAGE }).min(1, LOT_REQUIRED_MESSAGE).uuid(LOT_REQUIRED_MESSAGE),
  missionId: z.string().uuid('Mission inconnue').nullable().optional(),
  status: z.enum(SHIPMENT_CREATE_STATUSES, { error: 'Le statut doit être Brouillon ou Expédié' }).default('draft'),
  destinationPostalCode: optionalText(100, 'Code postal trop long'),
  shippedDate: optionalDateSchema,
  content: optionalText(2000, 'Contenu trop long (2000 caractères maximum)'),
  trackingNumber: optionalText(100, 'Numéro de suivi trop long'),
});
export type CreateShipmentRequest = z.infer<typeof createShipmentRequestSchema>;
export type CreateShipmentInput = z.input<typeof createShipmentRequestSchema>;

export const updateShipmentRequestSchema = z.object({
  batchId: z.string().uuid(LOT_REQUIRED_MESSAGE).optional(),
  status: z.enum(SHIPMENT_STATUSES, { error: 'Statut inconnu' }).optional(),
  destination: optionalText(500, 'Destination trop longue'),
  destinationPostalCode: optionalText(100, 'Code postal trop long'),
  shippedDate: optionalDateSchema,
  content: optionalText(2000, 'Contenu trop long (2000 caractères maximum)'),
  trackingNumber: optionalText(100, 'Numéro de suivi trop long'),
});
export type UpdateShipmentRequest = z.infer<typeof updateShipmentRequestSchema>;
export type UpdateShipmentInput = z.input<typeof updateShipmentRequestSchema>;
