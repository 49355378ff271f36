import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminBatchSchema,
  batchListQuerySchema,
  completedBatchSchema,
  createBatchRequestSchema,
  updateBatchRequestSchema,
} from '@maillon/common/schemas/admin-lots';
import { pageQuery, sendPageText } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import {
  completeBatchAsAdmin,
  createBatch,
  deleteBatch,
  getBatch,
  getSystemBatch,
  listActiveBatches,
  listCompletedBatches,
  updateBatch,
} from './admin-lots.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });
const admin = { access: 'admin' as const };
/** Admin reads answered from the read cache while their tables are unchanged (plugins/read-cache.ts). */
const adminRead = { access: 'admin' as const, cache: true };
const listQuery = batchListQuerySchema.extend(pageQuery);

/** Admin lots: CRUD, completed lots, complete (issue 7). */
export const adminLotsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/mission-batches',
    { config: adminRead, schema: { querystring: listQuery, response: { 200: z.array(adminBatchSchema) } } },
    async (request, reply) => {
      return sendPageText(reply, await listActiveBatches(app.db, request.query));
    },
  );

  app.get(
    '/api/mission-batches/completed',
    { config: adminRead, schema: { querystring: listQuery, response: { 200: z.array(completedBatchSchema) } } },
    async (request, reply) => sendPageText(reply, await listCompletedBatches(app.db, request.query)),
  );

  app.get('/api/mission-batches/system', { config: adminRead, schema: { response: { 200: adminBatchSchema } } }, async () =>
    getSystemBatch(app.db),
  );

  app.get(
    '/api/mission-batches/:id',
    { config: adminRead, schema: { params: idParams, response: { 200: adminBatchSchema } } },
    async (request) => getBatch(app.db, request.params.id),
  );

  app.post(
    '/api/mission-batches',
    { config: admin, schema: { body: createBatchRequestSchema, response: { 201: adminBatchSchema } } },
    async (request, reply) => {
      const batch = await createBatch(app.db, { body: request.body, actorUserId: requireAuth(request).userId });
      return reply.status(201).send(batch);
    },
  );

  app.put(
    '/api/mission-batches/:id',
    { config: admin, schema: { params: idParams, body: updateBatchRequestSchema, response: { 200: adminBatchSchema } } },
    async (request) => updateBatch(app.db, { batchId: request.params.id, body: request.body, actorUserId: requireAuth(request).userId }),
  );

  app.delete(
    '/api/mission-batches/:id',
    { config: admin, schema: { params: idParams, response: { 200: z.object({ success: z.literal(true) }) } } },
    async (request) => {
      await deleteBatch(app.db, { batchId: request.params.id, actorUserId: requireAuth(request).userId });
      return { success: true as const };
    },
  );

  app.put(
    '/api/mission-batches/:id/complete',
    { config: admin, schema: { params: idParams, response: { 200: adminBatchSchema } } },
    async (request) => completeBatchAsAdmin(app.db, { batchId: request.params.id, actorUserId: requireAuth(request).userId }),
  );
};
