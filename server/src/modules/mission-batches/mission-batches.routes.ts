import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { availableLotSchema, availableLotsQuerySchema, lotFiltersSchema } from '@maillon/common/schemas/lots';
import { assertTechnicianSelf, requireAuth } from '../../plugins/access';
import { setTotal } from '../../lib/pagination';
import { findAvailableLots, getAvailableLotFilters } from './mission-batches.service';

/** Technician lot search: available-for-application (issue 4). */
export const missionBatchesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/mission-batches/available-for-application',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { querystring: availableLotsQuerySchema, response: { 200: z.array(availableLotSchema) } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { technicianId, department, tag, search, limit, offset } = request.query;
      if (technicianId) assertTechnicianSelf(auth, technicianId);
      const page = await findAvailableLots(app.db, {
        technicianId: technicianId ?? auth.technicianId,
        department: department || undefined,
        tag: tag || undefined,
        search: search || undefined,
        limit,
        offset,
      });
      setTotal(reply, page.total);
      return page.items;
    },
  );

  app.get(
    '/api/mission-batches/available-filters',
    { config: { access: 'technician-or-admin', cache: true }, schema: { response: { 200: lotFiltersSchema } } },
    async () => getAvailableLotFilters(app.db),
  );
};
