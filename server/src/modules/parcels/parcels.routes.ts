import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parcelListQuerySchema, parcelSchema } from '@maillon/common/schemas/parcels';
import { sendPageText } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import { listParcelsText, receiveParcel } from './parcels.service';

/** Technician parcels: list and receive (issue 5). */
export const parcelsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/shipments',
    { config: { access: 'technician-or-admin', cache: true }, schema: { querystring: parcelListQuerySchema, response: { 200: z.array(parcelSchema) } } },
    async (request, reply) => sendPageText(reply, await listParcelsText(app.db, { auth: requireAuth(request), ...request.query })),
  );

  app.patch(
    '/api/shipments/:id/receive',
    { config: { access: 'technician' }, schema: { params: z.object({ id: z.string().uuid('Identifiant invalide') }), response: { 200: parcelSchema } } },
    async (request) => receiveParcel(app.db, { auth: requireAuth(request), shipmentId: request.params.id }),
  );
};
