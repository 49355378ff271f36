import { z } from 'zod';
import { LEARNING_RESOURCE_TYPES } from '../enums';

/** A training module as technicians and the admin library read it. */
export const learningResourceSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string(),
  type: z.enum(LEARNING_RESOURCE_TYPES),
  url: z.string(),
  /** Minutes (at least 1), or null when unknown. */
  duration: z.number().int().nullable(),
  createdAt: z.string(),
});
export type LearningResource = z.infer<typeof learningResourceSchema>;

export const resourceViewSchema = z.object({
  id: z.string().uuid(),
  resourceId: z.string().uuid(),
  technicianId: z.string().uuid(),
  viewedAt: z.string(),
});
export type ResourceView = z.infer<typeof resourceViewSchema>;

export const recordViewRequestSchema = z.object({
  technicianId: z.string({ error: 'Technicien requis' }).uuid('Identifiant de technicien invalide'),
});
export type RecordViewRequest = z.infer<typeof recordViewRequestSchema>;

/** The view (created or already there) and the technician's training state after it. */
export const recordViewResponseSchema = z.object({
  view: resourceViewSchema,
  formation: z.object({
    total: z.number().int().nonnegative(),
    read: z.number().int().nonnegative(),
    formationCompleted: z.boolean(),
    formationStatus: z.string(),
  }),
});
export type RecordViewResponse = z.infer<typeof recordViewResponseSchema>;

export const resourceViewsQuerySchema = z.object({
  technicianId: z.string({ error: 'Technicien requis' }).uuid('Identifiant de technicien invalide'),
});
