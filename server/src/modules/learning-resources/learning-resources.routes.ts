import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Learning resources read by everyone, views and formation state (issue 4). */
export const learningResourcesRoutes: FastifyPluginAsyncZod = async () => {};
