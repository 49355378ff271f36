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

/** Expéditions' proposals come 20 lots at a time; « Missions & Lots » asks for the lots of its page. */
export const PARTS_PROPOSALS_PAGE_SIZE = 20;
export const PARTS_PROPOSALS_LOTS_MAX = 50;

const INVALID_PAGE = 'Page de propositions invalide : rechargez la liste';

/** Where a page of proposals starts: after this lot, in the lots' order (title, then id). Opaque to the client. */
export const partsProposalsCursorSchema = z.object({ title: z.string(), id: z.string().uuid() });
export type PartsProposalsCursor = z.infer<typeof partsProposalsCursorSchema>;

export function encodePartsCursor(cursor: PartsProposalsCursor): string {
  return JSON.stringify([cursor.title, cursor.id]);
}

function decodePartsCursor(text: string): PartsProposalsCursor | null {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return null;
    const [title, id] = value as unknown[];
    const parsed = partsProposalsCursorSchema.safeParse({ title, id });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const partsProposalsQuerySchema = z.object({
  after: z
    .string()
    .max(1_000, INVALID_PAGE)
    .transform((text, ctx) => {
      const cursor = decodePartsCursor(text);
      if (!cursor) ctx.addIssue({ code: 'custom', message: INVALID_PAGE });
      return cursor ?? z.NEVER;
    })
    .optional(),
  limit: z.coerce.number().int().min(1).max(PARTS_PROPOSALS_LOTS_MAX).default(PARTS_PROPOSALS_PAGE_SIZE),
  /** These lots only (comma-separated ids), for the lot cards of « Missions & Lots ». */
  batchIds: z
    .string()
    .transform((text) => [...new Set(text.split(',').filter(Boolean))])
    .pipe(z.array(z.string().uuid('Identifiant de lot invalide')).max(PARTS_PROPOSALS_LOTS_MAX, `${PARTS_PROPOSALS_LOTS_MAX} lots au plus`))
    .optional(),
});
export type PartsProposalsQuery = z.infer<typeof partsProposalsQuerySchema>;

/** A page of proposals; `next` continues after its last lot, null at the end. */
export const partsProposalsPageSchema = z.object({ items: z.array(lotPartsSummarySchema), next: z.string().nullable() });
export type PartsProposalsPage = z.infer<typeof partsProposalsPageSchema>;

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
