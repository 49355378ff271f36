import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCommentRequestSchema,
  adminCommentResponseSchema,
  applicationStatusRequestSchema,
  applicationsQuerySchema,
  applicationWithTechnicianSchema,
  bulkDeleteMissionsRequestSchema,
  bulkResultSchema,
  createMissionRequestSchema,
  missionBatchRequestSchema,
  missionListQuerySchema,
  missionSchema,
  missionsMapQuerySchema,
  missionsMapSchema,
  moveMissionsRequestSchema,
  updateMissionRequestSchema,
} from '@maillon/common/schemas/admin-missions';
import {
  csvImportQuerySchema,
  csvImportResponseSchema,
  ingestRequestSchema,
  ingestResponseSchema,
  jobCountsSchema,
  jobListQuerySchema,
  jobSchema,
  jobStatusRequestSchema,
  manualVisitRequestSchema,
  updateJobRequestSchema,
} from '@maillon/common/schemas/moderation';
import { technicianMissionSchema } from '@maillon/common/schemas/field-work';
import { AppError } from '../../lib/app-error';
import { readFilePart } from '../../lib/files';
import { pageQuery, sendJsonText, sendPageText, setTotal } from '../../lib/pagination';
import { requireAuth } from '../../plugins/access';
import { listRecruitedMissions } from '../field-work/field-work.service';
import { decideApplication, listApplicationsWithTechnicians, saveAdminComment } from './ats.service';
import { getMissionsMapJson } from './missions-map.service';
import { decodeCsv, importJobsCsv } from './csv-import';
import {
  completeMission,
  createMission,
  deleteMissions,
  getMission,
  listMissions,
  moveMissions,
  publishMission,
  updateMission,
} from './missions.service';
import {
  countJobs,
  createManualJob,
  deleteJob,
  ingestJobs,
  listJobs,
  setJobStatus,
  updateJob,
  validateJob,
} from './moderation.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });
const success = z.object({ success: z.literal(true) });
const admin = { access: 'admin' as const };
/** Admin reads answered from the read cache while their tables are unchanged (plugins/read-cache.ts). */
const adminRead = { access: 'admin' as const, cache: true };
const CSV_MAX_BYTES = 5 * 1024 * 1024;

