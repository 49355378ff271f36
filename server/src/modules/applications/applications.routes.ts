import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Applications: apply to a lot, technician list with lot details (issue 4). */
export const applicationsRoutes: FastifyPluginAsyncZod = async () => {};
