import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  learningResourceSchema,
  recordViewRequestSchema,
  recordViewResponseSchema,
  resourceViewSchema,
  resourceViewsQuerySchema,
} from '@maillon/common/schemas/learning-resources';
import { assertTechnicianSelf, requireAuth } from '../../plugins/access';
import { sendJsonText } from '../../lib/pagination';
import { listLearningResourcesText, listResourceViewsText, recordResourceView } from './learning-resources.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });

/** Learning resources read by everyone, views and formation state (issue 4). */
export const learningResourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/learning-resources',
    {
      config: { access: 'user', cache: true },
      schema: {
        querystring: z.object({ search: z.string().trim().max(200, 'Recherche trop longue (200 caractères maximum)').optional() }),
        response: { 200: z.array(learningResourceSchema) },
      },
    },
    async (request, reply) => sendJsonText(reply, await listLearningResourcesText(app.db, { search: request.query.search || undefined })),
  );

  app.post(
    '/api/learning-resources/:id/view',
    {
      config: { access: 'technician' },
      schema: { params: idParams, body: recordViewRequestSchema, response: { 200: recordViewResponseSchema } },
    },
    async (request) => {
      assertTechnicianSelf(requireAuth(request), request.body.technicianId);
      return recordResourceView(app.db, { resourceId: request.params.id, technicianId: request.body.technicianId });
    },
  );

  app.get(
    '/api/resource-views',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { querystring: resourceViewsQuerySchema, response: { 200: z.array(resourceViewSchema) } },
    },
    async (request, reply) => {
      assertTechnicianSelf(requireAuth(request), request.query.technicianId);
      return sendJsonText(reply, await listResourceViewsText(app.db, { technicianId: request.query.technicianId }));
    },
  );
};
