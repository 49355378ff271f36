import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountingExportQuerySchema, statementQuerySchema, statementYearSchema } from '@maillon/common/schemas/payout-batches';
import { contentDisposition } from '../../lib/files';
import { requireAuth } from '../../plugins/access';
import * as statements from './statements.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });

/** Yearly payment statements (PDF) and the accounting export of payments (CSV): issue 21. */
export const statementsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/technician/:id/statements',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: idParams, response: { 200: z.array(statementYearSchema) } } },
    async (request) => statements.listStatementYears({ db: app.db, auth: requireAuth(request), technicianId: request.params.id }),
  );

  app.get(
    '/api/technician/:id/statements/annual.pdf',
    { config: { access: 'technician-or-admin' }, schema: { params: idParams, querystring: statementQuerySchema } },
    async (request, reply) => {
      const statement = await statements.getAnnualStatement({
        db: app.db,
        config: app.config,
        auth: requireAuth(request),
        technicianId: request.params.id,
        year: request.query.year,
      });
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', contentDisposition(statement.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', 'sandbox')
        .header('Cache-Control', 'private, no-store')
        .send(Buffer.from(statement.pdf));
    },
  );

  app.get(
    '/api/payments/accounting.csv',
    { config: { access: 'admin' }, schema: { querystring: accountingExportQuerySchema } },
    async (request, reply) => {
      const journal = await statements.exportAccountingJournal({ db: app.db, query: request.query });
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', contentDisposition(journal.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .header('X-Payment-Count', String(journal.count))
        .send(journal.csv);
    },
  );
};
