import { z } from 'zod';
import { LEARNING_RESOURCE_TYPES } from '../enums';

/** Admin library requests. The resource itself is `learningResourceSchema` in ./learning-resources (shared with technicians). */

/** Types offered in the admin form (spec §3); "pdf" is still accepted and shown for existing resources. */
export const LEARNING_RESOURCE_FORM_TYPES = ['document', 'video', 'interactive', 'other'] as const;

/** http(s) link with a host and no spaces (common has no URL global: it runs in both the browser and Node). */
const isWebUrl = (value: string) => /^https?:\/\/[^\s/?#.]+(\.[^\s/?#.]+)*(:\d+)?([/?#]\S*)?$/i.test(value);

/** Title, description, type and url are required; duration is at least 1 minute (spec §5). */
export const learningResourceRequestSchema = z.object({
  title: z
    .string({ error: 'Le titre est requis' })
    .trim()
    .min(1, 'Le titre est requis')
    .max(200, 'Titre trop long (200 caractères maximum)'),
  description: z
    .string({ error: 'La description est requise' })
    .trim()
    .min(1, 'La description est requise')
    .max(5000, 'Description trop longue (5000 caractères maximum)'),
  type: z.enum(LEARNING_RESOURCE_TYPES, { error: 'Le type est requis' }),
  url: z
    .string({ error: 'Le lien est requis' })
    .trim()
    .min(1, 'Le lien est requis')
    .max(2000, 'Lien trop long')
    .refine(isWebUrl, 'Le lien doit être une URL valide (http ou https)'),
  duration: z
    .number({ error: 'La durée doit être un nombre de minutes' })
    .int('La durée doit être un nombre entier de minutes')
    .min(1, 'La durée doit être d’au moins 1 minute')
    .max(10_000, 'Durée trop longue')
    .nullable()
    .optional(),
});
export type LearningResourceRequest = z.infer<typeof learningResourceRequestSchema>;

export const resourceReaderSchema = z.object({
  technicianId: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  viewedAt: z.string(),
});
export type ResourceReader = z.infer<typeof resourceReaderSchema>;

export const resourceReadersQuerySchema = z.object({
  search: z.string().trim().max(200, 'Recherche trop longue').optional(),
});
