import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import { readFilePart } from '../../lib/files';

export interface UploadedPart {
  buffer: Buffer;
  fileName: string;
}

export interface MultipartForm<F extends string> {
  fields: Record<string, string>;
  files: Partial<Record<F, UploadedPart>>;
}

/**
 * Reads a whole multipart form: text fields and the expected file fields (each ≤ 10 MB, enforced while streaming).
 * Every part is consumed before any error is raised, so the connection is left clean.
 */
export async function readMultipartForm<F extends string>(request: FastifyRequest, fileFields: readonly F[]): Promise<MultipartForm<F>> {
  if (!request.isMultipart()) throw new AppError('BAD_REQUEST', 'Formulaire multipart attendu');
  const fields: Record<string, string> = {};
  const files: Partial<Record<F, UploadedPart>> = {};
  let unexpected: string | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const buffer = await readFilePart(part);
      if (!fileFields.includes(part.fieldname as F)) {
        unexpected ??= part.fieldname;
        continue;
      }
      // An empty file input sends a nameless, empty part: treat it as "no file".
      if (buffer.length === 0 && !part.filename) continue;
      files[part.fieldname as F] = { buffer, fileName: part.filename || 'document' };
    } else {
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
    }
  }
  if (unexpected) throw new AppError('BAD_REQUEST', `Champ de fichier inattendu : ${unexpected.slice(0, 50)}`);
  return { fields, files };
}
