import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldErrors } from '../lib/app-error';
import { errorChain, findErrorCode } from '../lib/error-chain';

function fieldsFromValidation(error: FastifyError): FieldErrors {
  const fields: FieldErrors = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return fields;
  for (const issue of error.validation) {
    const key = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
    fields[key] ??= issue.message ?? 'Valeur invalide';
  }
  return fields;
}

const DATABASE_UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);

/** True when the database is unreachable (restart, failover): the request may be retried shortly. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of errorChain(error)) {
    if (typeof link.code === 'string' && DATABASE_UNAVAILABLE_CODES.has(link.code)) return true;
    if (typeof link.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(link.message)) {
      return true;
    }
  }
  return false;
}

/** PostgreSQL "data exception" (class 22: NUL byte in text, value out of range, bad date…): the input's fault. */
function isInvalidDataForDatabase(error: unknown): boolean {
  return findErrorCode(error, (code) => /^22[0-9A-Z]{3}$/.test(code)) !== undefined;
}

/** A cut or garbled multipart body (busboy): the client's fault, never a 500. */
function isMalformedMultipart(error: { code?: string; message?: string }): boolean {
  if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
  return /Unexpected end of (form|multipart)|Malformed (part|urlencoded)|Boundary not found|Part terminated early|Multipart: /i.test(
    error.message ?? '',
  );
}

const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'BAD_REQUEST', message: 'Le corps de la requête est invalide' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'BAD_REQUEST', message: 'Le corps de la requête est vide' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'La requête est trop volumineuse' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Type de contenu non pris en charge' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST', message: 'Longueur de contenu invalide' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 400, code: 'BAD_REQUEST', message: 'Formulaire multipart attendu' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Le fichier dépasse la taille maximale de 10 Mo' },
  FST_PARTS_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Trop de champs dans le formulaire' },
  FST_FILES_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Trop de fichiers dans le formulaire' },
  FST_FIELDS_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Trop de champs dans le formulaire' },
  FST_PROTO_VIOLATION: { status: 400, code: 'BAD_REQUEST', message: 'Requête invalide' },
  FST_ERR_VALIDATION: { status: 400, code: 'VALIDATION_ERROR', message: 'Données invalides' },
};

/** One error shape for every answer: { message, code, fields?, requestId }; 5xx details stay in the log. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The request id ties the answer a user reports to the server's log lines (also in the X-Request-Id header).
    const send = (status: number, body: { message: string; code: string; fields?: FieldErrors | undefined }) =>
      reply.status(status).send({ ...body, requestId: request.id });
    if (error instanceof AppError) {
      return send(error.statusCode, { message: error.message, code: error.code, fields: error.fields });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldsFromValidation(error);
      const first = Object.values(fields)[0];
      return send(400, { message: first ?? 'Données invalides', code: 'VALIDATION_ERROR', fields });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response serialization failed');
      return send(500, { message: 'Erreur interne', code: 'INTERNAL' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', '2');
      return send(503, { message: 'Service momentanément indisponible, réessayez dans quelques secondes', code: 'SERVICE_UNAVAILABLE' });
    }
    if (isInvalidDataForDatabase(error)) {
      request.log.warn({ err: error }, 'input refused by the database');
      return send(400, { message: 'Données invalides (caractères ou valeurs non acceptés)', code: 'BAD_REQUEST' });
    }
    if (isMalformedMultipart(error)) {
      return send(400, { message: 'Le formulaire envoyé est incomplet ou mal formé', code: 'BAD_REQUEST' });
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return send(known.status, { message: known.message, code: known.code });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = status === 429 ? 'RATE_LIMITED' : status === 404 ? 'NOT_FOUND' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
      const message =
        status === 429 ? 'Trop de tentatives, réessayez plus tard' : status === 413 ? 'La requête est trop volumineuse' : 'Requête invalide';
      return send(status, { message, code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, { message: 'Erreur interne', code: 'INTERNAL' });
  });
});
