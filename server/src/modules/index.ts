import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authRoutes } from './auth/auth.routes';
import { dashboardRoutes } from './dashboard/dashboard.routes';

/** Every API module, registered in order by buildApp. */
export const apiModules: FastifyPluginAsyncZod[] = [authRoutes, dashboardRoutes];
