import { z } from 'zod';

export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  /** The request's id, also in the X-Request-Id header and in every server log line of that request. */
  requestId: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
