import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Technician lot search: available-for-application (issue 4). */
export const missionBatchesRoutes: FastifyPluginAsyncZod = async () => {};
