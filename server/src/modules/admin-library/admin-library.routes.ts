import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Admin learning library: create, edit, delete, readers (issue 8). */
export const adminLibraryRoutes: FastifyPluginAsyncZod = async () => {};
