export type FieldErrors = Record<string, string>;

const STATUS_BY_CODE = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  INVALID_FILE: 400,
  /** A Factur-X invoice that does not match Maillon's records (amount, seller, buyer, number): decision 021. */
  EINVOICE_MISMATCH: 400,
  /** A plain PDF after EINVOICE_REQUIRED_FROM. */
  EINVOICE_REQUIRED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  ACCOUNT_DISABLED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  ALREADY_EXISTS: 409,
  INVALID_TRANSITION: 409,
  ALREADY_ASSIGNED: 409,
  /** The same Idempotency-Key is still being processed (plugins/idempotency.ts). */
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** An Idempotency-Key reused with another request (method, address or body). */
  IDEMPOTENCY_KEY_REUSED: 422,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** The file store (local disk or S3 bucket) cannot be reached: nothing was written, the client may retry. */
  STORAGE_UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof STATUS_BY_CODE;

/** An expected failure with a French message for the user; the error handler maps its code to a status. */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly statusCode: number;
  readonly fields?: FieldErrors;

  constructor(code: AppErrorCode, message: string, fields?: FieldErrors) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = STATUS_BY_CODE[code];
    if (fields) this.fields = fields;
  }
}

export const notFound = (message = 'Ressource introuvable') => new AppError('NOT_FOUND', message);
export const conflict = (message: string, code: AppErrorCode = 'CONFLICT') => new AppError(code, message);
export const badRequest = (message: string, fields?: FieldErrors) => new AppError('BAD_REQUEST', message, fields);
