import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Technician self-service: registration, password reset, profile, uploads, password change (issue 3). */
export const techniciansRoutes: FastifyPluginAsyncZod = async () => {};
