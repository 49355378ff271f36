import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calendarFeedSchema, proposalAnswerResponseSchema, siteProposalRequestSchema, siteVisitSchema } from '@maillon/common/schemas/appointments';
import { missionIdField, technicianIdField } from '@maillon/common/schemas/field-work';
import { notModified } from '../../lib/http-cache';
import { requireAuth } from '../../plugins/access';
import * as service from './appointments.service';

// Any string: a malformed token gets the same 404 as an unknown one, never a validation answer that would differ.
const tokenParams = z.object({ token: z.string() });
const technicianParams = z.object({ id: technicianIdField });
const visitParams = z.object({ missionId: missionIdField, technicianId: technicianIdField });

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Appointments (issue 19): the site contact's link, the technician's answer, the private calendar feed. */
export const appointmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/site-visits/:token',
    { config: { access: 'public' }, schema: { params: tokenParams, response: { 200: siteVisitSchema } } },
    async (request) => service.getSiteVisit(app.db, { token: request.params.token, ip: request.ip }),
  );

  app.post(
    '/api/site-visits/:token/confirm',
    { config: { access: 'public' }, schema: { params: tokenParams, response: { 200: siteVisitSchema } } },
    async (request) => service.confirmSiteVisit(app.db, app.config, { token: request.params.token, ip: request.ip }),
  );

  app.post(
    '/api/site-visits/:token/propose',
    { config: { access: 'public' }, schema: { params: tokenParams, body: siteProposalRequestSchema, response: { 200: siteVisitSchema } } },
    async (request) => service.proposeSiteVisit(app.db, app.config, { token: request.params.token, ip: request.ip, proposal: request.body }),
  );

  for (const [path, decision] of [
    ['accept', 'accepted'],
    ['refuse', 'refused'],
  ] as const) {
    app.post(
      `/api/technician-mission-data/:missionId/:technicianId/site-proposal/${path}`,
      { config: { access: 'technician' }, schema: { params: visitParams, response: { 200: proposalAnswerResponseSchema } } },
      async (request) => {
        requireAuth(request);
        return service.answerProposal(app.db, app.config, {
          ...request.params,
          decision,
          origin: service.publicOrigin(app.config, requestOrigin(request)),
        });
      },
    );
  }

  app.get(
    '/api/technicians/:id/calendar-feed',
    { config: { access: 'technician' }, schema: { params: technicianParams, response: { 200: calendarFeedSchema } } },
    async (request) => {
      requireAuth(request);
      return service.getCalendarFeed(app.db, { technicianId: request.params.id });
    },
  );

  app.post(
    '/api/technicians/:id/calendar-feed',
    { config: { access: 'technician' }, schema: { params: technicianParams, response: { 200: calendarFeedSchema } } },
    async (request, reply) => {
      requireAuth(request);
      reply.header('Cache-Control', 'no-store');
      return service.regenerateCalendarFeed(app.db, {
        technicianId: request.params.id,
        origin: service.publicOrigin(app.config, requestOrigin(request)),
      });
    },
  );

  // The private feed calendar apps subscribe to: the token is the only credential (no session, no cookie).
  app.get('/api/calendar/:token.ics', { config: { access: 'public' }, schema: { params: tokenParams } }, async (request, reply) => {
    const { body, etag } = await service.renderCalendarFeed(app.db, app.config, { token: request.params.token, ip: request.ip });
    reply.header('ETag', etag);
    reply.header('Cache-Control', 'private, no-cache');
    reply.header('X-Robots-Tag', 'noindex');
    if (notModified(request, etag)) return reply.code(304).send();
    return reply.type('text/calendar; charset=utf-8').header('Content-Disposition', 'inline; filename="maillon.ics"').send(body);
  });
};
