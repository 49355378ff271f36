import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin settings: account, mail provider (outbox), integrations (issue 8). */
export const settingsRoutes: FastifyPluginAsyncZod = async () => {};
