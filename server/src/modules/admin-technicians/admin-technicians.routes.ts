import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminTechnicianSchema,
  technicianCountsSchema,
  technicianListQuerySchema,
} from '@maillon/common/schemas/admin-technicians';
import { technicianSchema } from '@maillon/common/schemas/technicians';
import { pageQuery, sendPageText } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import {
  countTechniciansByTab,
  deleteTechnician,
  listEnhancedTechnicians,
  listTechnicians,
  transitionTechnician,
  type TechnicianTransition,
} from './admin-technicians.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });
const listQuery = technicianListQuerySchema.extend(pageQuery);

/** Admin technicians: list, moderation transitions, deletion (issue 8). */
export const adminTechniciansRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/technicians',
    { config: { access: 'admin', cache: true }, schema: { querystring: listQuery, response: { 200: z.array(technicianSchema) } } },
    async (request, reply) => sendPageText(reply, await listTechnicians(app.db, request.query)),
  );

  app.get(
    '/api/technicians/enhanced',
    { config: { access: 'admin', cache: true }, schema: { querystring: listQuery, response: { 200: z.array(adminTechnicianSchema) } } },
    async (request, reply) => sendPageText(reply, await listEnhancedTechnicians(app.db, request.query)),
  );

  app.get(
    '/api/technicians/status-counts',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: technicianListQuerySchema.omit({ status: true }), response: { 200: technicianCountsSchema } },
    },
    async (request) => countTechniciansByTab(app.db, request.query),
  );

  const transitions: TechnicianTransition[] = ['approve', 'reject', 'deactivate', 'restore'];
  for (const action of transitions) {
    app.patch(
      `/api/technicians/:id/${action}`,
      { config: { access: 'admin' }, schema: { params: idParams, response: { 200: adminTechnicianSchema } } },
      async (request) =>
        transitionTechnician({
          db: app.db,
          config: app.config,
          actorUserId: requireAuth(request).userId,
          technicianId: request.params.id,
          action,
        }),
    );
  }

  app.delete(
    '/api/technicians/:id',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: z.object({ success: z.literal(true) }) } } },
    async (request) => {
      await deleteTechnician({
        db: app.db,
        storage: app.storage,
        actorUserId: requireAuth(request).userId,
        technicianId: request.params.id,
      });
      return { success: true as const };
    },
  );
};
