import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  applicationPillCountsSchema,
  applicationSchema,
  applicationsQuerySchema,
  applyToBatchRequestSchema,
  applyToMissionRequestSchema,
  technicianApplicationSchema,
} from '@maillon/common/schemas/applications';
import { assertTechnicianSelf, requireAuth } from '../../plugins/access';
import { sendPageText } from '../../lib/pagination';
import { applyToBatch, applyToMission, countApplicationsByPill, listApplications } from './applications.service';

/** Applications: apply to a lot, technician list with lot details (issue 4). */
export const applicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/applications/batch',
    {
      config: { access: 'technician' },
      schema: { body: applyToBatchRequestSchema, response: { 201: applicationSchema } },
    },
    async (request, reply) => {
      assertTechnicianSelf(requireAuth(request), request.body.technicianId);
      const application = await applyToBatch(app.db, { batchId: request.body.batchId, technicianId: request.body.technicianId });
      return reply.status(201).send(application);
    },
  );

  app.post(
    '/api/applications',
    {
      config: { access: 'technician' },
      schema: { body: applyToMissionRequestSchema, response: { 201: applicationSchema } },
    },
    async (request, reply) => {
      assertTechnicianSelf(requireAuth(request), request.body.technicianId);
      const application = await applyToMission(app.db, request.body);
      return reply.status(201).send(application);
    },
  );

  app.get(
    '/api/applications',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { querystring: applicationsQuerySchema, response: { 200: z.array(technicianApplicationSchema) } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { technicianId, batchId, status, limit, offset } = request.query;
      if (technicianId) assertTechnicianSelf(auth, technicianId);
      // A technician only ever lists its own applications, whatever the filters.
      const ownerId = auth.role === 'admin' ? technicianId : auth.technicianId!;
      const page = await listApplications(app.db, { technicianId: ownerId, batchId, status, limit, offset }, request.log);
      return sendPageText(reply, page);
    },
  );

  app.get(
    '/api/applications/status-counts',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: {
        querystring: z.object({ technicianId: z.string({ error: 'Technicien requis' }).uuid('Identifiant de technicien invalide') }),
        response: { 200: applicationPillCountsSchema },
      },
    },
    async (request) => {
      assertTechnicianSelf(requireAuth(request), request.query.technicianId);
      return countApplicationsByPill(app.db, { technicianId: request.query.technicianId });
    },
  );
};
