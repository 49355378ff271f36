import type { FastifyReply } from 'fastify';
import { AppError } from './app-error';
import { contentDisposition } from './files';
import type { ObjectStorage } from './storage/object-storage';

/** Headers of every downloaded document: an attachment, never sniffed, never rendered as a page, never cached. */
function downloadHeaders(reply: FastifyReply, { fileName, contentType }: { fileName: string; contentType: string }): FastifyReply {
  return reply
    .header('Content-Type', contentType)
    .header('Content-Disposition', contentDisposition(fileName))
    .header('Content-Security-Policy', 'sandbox')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store');
}

/** A document generated for this answer (a label sheet, an export). */
export function sendDocument(reply: FastifyReply, document: { body: Uint8Array | string; fileName: string; contentType: string }): FastifyReply {
  const body = typeof document.body === 'string' ? Buffer.from(document.body, 'utf8') : Buffer.from(document.body);
  return downloadHeaders(reply, document).header('Content-Length', body.length).send(body);
}

/** A stored object (photo, PV), streamed from the file store; a missing object answers 404. */
export async function sendStoredObject(
  reply: FastifyReply,
  storage: ObjectStorage,
  file: { storageKey: string; fileName: string; contentType: string },
  notFoundMessage = 'Fichier introuvable',
): Promise<FastifyReply> {
  const object = await storage.open(file.storageKey);
  if (!object) throw new AppError('NOT_FOUND', notFoundMessage);
  return downloadHeaders(reply, file).header('Content-Length', object.size).send(object.stream);
}
