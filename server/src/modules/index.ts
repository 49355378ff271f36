import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authRoutes } from './auth/auth.routes';

/** Every API module, registered in order by buildApp. */
export const apiModules: FastifyPluginAsyncZod[] = [authRoutes];
