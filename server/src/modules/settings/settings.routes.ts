import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminSettingsSchema, auditEntrySchema, outboxEmailDetailSchema, outboxEmailSchema } from '@maillon/common/schemas/settings';
import { pageQuery, setTotal } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import { getAdminSettings, getOutboxEmail, listAuditEntries, listOutboxEmails } from './settings.service';

/** Admin settings: account, mail provider (outbox), integrations (issue 8). */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/settings',
    { config: { access: 'admin' }, schema: { response: { 200: adminSettingsSchema } } },
    async (request) => getAdminSettings(app.db, { config: app.config, storage: app.storage, adminEmail: requireAuth(request).email }),
  );

  app.get(
    '/api/admin/settings/emails',
    { config: { access: 'admin' }, schema: { querystring: z.object(pageQuery), response: { 200: z.array(outboxEmailSchema) } } },
    async (request, reply) => {
      const { items, total } = await listOutboxEmails(app.db, request.query);
      setTotal(reply, total);
      return items;
    },
  );

  app.get(
    '/api/admin/settings/emails/:id',
    {
      config: { access: 'admin' },
      schema: { params: z.object({ id: z.string().uuid('Identifiant invalide') }), response: { 200: outboxEmailDetailSchema } },
    },
    async (request) => getOutboxEmail(app.db, { id: request.params.id }),
  );

  app.get(
    '/api/admin/audit',
    { config: { access: 'admin', cache: true }, schema: { querystring: z.object(pageQuery), response: { 200: z.array(auditEntrySchema) } } },
    async (request, reply) => {
      const { items, total } = await listAuditEntries(app.db, request.query);
      setTotal(reply, total);
      return items;
    },
  );
};
