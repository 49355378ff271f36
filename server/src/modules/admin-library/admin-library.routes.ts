import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { learningResourceSchema } from '@maillon/common/schemas/learning-resources';
import { learningResourceRequestSchema, resourceReaderSchema, resourceReadersQuerySchema } from '@maillon/common/schemas/library';
import { pageQuery, setTotal } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import {
  countReadersByResource,
  createLearningResource,
  deleteLearningResource,
  listResourceReaders,
  updateLearningResource,
} from './admin-library.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });

/** Admin learning library: create, edit, delete, readers (issue 8). The list itself is in learning-resources. */
export const adminLibraryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/learning-resources',
    { config: { access: 'admin' }, schema: { body: learningResourceRequestSchema, response: { 201: learningResourceSchema } } },
    async (request, reply) => {
      const resource = await createLearningResource(app.db, { actorUserId: requireAuth(request).userId, input: request.body });
      return reply.status(201).send(resource);
    },
  );

  app.put(
    '/api/learning-resources/:id',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: learningResourceRequestSchema, response: { 200: learningResourceSchema } },
    },
    async (request) => updateLearningResource(app.db, { id: request.params.id, input: request.body }),
  );

  app.delete(
    '/api/learning-resources/:id',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: z.object({ success: z.literal(true) }) } } },
    async (request) => {
      await deleteLearningResource(app.db, { actorUserId: requireAuth(request).userId, id: request.params.id });
      return { success: true as const };
    },
  );

  app.get(
    '/api/learning-resources/:id/readers',
    {
      config: { access: 'admin', cache: true },
      schema: {
        params: idParams,
        querystring: resourceReadersQuerySchema.extend(pageQuery),
        response: { 200: z.array(resourceReaderSchema) },
      },
    },
    async (request, reply) => {
      const { items, total } = await listResourceReaders(app.db, { id: request.params.id, ...request.query });
      setTotal(reply, total);
      return items;
    },
  );

  app.get(
    '/api/learning-resources/reader-counts',
    { config: { access: 'admin', cache: true }, schema: { response: { 200: z.record(z.string(), z.number().int()) } } },
    async () => countReadersByResource(app.db),
  );
};
