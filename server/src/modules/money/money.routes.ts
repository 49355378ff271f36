import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TRANSFER_STATUSES } from '@maillon/common/enums';
import { eurosToCents } from '@maillon/common/format';
import {
  INVOICE_SUBMIT_MESSAGES,
  adminInvoiceFiltersSchema,
  adminInvoiceSchema,
  adminTransferSchema,
  invoiceChipCountsSchema,
  invoiceFileSchema,
  technicianOptionSchema,
  revenueSummarySchema,
  submitInvoiceFieldsSchema,
  submitInvoiceResponseSchema,
  technicianInvoiceSchema,
  technicianOptionsQuerySchema,
  technicianTransferSchema,
  updateInvoiceRequestSchema,
  updateInvoiceStatusRequestSchema,
  updateTransferStatusRequestSchema,
} from '@maillon/common/schemas/money';
import { invoiceInspectionSchema } from '@maillon/common/schemas/e-invoice';
import { AppError, type FieldErrors } from '../../lib/app-error';
import { readFilePart } from '../../lib/files';
import { pageQuery, sendPageText, setTotal } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import * as money from './money.service';

const uuid = z.string().uuid('Identifiant invalide');
const idParams = z.object({ id: uuid });

/** Reads the submission form (multipart): the text fields and the invoice_file part, at most 10 MB. */
async function readSubmission(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let file: { buffer: Buffer; fileName: string } | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const buffer = await readFilePart(part);
      if (part.fieldname === 'invoice_file' && !file && buffer.length > 0) file = { buffer, fileName: part.filename || 'facture.pdf' };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  const parsed = submitInvoiceFieldsSchema.safeParse(fields);
  const errors: FieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? '_')] ??= issue.message;
  }
  if (!file) errors.invoice_file = INVOICE_SUBMIT_MESSAGES.fileRequired;
  if (!parsed.success || !file) {
    const order = ['reference', 'invoice_file', 'amount_certified'];
    const first = order.map((k) => errors[k]).find(Boolean) ?? Object.values(errors)[0]!;
    throw new AppError('VALIDATION_ERROR', first, errors);
  }
  return { reference: parsed.data.reference, amountCertifiedCents: eurosToCents(parsed.data.amount_certified), file };
}

/** Reads only the invoice_file part of a multipart form (the inspection of a chosen PDF). */
async function readInvoiceFile(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError('VALIDATION_ERROR', INVOICE_SUBMIT_MESSAGES.fileRequired, { invoice_file: INVOICE_SUBMIT_MESSAGES.fileRequired });
  let file: { buffer: Buffer } | null = null;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    const buffer = await readFilePart(part);
    if (part.fieldname === 'invoice_file' && !file && buffer.length > 0) file = { buffer };
  }
  if (!file) throw new AppError('VALIDATION_ERROR', INVOICE_SUBMIT_MESSAGES.fileRequired, { invoice_file: INVOICE_SUBMIT_MESSAGES.fileRequired });
  return file;
}

