import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Technician parcels: list and receive (issue 5). */
export const parcelsRoutes: FastifyPluginAsyncZod = async () => {};
