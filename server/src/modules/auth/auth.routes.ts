import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginRequestSchema, sessionResponseSchema } from '@maillon/common/schemas/auth';
import { SESSION_COOKIE, requireAuth } from '../../plugins/access';
import { sendJsonText } from '../../lib/pagination';
import { getSessionViewText, login, logout } from './auth.service';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/login',
    { config: { access: 'public' }, schema: { body: loginRequestSchema, response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      const result = await login(app.db, {
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      reply.setCookie(SESSION_COOKIE, result.token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: app.config.secureCookies,
        expires: result.expiresAt,
      });
      return result.session;
    },
  );

  app.post(
    '/api/auth/logout',
    { config: { access: 'public' }, schema: { response: { 200: z.object({ success: z.literal(true) }) } } },
    async (request, reply) => {
      if (request.auth) await logout(app.db, request.auth.tokenHash);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true as const };
    },
  );

  app.get(
    '/api/auth/me',
    { config: { access: 'user', cache: true }, schema: { response: { 200: sessionResponseSchema } } },
    async (request, reply) => sendJsonText(reply, await getSessionViewText(app.db, requireAuth(request).userId)),
  );
};
