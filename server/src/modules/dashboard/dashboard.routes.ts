import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEMO_ADMIN } from '../../db/seed/demo';
import { assertTechnicianSelf, requireAuth } from '../../plugins/access';
import { getAdminCounts, getTechnicianCounts } from './dashboard.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });
const count = z.number().int().nonnegative();

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/public/config',
    {
      config: { access: 'public' },
      schema: {
        response: {
          200: z.object({
            productName: z.string(),
            charityName: z.string(),
            adminEmailHint: z.string(),
            /** Raster tiles under the maps ({z}/{x}/{y} template) and their credit; null: the bundled outline only. */
            map: z.object({ tileUrl: z.string().nullable(), attribution: z.string().nullable() }),
          }),
        },
      },
    },
    async () => ({
      productName: app.config.PRODUCT_NAME,
      charityName: app.config.CHARITY_NAME,
      adminEmailHint: app.config.ADMIN_EMAIL ?? DEMO_ADMIN.email,
      map: { tileUrl: app.config.MAP_TILE_URL ?? null, attribution: app.config.MAP_ATTRIBUTION ?? null },
    }),
  );

  app.get(
    '/api/technicians/:id/counts',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: {
        params: idParams,
        response: {
          200: z.object({
            formation: z.object({ total: count, read: count }),
            findMissions: count,
            applications: count,
            revenue: count,
            packages: count,
          }),
        },
      },
    },
    async (request) => {
      assertTechnicianSelf(requireAuth(request), request.params.id);
      return getTechnicianCounts(app.db, request.params.id);
    },
  );

  app.get(
    '/api/admin/counts',
    {
      config: { access: 'admin', cache: true },
      schema: {
        response: {
          200: z.object({
            suggestions: count,
            missionsLots: count,
            techniciens: count,
            facturesVirements: count,
            expeditions: count,
            librairie: count,
            parcDae: count,
          }),
        },
      },
    },
    async () => getAdminCounts(app.db),
  );
};
