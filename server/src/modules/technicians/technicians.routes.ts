import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  changePasswordSchema,
  successResponseSchema,
  updateAddressSchema,
  updateBankingSchema,
  updateCommentsSchema,
  updateDepartmentsSchema,
  updatePersonalSchema,
  updateProfessionalSchema,
  updateRelayPointSchema,
} from '@maillon/common/schemas/profile';
import {
  REGISTRATION_MESSAGES,
  forgotPasswordSchema,
  registrationResponseSchema,
  resetPasswordConfirmSchema,
} from '@maillon/common/schemas/registration';
import { technicianSchema } from '@maillon/common/schemas/technicians';
import { AppError } from '../../lib/app-error';
import { requireAuth } from '../../plugins/access';
import { readMultipartForm } from './multipart';
import { RESET_MESSAGES, changePassword, confirmPasswordReset, requestPasswordReset } from './password.service';
import { getTechnician, replaceDocument, updateTechnicianSection, type DocumentKind, type ProfileSection } from './profile.service';
import { publicOrigin, registerTechnician } from './registration.service';

const idParams = z.object({ id: z.string().uuid('Identifiant invalide') });

// Core type: the profile schemas are zod/mini objects (decision 013).
const SECTIONS: { path: string; section: ProfileSection; body: z.core.$ZodObject }[] = [
  { path: '', section: 'address', body: updateAddressSchema },
  { path: '/banking', section: 'banking', body: updateBankingSchema },
  { path: '/professional', section: 'professional', body: updateProfessionalSchema },
  { path: '/personal', section: 'personal', body: updatePersonalSchema },
  { path: '/departments', section: 'departments', body: updateDepartmentsSchema },
  { path: '/relay-point', section: 'relay-point', body: updateRelayPointSchema },
  { path: '/comments', section: 'comments', body: updateCommentsSchema },
];

const DOCUMENTS: { path: string; kind: DocumentKind }[] = [
  { path: '/upload-identity', kind: 'identity' },
  { path: '/upload-cv', kind: 'cv' },
];

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Technician self-service: registration, password reset, profile, uploads, password change (issue 3). */
export const techniciansRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/technicians/register',
    { config: { access: 'public' }, schema: { response: { 201: registrationResponseSchema } } },
    async (request, reply) => {
      const form = await readMultipartForm(request, ['identityDocument', 'cv'] as const);
      const result = await registerTechnician({
        db: app.db,
        config: app.config,
        storage: app.storage,
        ip: request.ip,
        origin: publicOrigin(app.config, requestOrigin(request)),
        fields: form.fields,
        files: form.files,
      });
      return reply.status(201).send({ success: true as const, message: REGISTRATION_MESSAGES.moderation, technicianId: result.technicianId });
    },
  );

  app.post(
    '/api/technicians/reset-password',
    { config: { access: 'public' }, schema: { body: forgotPasswordSchema, response: { 200: successResponseSchema } } },
    async (request) => {
      await requestPasswordReset({
        db: app.db,
        config: app.config,
        ip: request.ip,
        origin: publicOrigin(app.config, requestOrigin(request)),
        email: request.body.email,
      });
      return { success: true as const, message: RESET_MESSAGES.sent };
    },
  );

  app.post(
    '/api/technicians/reset-password/confirm',
    { config: { access: 'public' }, schema: { body: resetPasswordConfirmSchema, response: { 200: successResponseSchema } } },
    async (request) => {
      await confirmPasswordReset({ db: app.db, token: request.body.token, password: request.body.password });
      return { success: true as const, message: RESET_MESSAGES.done };
    },
  );

  app.get(
    '/api/technicians/:id',
    { config: { access: 'technician-or-admin', cache: true }, schema: { params: idParams, response: { 200: technicianSchema } } },
    async (request) => getTechnician(app.db, requireAuth(request), request.params.id),
  );

  for (const { path, section, body } of SECTIONS) {
    app.patch(
      `/api/technicians/:id${path}`,
      { config: { access: 'technician-or-admin' }, schema: { params: idParams, body, response: { 200: technicianSchema } } },
      async (request) =>
        updateTechnicianSection({
          db: app.db,
          auth: requireAuth(request),
          technicianId: request.params.id,
          section,
          body: request.body as Record<string, unknown>,
        }),
    );
  }

  for (const { path, kind } of DOCUMENTS) {
    app.post(
      `/api/technicians/:id${path}`,
      { config: { access: 'technician-or-admin' }, schema: { params: idParams, response: { 200: technicianSchema } } },
      async (request) => {
        const auth = requireAuth(request);
        const form = await readMultipartForm(request, ['file'] as const);
        if (!form.files.file) throw new AppError('BAD_REQUEST', 'Aucun fichier reçu');
        return replaceDocument({ db: app.db, storage: app.storage, auth, technicianId: request.params.id, kind, file: form.files.file });
      },
    );
  }

  app.patch(
    '/api/users/:id/password',
    { config: { access: 'user' }, schema: { params: idParams, body: changePasswordSchema, response: { 200: successResponseSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      await changePassword({
        db: app.db,
        userId: auth.userId,
        targetUserId: request.params.id,
        currentTokenHash: auth.tokenHash,
        currentPassword: request.body.currentPassword,
        newPassword: request.body.newPassword,
      });
      return { success: true as const, message: RESET_MESSAGES.changed };
    },
  );
};
