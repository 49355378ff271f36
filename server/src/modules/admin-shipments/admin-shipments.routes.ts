import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createShipmentRequestSchema,
  shipmentListQuerySchema,
  shipmentLotOptionSchema,
  shipmentLotOptionsQuerySchema,
  shipmentSchema,
  shipmentSummarySchema,
  updateShipmentRequestSchema,
} from '@maillon/common/schemas/shipments';
import { technicianOptionSchema, technicianOptionsQuerySchema } from '@maillon/common/schemas/money';
import { pageQuery, sendPageText } from '../../lib/pagination';
import {
  cancelShipment,
  createShipment,
  getShipmentSummary,
  listShipmentLotOptions,
  listShipmentTechnicians,
  listShipments,
  shipShipment,
  updateShipment,
} from './admin-shipments.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });

/** Admin shipments (issue 8). The technician's own parcels live in the parcels module. */
export const adminShipmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/shipments/admin',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: shipmentListQuerySchema.extend(pageQuery), response: { 200: z.array(shipmentSchema) } },
    },
    async (request, reply) => {
      return sendPageText(reply, await listShipments(app.db, request.query));
    },
  );

  app.get(
    '/api/shipments/admin/summary',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: shipmentListQuerySchema.omit({ status: true }), response: { 200: shipmentSummarySchema } },
    },
    async (request) => getShipmentSummary(app.db, request.query),
  );

  app.get(
    '/api/shipments/admin/technicians',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: technicianOptionsQuerySchema, response: { 200: z.array(technicianOptionSchema) } },
    },
    async (request) => listShipmentTechnicians(app.db, request.query),
  );

  app.get(
    '/api/shipments/admin/lot-options',
    {
      config: { access: 'admin', cache: true },
      schema: {
        querystring: shipmentLotOptionsQuerySchema,
        response: { 200: z.array(shipmentLotOptionSchema) },
      },
    },
    async (request) => listShipmentLotOptions(app.db, request.query),
  );

  app.post(
    '/api/shipments',
    { config: { access: 'admin' }, schema: { body: createShipmentRequestSchema, response: { 201: shipmentSchema } } },
    async (request, reply) => {
      const shipment = await createShipment(app.db, request.body);
      return reply.status(201).send(shipment);
    },
  );

  app.patch(
    '/api/shipments/:id',
    {
      config: { access: 'admin' },
      schema: { params: idParams, body: updateShipmentRequestSchema, response: { 200: shipmentSchema } },
    },
    async (request) => updateShipment(app.db, request.params.id, request.body),
  );

  app.patch(
    '/api/shipments/:id/cancel',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: shipmentSchema } } },
    async (request) => cancelShipment(app.db, request.params.id),
  );

  app.patch(
    '/api/shipments/:id/ship',
    { config: { access: 'admin' }, schema: { params: idParams, response: { 200: shipmentSchema } } },
    async (request) => shipShipment(app.db, request.params.id),
  );
};
