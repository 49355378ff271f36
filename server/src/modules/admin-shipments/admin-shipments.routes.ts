import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin shipments (issue 8). */
export const adminShipmentsRoutes: FastifyPluginAsyncZod = async () => {};
