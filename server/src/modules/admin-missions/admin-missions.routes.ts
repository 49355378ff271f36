import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin moderation (jobs, ingestion, CSV), missions, ATS (issue 7). */
export const adminMissionsRoutes: FastifyPluginAsyncZod = async () => {};
