import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Recruited work: lot details, progress, complete/cancel, client notification, distances and route sorting (issue 5). */
export const fieldWorkRoutes: FastifyPluginAsyncZod = async () => {};
