import { z } from 'zod';
import { LOT_TAGS_MAX } from '../constants';
import { isDepartmentCode } from '../departments';
import { BATCH_STATUSES, BATCH_VISIBILITIES } from '../enums';
import { optionalText } from './moderation';

export const LOT_MESSAGES = {
  title: 'Veuillez saisir un titre pour le lot',
  price: 'Le prix doit être un nombre positif',
  tags: 'Maximum 2 tags sélectionnés...',
} as const;

const parisDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });

/** A lot deadline lies between today (Paris) and 31 December of next year (decisions.md §4). */
export function lotDeadlineBounds(now: Date = new Date()): { min: string; max: string } {
  const min = parisDate.format(now);
  const year = Number(min.slice(0, 4));
  return { min, max: `${year + 1}-12-31` };
}

export function lotDeadlineMessage(now: Date = new Date()): string {
  const { max } = lotDeadlineBounds(now);
  return `La date limite doit être comprise entre aujourd'hui et le 31/12/${max.slice(0, 4)}`;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The stored instant of a lot deadline: the chosen day at 18:00 UTC. */
export function lotDeadlineToDate(day: string): Date {
  return new Date(`${day}T18:00:00.000Z`);
}

/** Decimal price in euros from a number or a French/English decimal text ("1 234,50"). */
export function parseDecimal(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const cleaned = value.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  if (cleaned === '' || !/^-?\d+(\.\d+)?$/.test(cleaned)) return Number.NaN;
  return Number(cleaned);
}

const priceField = z
  .union([z.number(), z.string()], { error: LOT_MESSAGES.price })
  .transform(parseDecimal)
  .pipe(z.number({ error: LOT_MESSAGES.price }).min(0, LOT_MESSAGES.price).max(10_000_000, 'Prix trop élevé'))
  .transform((euros) => Math.round(euros * 100) / 100);

const deadlineField = z
  .string({ error: 'Date invalide' })
  .trim()
  .transform((value) => value.slice(0, 10))
  .refine((value) => value === '' || (ISO_DAY.test(value) && !Number.isNaN(lotDeadlineToDate(value).getTime())), 'Date invalide')
  .refine((value) => {
    if (value === '') return true;
    const { min, max } = lotDeadlineBounds();
    return value >= min && value <= max;
  }, { error: () => lotDeadlineMessage() })
  .nullish()
  .transform((value) => (value ? value : null));

const lotFields = {
  title: z.string({ error: LOT_MESSAGES.title }).trim().min(1, LOT_MESSAGES.title).max(200, '200 caractères maximum'),
  description: optionalText(2000),
  price: priceField,
  departments: z
    .array(z.string().trim().refine(isDepartmentCode, 'Département inconnu'), { error: 'Liste de départements invalide' })
    .max(110, 'Trop de départements')
    .default([])
    .transform((list) => [...new Set(list)]),
  tags: z
    .array(z.string().trim().min(1, 'Tag invalide').max(60, 'Tag invalide'), { error: 'Liste de tags invalide' })
    .max(LOT_TAGS_MAX, LOT_MESSAGES.tags)
    .default([])
    .transform((list) => [...new Set(list)]),
  /** A day "YYYY-MM-DD" (an ISO instant is cut to its day); stored at 18:00 UTC. */
  deadline: deadlineField,
};

export const createBatchRequestSchema = z.object(lotFields);
export type CreateBatchInput = z.input<typeof createBatchRequestSchema>;
export type CreateBatchRequest = z.output<typeof createBatchRequestSchema>;

export const updateBatchRequestSchema = z.object({
  ...lotFields,
  visibility: z.enum(BATCH_VISIBILITIES, { error: 'Visibilité invalide' }).optional(),
});
export type UpdateBatchInput = z.input<typeof updateBatchRequestSchema>;
export type UpdateBatchRequest = z.output<typeof updateBatchRequestSchema>;

export const batchTechnicianSchema = z.object({
  id: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string().nullable(),
});

/** A lot as the administrator sees it: figures always computed by the server. */
export const adminBatchSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string().nullable(),
  price: z.number(),
  departments: z.array(z.string()),
  tags: z.array(z.string()),
  deadline: z.string().nullable(),
  visibility: z.enum(BATCH_VISIBILITIES),
  status: z.enum(BATCH_STATUSES),
  isSystem: z.boolean(),
  defibrillatorsSum: z.number().int(),
  defibrillatorsDone: z.number().int(),
  amountPerDefib: z.number(),
  applicationCount: z.number().int(),
  pendingApplicationCount: z.number().int(),
  recruitedTechnician: batchTechnicianSchema.nullable(),
  hasShipments: z.boolean(),
  createdAt: z.string(),
});
export type AdminBatch = z.infer<typeof adminBatchSchema>;

export const completedBatchMissionSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  serialNumber: z.string().nullable(),
  clientName: z.string().nullable(),
  defibrillatorModel: z.string().nullable(),
  visitType: z.string().nullable(),
  location: z.string().nullable(),
  department: z.string().nullable(),
  status: z.string(),
});

export const completedBatchSchema = adminBatchSchema.extend({
  missions: z.array(completedBatchMissionSchema),
});
export type CompletedBatch = z.infer<typeof completedBatchSchema>;

export const batchListQuerySchema = z.object({
  search: z.string().trim().max(200, '200 caractères maximum').optional(),
});
