import { z } from 'zod';
import { CONSUMABLE_KINDS, SHIPMENT_STATUSES } from '../enums';
import { SHIPMENT_ITEMS } from '../reference-lists';
import { shipmentSchema } from './shipments';

/** Parts follow expiry dates (issue 20, docs/decisions/026). */

export const DEFAULT_EXPIRY_MARGIN_DAYS = 90;
export const DEFAULT_SHIP_DAYS_BEFORE_VISIT = 7;
export const PARTS_MESSAGES = {
  unknownDate: 'Date de péremption inconnue',
  noReference: 'Aucune pièce de référence pour ce modèle',
  notInRegistry: 'Défibrillateur absent du parc DAE',
  nothingToSend: 'Aucune pièce à envoyer pour ce lot',
} as const;

const trimmed = (max: number, required: string, tooLong: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().replace(/\s+/g, ' ') : v),
    z.string({ error: required }).min(1, required).max(max, tooLong),
  );

export const consumableSchema = z.object({
  id: z.string().uuid(),
  manufacturer: z.string(),
  model: z.string(),
  kind: z.enum(CONSUMABLE_KINDS),
  itemLabel: z.string(),
});
export type Consumable = z.infer<typeof consumableSchema>;

export const consumableRequestSchema = z.object({
  manufacturer: trimmed(100, 'Le fabricant est requis', 'Fabricant trop long (100 caractères maximum)'),
  model: trimmed(100, 'Le modèle est requis', 'Modèle trop long (100 caractères maximum)'),
  kind: z.enum(CONSUMABLE_KINDS, { error: 'Choisissez batterie, électrodes adulte ou électrodes pédiatriques' }),
  itemLabel: z
    .string({ error: 'Choisissez la pièce dans la liste' })
    .refine((value) => SHIPMENT_ITEMS.includes(value), 'Choisissez la pièce dans la liste'),
});
export type ConsumableRequest = z.infer<typeof consumableRequestSchema>;

const days = (max: number, label: string) =>
  z.coerce
    .number({ error: `${label} : nombre de jours attendu` })
    .int(`${label} : nombre entier de jours attendu`)
    .min(0, `${label} : 0 jour au minimum`)
    .max(max, `${label} : ${max} jours au maximum`);

export const partsSettingsSchema = z.object({
  expiryMarginDays: days(730, "Marge d'expiration"),
  shipDaysBeforeVisit: days(90, 'Délai d’expédition'),
});
export type PartsSettings = z.infer<typeof partsSettingsSchema>;

const deviceRefSchema = z.object({
  missionId: z.string().uuid(),
  deviceId: z.string().uuid().nullable(),
  serialNumber: z.string().nullable(),
  siteName: z.string().nullable(),
});

export const lotPartsDeviceSchema = deviceRefSchema.extend({
  model: z.string().nullable(),
  /** The planned visit day, else the lot deadline, else today ("YYYY-MM-DD"). */
  referenceDate: z.string(),
  referenceSource: z.enum(['visit', 'deadline', 'today']),
  needs: z.array(z.object({ kind: z.enum(CONSUMABLE_KINDS), expiry: z.string(), itemLabel: z.string() })),
  toCheck: z.array(z.object({ kind: z.enum(CONSUMABLE_KINDS).nullable(), reason: z.string() })),
});
export type LotPartsDevice = z.infer<typeof lotPartsDeviceSchema>;

export const proposedItemSchema = z.object({
  itemLabel: z.string(),
  quantity: z.number().int(),
  devices: z.array(deviceRefSchema),
});
export type ProposedItem = z.infer<typeof proposedItemSchema>;

export const lotPartsSchema = z.object({
  batchId: z.string().uuid(),
  title: z.string(),
  marginDays: z.number().int(),
  shipDaysBeforeVisit: z.number().int(),
  technician: z.object({ id: z.string().uuid(), name: z.string(), relayPoint: z.string() }).nullable(),
  devices: z.array(lotPartsDeviceSchema),
  items: z.array(proposedItemSchema),
  toCheckCount: z.number().int(),
  firstVisitDate: z.string().nullable(),
  /** firstVisitDate − shipDaysBeforeVisit. */
  shipBy: z.string().nullable(),
  /** The parcel created from the proposal, if any (a cancelled one is forgotten). */
  shipment: z.object({ id: z.string().uuid(), status: z.enum(SHIPMENT_STATUSES), shippedDate: z.string().nullable() }).nullable(),
  /** A parcel of the lot is on its way or received. */
  shipped: z.boolean(),
  /** Parts are needed, nothing is shipped and the ship-by day is past. */
  late: z.boolean(),
});
export type LotParts = z.infer<typeof lotPartsSchema>;

export const lotPartsSummarySchema = lotPartsSchema.pick({
  batchId: true,
  title: true,
  technician: true,
  toCheckCount: true,
  firstVisitDate: true,
  shipBy: true,
  shipment: true,
  shipped: true,
  late: true,
}).extend({ itemCount: z.number().int() });
export type LotPartsSummary = z.infer<typeof lotPartsSummarySchema>;

export const createPartsShipmentResponseSchema = z.object({ created: z.boolean(), shipment: shipmentSchema });
export type CreatePartsShipmentResponse = z.infer<typeof createPartsShipmentResponseSchema>;

export const unusedPartSchema = deviceRefSchema.extend({
  shipmentId: z.string().uuid(),
  kind: z.enum(CONSUMABLE_KINDS),
  itemLabel: z.string(),
  visitedAt: z.string().nullable(),
});
export type UnusedPart = z.infer<typeof unusedPartSchema>;

/** Technician: the parts coming for each device of a Recruté lot, and whether their parcel arrived. */
export const workPartsSchema = z.array(
  z.object({
    missionId: z.string().uuid(),
    parts: z.array(z.object({ kind: z.enum(CONSUMABLE_KINDS), itemLabel: z.string(), shipmentId: z.string().uuid(), shipmentStatus: z.enum(SHIPMENT_STATUSES) })),
  }),
);
export type WorkParts = z.infer<typeof workPartsSchema>;

/** "Zoll", "AED  Plus" → "zoll - aed plus": how a device's model is compared with the reference consumables. */
export function consumableModelKey(manufacturer: string | null, model: string | null): string {
  const norm = (value: string | null) => (value ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  return `${norm(manufacturer)} - ${norm(model)}`;
}
