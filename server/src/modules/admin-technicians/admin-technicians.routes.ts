import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin technicians: list, moderation transitions, deletion (issue 8). */
export const adminTechniciansRoutes: FastifyPluginAsyncZod = async () => {};
