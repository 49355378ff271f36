import { z } from 'zod';

/** GET /healthz: the process answers. */
export const healthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;

export const readinessCheckResultSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  /** Why the check failed, in French (absent when it passed). */
  message: z.string().optional(),
  durationMs: z.number(),
});

/** GET /readyz: 200 when every check passed, 503 (with message, code and requestId) otherwise. */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'indisponible']),
  checks: z.array(readinessCheckResultSchema),
  message: z.string().optional(),
  code: z.literal('NOT_READY').optional(),
  requestId: z.string().optional(),
});
export type Readiness = z.infer<typeof readinessSchema>;
