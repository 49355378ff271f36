import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createPayoutBatchRequestSchema,
  payoutBatchDetailSchema,
  payoutBatchFiltersSchema,
  payoutBatchSchema,
  payoutCandidateSchema,
  payoutSettingsSchema,
} from '@maillon/common/schemas/payout-batches';
import { contentDisposition } from '../../lib/files';
import { pageQuery, setTotal } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import * as payouts from './payout-batches.service';

const uuid = z.string().uuid('Identifiant invalide');
const idParams = z.object({ id: uuid });

/** SEPA payout batches of the admin's « Factures & virements » (issue 21, decision 021). */
export const payoutBatchesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/payout-batches/settings',
    { config: { access: 'admin' }, schema: { response: { 200: payoutSettingsSchema } } },
    async () => payouts.getPayoutSettings(app.config),
  );

  app.get(
    '/api/payout-batches/candidates',
    { config: { access: 'admin', cache: true }, schema: { querystring: z.object(pageQuery), response: { 200: z.array(payoutCandidateSchema) } } },
    async (request, reply) => {
      const { items, total } = await payouts.listCandidates({ db: app.db, page: request.query });
      setTotal(reply, total);
      return items;
    },
  );

  app.get(
    '/api/payout-batches',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: payoutBatchFiltersSchema.extend(pageQuery), response: { 200: z.array(payoutBatchSchema) } },
    },
    async (request, reply) => {
      const { limit, offset, ...filters } = request.query;
      const { items, total } = await payouts.listBatches({ db: app.db, filters, page: { limit, offset } });
      setTotal(reply, total);
      return items;
    },
  );

  app.post(
    '/api/payout-batches',
    { config: { access: 'admin' }, schema: { body: createPayoutBatchRequestSchema, response: { 200: payoutBatchDetailSchema, 201: payoutBatchDetailSchema } } },
    async (request, reply) => {
      const result = await payouts.createBatch({ db: app.db, config: app.config, auth: requireAuth(request), request: request.body });
      return reply.status(result.created ? 201 : 200).send(result.batch);
    },
  );

  app.get(
    '/api/payout-batches/:id',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: payoutBatchDetailSchema } } },
    async (request) => payouts.getBatch({ db: app.db, batchId: request.params.id }),
  );

  app.get(
    '/api/payout-batches/:id/sepa.xml',
    { config: { access: 'admin' }, schema: { params: idParams } },
    async (request, reply) => {
      const file = await payouts.getBatchFile({ db: app.db, config: app.config, batchId: request.params.id });
      return reply
        .header('Content-Type', 'application/xml; charset=utf-8')
        .header('Content-Disposition', contentDisposition(file.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', 'sandbox')
        .header('Cache-Control', 'private, no-store')
        .send(file.xml);
    },
  );

  app.post(
    '/api/payout-batches/:id/pay',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: payoutBatchDetailSchema } } },
    async (request) => (await payouts.markBatchPaid({ db: app.db, auth: requireAuth(request), batchId: request.params.id })).batch,
  );

  app.post(
    '/api/payout-batches/:id/cancel',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: payoutBatchDetailSchema } } },
    async (request) => (await payouts.cancelBatch({ db: app.db, auth: requireAuth(request), batchId: request.params.id })).batch,
  );

  app.post(
    '/api/payout-batches/:id/lines/:lineId/refuse',
    { config: { access: 'admin' }, schema: { params: z.object({ id: uuid, lineId: uuid }), response: { 200: payoutBatchDetailSchema } } },
    async (request) => (await payouts.refuseLine({ db: app.db, auth: requireAuth(request), batchId: request.params.id, lineId: request.params.lineId })).batch,
  );
};