/** Invoices, transfers, invoice submission, fiscal receipt — technician and admin (issue 6). */
export const moneyRoutes: FastifyPluginAsyncZod = async (app) => {
  /* ---------------------------------------------------------------- technician ---------------------------------------------------------------- */

  app.get(
    '/api/technician/:id/invoices',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { params: idParams, querystring: z.object(pageQuery), response: { 200: z.array(technicianInvoiceSchema) } },
    },
    async (request, reply) =>
      sendPageText(reply, await money.getTechnicianInvoicesText({ db: app.db, auth: requireAuth(request), technicianId: request.params.id, page: request.query })),
  );

  app.get(
    '/api/technician/:id/transfers',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: { params: idParams, querystring: z.object(pageQuery), response: { 200: z.array(technicianTransferSchema) } },
    },
    async (request, reply) =>
      sendPageText(reply, await money.getTechnicianTransfersText({ db: app.db, auth: requireAuth(request), technicianId: request.params.id, page: request.query })),
  );

  app.get(
    '/api/technician/:id/revenue-summary',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: idParams, response: { 200: revenueSummarySchema } } },
    async (request) => money.getRevenueSummary({ db: app.db, auth: requireAuth(request), technicianId: request.params.id }),
  );

  app.post(
    '/api/invoice/:id/submit',
    { config: { access: 'technician' }, schema: { params: idParams, response: { 200: submitInvoiceResponseSchema, 201: submitInvoiceResponseSchema } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const submission = await readSubmission(request);
      const result = await money.submitInvoice({ db: app.db, storage: app.storage, config: app.config, auth, invoiceId: request.params.id, ...submission });
      return reply.status(result.created ? 201 : 200).send({ invoice: result.invoice, transfer: result.transfer });
    },
  );

  app.post(
    '/api/invoice/:id/inspect',
    { config: { access: 'technician' }, schema: { params: idParams, response: { 200: invoiceInspectionSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      const file = await readInvoiceFile(request);
      return money.inspectInvoice({ db: app.db, config: app.config, auth, invoiceId: request.params.id, buffer: file.buffer });
    },
  );

  app.get(
    '/api/invoices/:invoiceId/fiscal-receipt',
    { config: { access: 'technician-or-admin' }, schema: { params: z.object({ invoiceId: uuid }) } },
    async (request, reply) => {
      const receipt = await money.getFiscalReceipt({ db: app.db, config: app.config, auth: requireAuth(request), invoiceId: request.params.invoiceId });
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `inline; filename="${receipt.fileName}"`)
        .header('X-Content-Type-Options', 'nosniff')
        // Our own generated PDF: no default-src/object-src here, Chrome's built-in viewer is an <embed> they would block.
        .header('Content-Security-Policy', "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        .header('Cache-Control', 'private, no-store')
        .header('X-Receipt-Reference', receipt.reference)
        .send(Buffer.from(receipt.pdf));
    },
  );

  /* ------------------------------------------------------------------ admin ------------------------------------------------------------------ */

  app.get(
    '/api/invoices',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: adminInvoiceFiltersSchema.extend(pageQuery), response: { 200: z.array(adminInvoiceSchema) } },
    },
    async (request, reply) => {
      const { limit, offset, ...filters } = request.query;
      return sendPageText(reply, await money.listInvoices({ db: app.db, filters, page: { limit, offset } }));
    },
  );

  app.get(
    '/api/invoices/status-counts',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: adminInvoiceFiltersSchema.omit({ status: true }), response: { 200: invoiceChipCountsSchema } },
    },
    async (request) => money.countInvoiceChips({ db: app.db, filters: request.query }),
  );

  app.get(
    '/api/invoices/technicians',
    {
      config: { access: 'admin', cache: true },
      schema: { querystring: technicianOptionsQuerySchema, response: { 200: z.array(technicianOptionSchema) } },
    },
    async (request) => money.listInvoiceTechnicians({ db: app.db, query: request.query }),
  );

  app.get(
    '/api/invoices/export.csv',
    { config: { access: 'admin' }, schema: { querystring: adminInvoiceFiltersSchema } },
    async (request, reply) => {
      const csv = await money.exportInvoicesCsv({ db: app.db, filters: request.query });
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="factures-${day}.csv"`)
        .send(csv);
    },
  );

  app.get(
    '/api/transfers',
    {
      config: { access: 'admin', cache: true },
      schema: {
        querystring: z.object({
          technicianId: uuid.optional(),
          invoiceId: uuid.optional(),
          status: z.enum(TRANSFER_STATUSES, { error: 'Statut invalide' }).optional(),
          ...pageQuery,
        }),
        response: { 200: z.array(adminTransferSchema) },
      },
    },
    async (request, reply) => {
      const { limit, offset, ...filters } = request.query;
      const { items, total } = await money.listTransfers({ db: app.db, filters, page: { limit, offset } });
      setTotal(reply, total);
      return items;
    },
  );

  app.get(
    '/api/invoice-files',
    {
      config: { access: 'admin', cache: true },
      schema: {
        querystring: z.object({ technicianId: uuid.optional(), invoiceId: uuid.optional(), ...pageQuery }),
        response: { 200: z.array(invoiceFileSchema) },
      },
    },
    async (request, reply) => {
      const { limit, offset, ...filters } = request.query;
      const { items, total } = await money.listInvoiceFiles({ db: app.db, filters, page: { limit, offset } });
      setTotal(reply, total);
      return items;
    },
  );

  app.patch(
    '/api/transfers/status',
    { config: { access: 'admin' }, schema: { body: updateTransferStatusRequestSchema, response: { 200: adminInvoiceSchema } } },
    async (request) => {
      const result = await money.updateTransferStatus({ db: app.db, auth: requireAuth(request), ...request.body });
      return result.invoice;
    },
  );

  app.patch(
    '/api/invoices/:id/status',
    { config: { access: 'admin' }, schema: { params: idParams, body: updateInvoiceStatusRequestSchema, response: { 200: adminInvoiceSchema } } },
    async (request) => {
      const result = await money.archiveInvoice({ db: app.db, auth: requireAuth(request), invoiceId: request.params.id });
      return result.invoice;
    },
  );

  app.put(
    '/api/invoices/:id',
    { config: { access: 'admin' }, schema: { params: idParams, body: updateInvoiceRequestSchema, response: { 200: adminInvoiceSchema } } },
    async (request) => money.updateInvoice({ db: app.db, auth: requireAuth(request), invoiceId: request.params.id, patch: request.body }),
  );
};
