import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  consumableRequestSchema,
  consumableSchema,
  createPartsShipmentResponseSchema,
  lotPartsSchema,
  partsProposalsPageSchema,
  partsProposalsQuerySchema,
  partsSettingsSchema,
  unusedPartSchema,
  workPartsSchema,
} from '@maillon/common/schemas/parts';
import { requireAuth } from '../../plugins/access';
import { sendJsonText } from '../../lib/pagination';
import * as service from './parts.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });

/** Parts follow expiry dates (issue 20): consumables per model, Réglages, each lot's proposed parcel, unused parts. */
export const partsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/consumables',
    { config: { access: 'admin', cache: true }, schema: { response: { 200: z.array(consumableSchema) } } },
    async () => service.listConsumables(app.db),
  );

  app.post(
    '/api/admin/consumables',
    { config: { access: 'admin' }, schema: { body: consumableRequestSchema, response: { 201: consumableSchema } } },
    async (request, reply) => reply.status(201).send(await service.createConsumable(app.db, requireAuth(request).userId, request.body)),
  );

  app.put(
    '/api/admin/consumables/:id',
    { config: { access: 'admin' }, schema: { params: idParams, body: consumableRequestSchema, response: { 200: consumableSchema } } },
    async (request) => service.updateConsumable(app.db, requireAuth(request).userId, request.params.id, request.body),
  );

  app.delete(
    '/api/admin/consumables/:id',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await service.deleteConsumable(app.db, requireAuth(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/admin/parts-settings',
    { config: { access: 'admin', cache: true }, schema: { response: { 200: partsSettingsSchema } } },
    async () => service.getPartsSettings(app.db),
  );

  app.put(
    '/api/admin/parts-settings',
    { config: { access: 'admin' }, schema: { body: partsSettingsSchema, response: { 200: partsSettingsSchema } } },
    async (request) => service.savePartsSettings(app.db, requireAuth(request).userId, request.body),
  );

  app.get(
    '/api/admin/parts/proposals',
    { config: { access: 'admin', cache: true }, schema: { querystring: partsProposalsQuerySchema, response: { 200: partsProposalsPageSchema } } },
    // Sent as JSON text, as the lists PostgreSQL writes (decision 049): the page is built from typed objects, and
    // checking it again against its schema on the way out was a tenth of its Node time (decision 083).
    async (request, reply) => sendJsonText(reply, JSON.stringify(await service.listLotPartsSummaries(app.db, request.query))),
  );

  app.get(
    '/api/admin/mission-batches/:id/parts',
    { config: { access: 'admin', cache: true }, schema: { params: idParams, response: { 200: lotPartsSchema } } },
    async (request) => service.getLotParts(app.db, request.params.id),
  );

  app.post(
    '/api/admin/mission-batches/:id/parts/shipment',
    {
      config: { access: 'admin' },
      schema: { params: idParams, response: { 200: createPartsShipmentResponseSchema, 201: createPartsShipmentResponseSchema } },
    },
    async (request, reply) => {
      const result = await service.createPartsShipment(app.db, request.params.id);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  app.get(
    '/api/admin/mission-batches/:id/parts/unused',
    { config: { access: 'admin', cache: true }, schema: { params: idParams, response: { 200: z.array(unusedPartSchema) } } },
    async (request) => service.listUnusedParts(app.db, request.params.id),
  );

  app.get(
    '/api/applications/:id/parts',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: idParams, response: { 200: workPartsSchema } } },
    async (request) => service.getApplicationParts(app.db, request.params.id),
  );
};
