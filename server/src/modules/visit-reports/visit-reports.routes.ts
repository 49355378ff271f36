import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { REPORT_MESSAGES } from '@maillon/common/device-rules';
import {
  deletePhotoResponseSchema,
  photoIdField,
  reportIdField,
  saveReportDraftRequestSchema,
  saveReportRequestSchema,
  visitPhotoSchema,
  visitReportContextSchema,
  visitReportSchema,
} from '@maillon/common/schemas/visit-reports';
import { missionIdField } from '@maillon/common/schemas/field-work';
import { AppError } from '../../lib/app-error';
import { sendStoredObject } from '../../lib/download';
import { readFilePart } from '../../lib/files';
import { requireAuth } from '../../plugins/access';
import * as service from './visit-reports.service';

const missionParams = z.object({ missionId: missionIdField });
const photoParams = z.object({ missionId: missionIdField, photoId: photoIdField });

/**
 * One photo per request: the multipart form holds the report's id (`reportId`, made by the phone) and the image
 * (`file`, JPEG or PNG, 10 MB at most). Every part is read before anything is checked, so the connection stays clean.
 */
async function readPhotoForm(request: FastifyRequest): Promise<{ reportId: string; buffer: Buffer }> {
  if (!request.isMultipart()) throw new AppError('BAD_REQUEST', 'Envoyez la photo dans un formulaire multipart (champs reportId et file)');
  let reportId: string | undefined;
  let buffer: Buffer | undefined;
  let tooLarge = false;
  const isTooLarge = (error: unknown) => {
    const code = (error as { code?: string }).code;
    return (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') || code === 'FST_REQ_FILE_TOO_LARGE';
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        try {
          const bytes = await readFilePart(part);
          if (part.fieldname === 'file' && buffer === undefined) buffer = bytes;
        } catch (error) {
          if (!isTooLarge(error)) throw error;
          tooLarge = true;
        }
      } else if (part.fieldname === 'reportId') {
        reportId = typeof part.value === 'string' ? part.value : undefined;
      }
    }
  } catch (error) {
    if (!isTooLarge(error)) throw error;
    tooLarge = true;
  }
  // A photo over 10 MB is a refused file like any other: 400 with its reason (the acceptance).
  if (tooLarge) throw new AppError('INVALID_FILE', REPORT_MESSAGES.photoTooLarge, { file: REPORT_MESSAGES.photoTooLarge });
  const parsed = reportIdField.safeParse(reportId);
  if (!parsed.success) throw new AppError('VALIDATION_ERROR', 'Identifiant de rapport invalide', { reportId: 'Identifiant de rapport invalide' });
  if (!buffer || buffer.length === 0) throw new AppError('VALIDATION_ERROR', 'Joignez la photo (champ file)', { file: 'Photo manquante' });
  return { reportId: parsed.data, buffer };
}

/** The visit report of a device of a Recruté lot: drafts, photos, the complete report and its PV (issue 16). */
export const visitReportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/missions/:missionId/visit-report',
    { config: { access: 'technician-or-admin' }, schema: { params: missionParams, response: { 200: visitReportContextSchema } } },
    async (request) => service.getVisitReportContext(app.db, app.storage, { auth: requireAuth(request), missionId: request.params.missionId }),
  );

  app.put(
    '/api/missions/:missionId/visit-report/draft',
    { config: { access: 'technician' }, schema: { params: missionParams, body: saveReportDraftRequestSchema, response: { 200: visitReportSchema } } },
    async (request) => service.saveReportDraft(app.db, app.storage, { auth: requireAuth(request), missionId: request.params.missionId, body: request.body }),
  );

  app.put(
    '/api/missions/:missionId/visit-report',
    { config: { access: 'technician' }, schema: { params: missionParams, body: saveReportRequestSchema, response: { 200: visitReportContextSchema } } },
    async (request) => service.saveFinalReport(app.db, app.storage, app.config, { auth: requireAuth(request), missionId: request.params.missionId, body: request.body }),
  );

  app.put(
    '/api/missions/:missionId/visit-report/photos/:photoId',
    { config: { access: 'technician' }, schema: { params: photoParams, response: { 200: visitPhotoSchema } } },
    async (request) => {
      const form = await readPhotoForm(request);
      return service.uploadReportPhoto(app.db, app.storage, { auth: requireAuth(request), ...request.params, ...form });
    },
  );

  app.delete(
    '/api/missions/:missionId/visit-report/photos/:photoId',
    { config: { access: 'technician' }, schema: { params: photoParams, response: { 200: deletePhotoResponseSchema } } },
    async (request) => service.deleteReportPhoto(app.db, app.storage, { auth: requireAuth(request), ...request.params }),
  );

  app.get(
    '/api/missions/:missionId/visit-report/photos/:photoId',
    { config: { access: 'technician-or-admin' }, schema: { params: photoParams } },
    async (request, reply) => sendStoredObject(reply, app.storage, await service.findReportPhoto(app.db, { auth: requireAuth(request), ...request.params }), 'Photo introuvable'),
  );

  app.get(
    '/api/missions/:missionId/visit-report/pdf',
    { config: { access: 'technician-or-admin' }, schema: { params: missionParams } },
    async (request, reply) => sendStoredObject(reply, app.storage, await service.findMissionReportPdf(app.db, { auth: requireAuth(request), missionId: request.params.missionId }), 'Procès-verbal introuvable'),
  );

  app.get(
    '/api/visit-reports/:id/pdf',
    { config: { access: 'technician-or-admin' }, schema: { params: z.object({ id: reportIdField }) } },
    async (request, reply) => sendStoredObject(reply, app.storage, await service.findReportPdf(app.db, { auth: requireAuth(request), reportId: request.params.id }), 'Procès-verbal introuvable'),
  );
};
