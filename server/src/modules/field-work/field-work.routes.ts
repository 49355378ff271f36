import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCommentRequestSchema,
  applicationTransitionSchema,
  applicationWorkSchema,
  batchFiguresSchema,
  clientNotificationRequestSchema,
  clientNotificationResponseSchema,
  createProgressRequestSchema,
  defibrillatorsDoneRequestSchema,
  distanceRequestSchema,
  distanceResultSchema,
  missionIdField,
  missionProgressSchema,
  progressPatchSchema,
  routeMapSchema,
  sortRouteResponseSchema,
  technicianIdField,
  technicianLotCommentRequestSchema,
  technicianLotCommentSchema,
} from '@maillon/common/schemas/field-work';
import { pageQuery, sendJsonText, setTotal } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import { publicOrigin } from '../appointments/appointments.service';
import * as service from './field-work.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });
const progressParams = z.object({ missionId: missionIdField, technicianId: technicianIdField });

/** Recruited work: lot details, progress, complete/cancel, client notification, distances and route sorting (issue 5). */
export const fieldWorkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/applications/:id/work',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: idParams, response: { 200: applicationWorkSchema } } },
    // Sent as written (decision 068): the schema documents the answer, field-work.test.ts checks it.
    async (request, reply) => sendJsonText(reply, await service.getApplicationWorkText(app.db, { auth: requireAuth(request), applicationId: request.params.id })),
  );

  app.patch(
    '/api/applications/:id/complete',
    { config: { access: 'technician-or-admin' }, schema: { params: idParams, response: { 200: applicationTransitionSchema } } },
    async (request) => service.completeApplication(app.db, app.config, { auth: requireAuth(request), applicationId: request.params.id }),
  );

  app.patch(
    '/api/applications/:id/cancel',
    { config: { access: 'technician' }, schema: { params: idParams, response: { 200: applicationTransitionSchema } } },
    async (request) => service.cancelOwnApplication(app.db, app.config, { auth: requireAuth(request), applicationId: request.params.id }),
  );

  app.post(
    '/api/applications/:id/sort-route',
    { config: { access: 'technician-or-admin' }, schema: { params: idParams, response: { 200: sortRouteResponseSchema } } },
    async (request) => service.sortRoute(app.db, app.config, { auth: requireAuth(request), applicationId: request.params.id }),
  );

  app.get(
    '/api/applications/:id/route-map',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: idParams, response: { 200: routeMapSchema } } },
    async (request) => service.getRouteMap(app.db, app.config, { auth: requireAuth(request), applicationId: request.params.id }),
  );

  // "Commentaire pour l'admin": one per lot, stored in the comments table with authorRole 'technician'.
  app.get(
    '/api/applications/:id/technician-comment',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: idParams, response: { 200: technicianLotCommentSchema } } },
    async (request) => service.getTechnicianLotComment(app.db, { auth: requireAuth(request), applicationId: request.params.id }),
  );

  app.put(
    '/api/applications/:id/technician-comment',
    {
      config: { access: 'technician' },
      schema: { params: idParams, body: technicianLotCommentRequestSchema, response: { 200: technicianLotCommentSchema } },
    },
    async (request) =>
      service.saveTechnicianLotComment(app.db, { auth: requireAuth(request), applicationId: request.params.id, content: request.body.content }),
  );

  app.get(
    '/api/technician-mission-data/all/:technicianId',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { params: z.object({ technicianId: technicianIdField }), querystring: z.object(pageQuery), response: { 200: z.array(missionProgressSchema) } },
    },
    async (request, reply) => {
      const { items, total } = await service.listMissionProgress(app.db, { auth: requireAuth(request), technicianId: request.params.technicianId, ...request.query });
      setTotal(reply, total);
      return items;
    },
  );

  app.get(
    '/api/technician-mission-data/:missionId/:technicianId',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: progressParams, response: { 200: missionProgressSchema } } },
    async (request) => service.getMissionProgress(app.db, { auth: requireAuth(request), ...request.params }),
  );

  app.patch(
    '/api/technician-mission-data/:missionId/:technicianId',
    { config: { access: 'technician-or-admin' }, schema: { params: progressParams, body: progressPatchSchema, response: { 200: missionProgressSchema } } },
    async (request) => service.updateMissionProgress(app.db, app.config, { auth: requireAuth(request), ...request.params, patch: request.body }),
  );

  app.post(
    '/api/technician-mission-data',
    { config: { access: 'technician-or-admin' }, schema: { body: createProgressRequestSchema, response: { 200: missionProgressSchema } } },
    async (request) => {
      const { missionId, technicianId, ...patch } = request.body;
      return service.updateMissionProgress(app.db, app.config, { auth: requireAuth(request), missionId, technicianId, patch });
    },
  );

  app.patch(
    '/api/technician-mission-data/:missionId/:technicianId/admin-comment',
    { config: { access: 'admin' }, schema: { params: progressParams, body: adminCommentRequestSchema, response: { 200: missionProgressSchema } } },
    async (request) => service.updateAdminComment(app.db, { auth: requireAuth(request), ...request.params, adminComments: request.body.adminComments }),
  );

  app.patch(
    '/api/mission-batches/:id/defibrillators-done',
    { config: { access: 'technician-or-admin' }, schema: { params: idParams, body: defibrillatorsDoneRequestSchema, response: { 200: batchFiguresSchema } } },
    async (request) => service.refreshBatchFigures(app.db, { auth: requireAuth(request), batchId: request.params.id }),
  );

  app.post(
    '/api/emails/client-notification',
    { config: { access: 'technician-or-admin' }, schema: { body: clientNotificationRequestSchema, response: { 200: clientNotificationResponseSchema } } },
    async (request) =>
      service.notifyClient(app.db, app.config, {
        auth: requireAuth(request),
        ...request.body,
        origin: publicOrigin(app.config, `${request.protocol}://${request.host}`),
      }),
  );

  app.post(
    '/api/calculate-distance',
    { config: { access: 'user' }, schema: { body: distanceRequestSchema, response: { 200: distanceResultSchema } } },
    async (request) => service.calculateDistance(app.config, request.body),
  );
};