/** Admin moderation (jobs, ingestion, CSV), missions, ATS (issue 7); GET /api/missions also answers technicians (issue 14). */
export const adminMissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  // CSV import may also be sent as the raw text of the file (scripts); scoped to this module.
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: CSV_MAX_BYTES }, (_request, body, done) => done(null, body));

  // ---- Moderation (jobs) ----

  app.get(
    '/api/missions/moderation',
    { config: adminRead, schema: { querystring: jobListQuerySchema.extend(pageQuery), response: { 200: z.array(jobSchema) } } },
    async (request, reply) => {
      const { items, total } = await listJobs(app.db, { status: 'pending', ...request.query });
      setTotal(reply, total);
      return items;
    },
  );

  app.get(
    '/api/missions/refused',
    { config: adminRead, schema: { querystring: jobListQuerySchema.extend(pageQuery), response: { 200: z.array(jobSchema) } } },
    async (request, reply) => {
      const { items, total } = await listJobs(app.db, { status: 'refused', ...request.query });
      setTotal(reply, total);
      return items;
    },
  );

  app.get('/api/jobs/counts', { config: adminRead, schema: { response: { 200: jobCountsSchema } } }, async () => countJobs(app.db));

  app.post(
    '/api/missions/manual',
    { config: admin, schema: { body: manualVisitRequestSchema, response: { 201: jobSchema } } },
    async (request, reply) => {
      const job = await createManualJob(app.db, { fields: request.body, actorUserId: requireAuth(request).userId });
      return reply.status(201).send(job);
    },
  );

  app.put(
    '/api/jobs/:id',
    { config: admin, schema: { params: idParams, body: updateJobRequestSchema, response: { 200: jobSchema } } },
    async (request) => updateJob(app.db, { jobId: request.params.id, fields: request.body, actorUserId: requireAuth(request).userId }),
  );

  app.put(
    '/api/jobs/:id/status',
    { config: admin, schema: { params: idParams, body: jobStatusRequestSchema, response: { 200: jobSchema } } },
    async (request) =>
      setJobStatus(app.db, { jobId: request.params.id, status: request.body.status, actorUserId: requireAuth(request).userId }),
  );

  app.delete('/api/jobs/:id', { config: admin, schema: { params: idParams, response: { 200: success } } }, async (request) => {
    await deleteJob(app.db, { jobId: request.params.id, actorUserId: requireAuth(request).userId });
    return { success: true as const };
  });

  app.post(
    '/api/jobs/:id/validate',
    { config: admin, schema: { params: idParams, response: { 201: missionSchema } } },
    async (request, reply) => {
      const mission = await validateJob(app.db, { jobId: request.params.id, actorUserId: requireAuth(request).userId });
      return reply.status(201).send(mission);
    },
  );

  app.post(
    '/api/jobs/ingest',
    { config: { access: 'ingest' }, schema: { body: ingestRequestSchema, response: { 200: ingestResponseSchema } } },
    async (request) => ingestJobs(app.db, { items: request.body, source: 'ingest' }),
  );

  app.post(
    '/api/jobs/import-csv',
    {
      config: admin,
      schema: {
        querystring: csvImportQuerySchema,
        body: z.string().max(CSV_MAX_BYTES, 'Le fichier CSV est trop volumineux').nullish(),
        response: { 200: csvImportResponseSchema },
      },
    },
    async (request) => {
      let text: string | null | undefined;
      if (request.isMultipart()) {
        const part = await request.file();
        if (!part) throw new AppError('BAD_REQUEST', 'Veuillez joindre un fichier CSV');
        text = decodeCsv(await readFilePart(part));
      } else {
        text = request.body;
      }
      if (text === undefined || text === null) throw new AppError('BAD_REQUEST', 'Veuillez joindre un fichier CSV');
      return importJobsCsv(app.db, { text, mode: request.query.mode, actorUserId: requireAuth(request).userId });
    },
  );

  // ---- Missions ----

  // The admin's mission table; a technician gets the devices of its Recruté lots instead (field-work, spec 01 §7).
  app.get(
    '/api/missions',
    {
      config: { access: 'technician-or-admin', cache: true },
      schema: {
        querystring: missionListQuerySchema.extend(pageQuery),
        response: { 200: z.union([z.array(missionSchema), z.array(technicianMissionSchema)]) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      if (auth.role === 'admin') {
        return sendPageText(reply, await listMissions(app.db, request.query));
      }
      const { items, total } = await listRecruitedMissions(app.db, { auth, ...request.query });
      setTotal(reply, total);
      return items;
    },
  );

  app.get(
    '/api/missions/map',
    { config: adminRead, schema: { querystring: missionsMapQuerySchema, response: { 200: missionsMapSchema } } },
    async (request, reply) => sendJsonText(reply, await getMissionsMapJson(app.db, request.query)),
  );

  app.post(
    '/api/missions',
    { config: admin, schema: { body: createMissionRequestSchema, response: { 201: missionSchema } } },
    async (request, reply) => {
      const mission = await createMission(app.db, { body: request.body, actorUserId: requireAuth(request).userId });
      return reply.status(201).send(mission);
    },
  );

  app.put(
    '/api/missions/:id',
    { config: admin, schema: { params: idParams, body: updateMissionRequestSchema, response: { 200: missionSchema } } },
    async (request) => updateMission(app.db, { missionId: request.params.id, body: request.body, actorUserId: requireAuth(request).userId }),
  );

  app.patch(
    '/api/missions/:id/publish',
    { config: admin, schema: { params: idParams, response: { 200: missionSchema } } },
    async (request) => publishMission(app.db, { missionId: request.params.id, actorUserId: requireAuth(request).userId }),
  );

  app.delete('/api/missions/:id', { config: admin, schema: { params: idParams, response: { 200: success } } }, async (request) => {
    await deleteMissions(app.db, { missionIds: [request.params.id], actorUserId: requireAuth(request).userId });
    return { success: true as const };
  });

  app.patch(
    '/api/missions/move-to-batch',
    { config: admin, schema: { body: moveMissionsRequestSchema, response: { 200: bulkResultSchema } } },
    async (request) => ({
      count: await moveMissions(app.db, { ...request.body, actorUserId: requireAuth(request).userId }),
    }),
  );

  app.delete(
    '/api/missions/bulk-delete',
    { config: admin, schema: { body: bulkDeleteMissionsRequestSchema, response: { 200: bulkResultSchema } } },
    async (request) => ({
      count: await deleteMissions(app.db, { missionIds: request.body.missionIds, actorUserId: requireAuth(request).userId }),
    }),
  );

  app.patch(
    '/api/missions/:id/batch',
    { config: admin, schema: { params: idParams, body: missionBatchRequestSchema, response: { 200: missionSchema } } },
    async (request) => {
      await moveMissions(app.db, { missionIds: [request.params.id], batchId: request.body.batchId, actorUserId: requireAuth(request).userId });
      return getMission(app.db, request.params.id);
    },
  );

  app.put(
    '/api/missions/:id/complete',
    { config: admin, schema: { params: idParams, response: { 200: missionSchema } } },
    async (request) => completeMission(app.db, { missionId: request.params.id, actorUserId: requireAuth(request).userId }),
  );

  // ---- ATS ----

  app.get(
    '/api/applications/with-technicians',
    { config: adminRead, schema: { querystring: applicationsQuerySchema.and(z.object(pageQuery)), response: { 200: z.array(applicationWithTechnicianSchema) } } },
    async (request, reply) => {
      const { items, total } = await listApplicationsWithTechnicians(app.db, request.query);
      setTotal(reply, total);
      return items;
    },
  );

  app.patch(
    '/api/applications/:id/status',
    { config: admin, schema: { params: idParams, body: applicationStatusRequestSchema, response: { 200: applicationWithTechnicianSchema } } },
    async (request) =>
      decideApplication(app.db, { applicationId: request.params.id, status: request.body.status, actorUserId: requireAuth(request).userId }),
  );

  app.patch(
    '/api/applications/:id/admin-comment',
    { config: admin, schema: { params: idParams, body: adminCommentRequestSchema, response: { 200: adminCommentResponseSchema } } },
    async (request) => ({
      message: 'Commentaire sauvegardé',
      application: await saveAdminComment(app.db, {
        applicationId: request.params.id,
        adminComment: request.body.adminComment,
        actorUserId: requireAuth(request).userId,
      }),
    }),
  );
};
