import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createDeviceRequestSchema,
  deviceDetailSchema,
  deviceListItemSchema,
  deviceListQuerySchema,
  deviceSchema,
  geodaeExportCheckSchema,
  geodaeExportQuerySchema,
  updateDeviceRequestSchema,
} from '@maillon/common/schemas/devices';
import { sendDocument } from '../../lib/download';
import { pageQuery, sendPageText } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import * as service from './devices.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });

/** The device registry (Parc DAE), its labels and the Géo'DAE export (issue 16). */
export const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/devices',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: deviceListQuerySchema.extend(pageQuery), response: { 200: z.array(deviceListItemSchema) } },
    },
    async (request, reply) => {
      return sendPageText(reply, await service.listDevices(app.db, request.query));
    },
  );

  app.post(
    '/api/devices',
    { config: { access: 'admin' }, schema: { body: createDeviceRequestSchema, response: { 201: deviceSchema } } },
    async (request, reply) => reply.status(201).send(await service.createDevice(app.db, { body: request.body, actorUserId: requireAuth(request).userId })),
  );

  app.get(
    '/api/devices/geodae-export/check',
    { config: { access: 'admin' }, schema: { querystring: geodaeExportQuerySchema, response: { 200: geodaeExportCheckSchema } } },
    async (request) => {
      const { rows: _rows, ...check } = await service.checkGeodaeExport(app.db, app.config, request.query);
      return check;
    },
  );

  app.get(
    '/api/devices/geodae-export',
    { config: { access: 'admin' }, schema: { querystring: geodaeExportQuerySchema } },
    async (request, reply) => {
      const file = await service.buildGeodaeExport(app.db, app.config, request.query);
      reply.header('X-Exported-Count', String(file.exported)).header('X-Excluded-Count', String(file.excluded));
      return sendDocument(reply, { body: file.csv, fileName: file.fileName, contentType: 'text/csv; charset=utf-8' });
    },
  );

  app.get(
    '/api/devices/:id',
    { config: { access: 'admin', cache: true }, schema: { params: idParams, response: { 200: deviceDetailSchema } } },
    async (request) => service.getDeviceDetail(app.db, request.params.id),
  );

  app.patch(
    '/api/devices/:id',
    { config: { access: 'admin' }, schema: { params: idParams, body: updateDeviceRequestSchema, response: { 200: deviceSchema } } },
    async (request) => service.updateDevice(app.db, { deviceId: request.params.id, body: request.body, actorUserId: requireAuth(request).userId }),
  );

  app.get('/api/devices/:id/label', { config: { access: 'admin' }, schema: { params: idParams } }, async (request, reply) => {
    const label = await service.buildDeviceLabel(app.db, app.config, request.params.id);
    return sendDocument(reply, { body: label.bytes, fileName: label.fileName, contentType: 'application/pdf' });
  });

  app.get('/api/mission-batches/:id/labels', { config: { access: 'technician-or-admin' }, schema: { params: idParams } }, async (request, reply) => {
    const sheet = await service.buildLotLabels(app.db, app.config, { auth: requireAuth(request), batchId: request.params.id });
    return sendDocument(reply, { body: sheet.bytes, fileName: sheet.fileName, contentType: 'application/pdf' });
  });
};
