import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { storedFiles } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/files';
import { requireAuth } from '../../plugins/access';

/** Uploaded files are never public: the owner technician or the admin downloads them here. */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/files/:id',
    { config: { access: 'technician-or-admin' }, schema: { params: z.object({ id: z.string().uuid('Identifiant invalide') }) } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const [file] = await app.db.select().from(storedFiles).where(eq(storedFiles.id, request.params.id)).limit(1);
      if (!file || (auth.role !== 'admin' && file.technicianId !== auth.technicianId)) {
        throw new AppError('NOT_FOUND', 'Fichier introuvable');
      }
      const object = await app.storage.open(file.storageKey);
      if (!object) throw new AppError('NOT_FOUND', 'Fichier introuvable');
      return reply
        .header('Content-Length', object.size)
        .header('Content-Type', file.mimeType)
        .header('Content-Disposition', contentDisposition(file.originalName))
        .header('Content-Security-Policy', 'sandbox')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(object.stream);
    },
  );
};
