import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Invoices, transfers, invoice submission, fiscal receipt — technician and admin (issue 6). */
export const moneyRoutes: FastifyPluginAsyncZod = async () => {};
