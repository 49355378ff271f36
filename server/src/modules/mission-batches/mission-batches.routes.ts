import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  availableLotQuerySchema,
  availableLotSchema,
  availableLotsMapQuerySchema,
  availableLotsMapSchema,
  availableLotsQuerySchema,
  lotFiltersSchema,
} from '@maillon/common/schemas/lots';
import { assertTechnicianSelf, requireAuth } from '../../plugins/access';
import type { AuthContext } from '../auth/auth.service';
import { dependsOn } from '../../lib/change-tracker';
import { sendJsonText, sendPageText } from '../../lib/pagination';
import { findAvailableLots, getAvailableLot, getAvailableLotFilters, getAvailableLotsMapJson } from './mission-batches.service';

/**
 * The caller's own home as its session carries it, when the search is for itself (docs/decisions/028); the answer then
 * depends on the technicians table as if it had read it (a new address drops the cached answer).
 */
function ownHome(auth: AuthContext, technicianId: string | undefined) {
  if (!auth.technicianId || (technicianId ?? auth.technicianId) !== auth.technicianId) return undefined;
  dependsOn('technicians');
  return auth.home;
}

/** Technician lot search: available-for-application (issue 4), with distances and the lots' map (issue 18). */
export const missionBatchesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/mission-batches/available-for-application',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { querystring: availableLotsQuerySchema, response: { 200: z.array(availableLotSchema) } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { technicianId, department, tag, search, radius, sort, limit, offset } = request.query;
      if (technicianId) assertTechnicianSelf(auth, technicianId);
      const page = await findAvailableLots(app.db, {
        technicianId: technicianId ?? auth.technicianId,
        knownHome: ownHome(auth, technicianId),
        department: department || undefined,
        tag: tag || undefined,
        search: search || undefined,
        radius,
        sort,
        limit,
        offset,
      });
      return sendPageText(reply, page);
    },
  );

  app.get(
    '/api/mission-batches/available-for-application/map',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { querystring: availableLotsMapQuerySchema, response: { 200: availableLotsMapSchema } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { technicianId, department, tag, search, radius } = request.query;
      if (technicianId) assertTechnicianSelf(auth, technicianId);
      const json = await getAvailableLotsMapJson(app.db, {
        technicianId: technicianId ?? auth.technicianId,
        knownHome: ownHome(auth, technicianId),
        department: department || undefined,
        tag: tag || undefined,
        search: search || undefined,
        radius,
      });
      return sendJsonText(reply, json);
    },
  );

  app.get(
    '/api/mission-batches/available-for-application/:id',
    {
      config: { access: 'technician-or-admin' },
      schema: {
        params: z.object({ id: z.string().uuid('Identifiant de lot invalide') }),
        querystring: availableLotQuerySchema,
        response: { 200: availableLotSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { technicianId } = request.query;
      if (technicianId) assertTechnicianSelf(auth, technicianId);
      return getAvailableLot(app.db, { lotId: request.params.id, technicianId: technicianId ?? auth.technicianId });
    },
  );

  app.get(
    '/api/mission-batches/available-filters',
    { config: { access: 'technician-or-admin', cache: true }, schema: { response: { 200: lotFiltersSchema } } },
    async () => getAvailableLotFilters(app.db),
  );
};
