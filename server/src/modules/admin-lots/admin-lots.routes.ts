import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin lots: CRUD, completed lots, complete (issue 7). */
export const adminLotsRoutes: FastifyPluginAsyncZod = async () => {};
