import type { Readable } from 'node:stream';
import { AppError } from '../app-error';

/** One stored object as a listing sees it. */
export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Where uploaded and generated files live (identity documents, CVs, invoices, visit photos, generated PDFs): the local
 * directory of a single machine, or an S3-compatible bucket shared by several instances. Chosen once from the
 * configuration in the app factory; modules receive it and never branch on the driver (docs/decisions/).
 *
 * Keys are server-generated (`<kind>/<uuid>.<ext>`), never a client's file name. Every failure to reach the store is an
 * AppError STORAGE_UNAVAILABLE (503, French message) so callers roll their transaction back and the client may retry.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** A short description for logs and the settings page (no credentials). */
  readonly description: string;
  /** Writes an object; a key is written once (keys are random), never overwritten. */
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes as a stream, or null when it does not exist. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** The whole object, or null when it does not exist. */
  read(key: string): Promise<Buffer | null>;
  /** Removes an object; removing a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in pages, oldest listing order of the driver. */
  list(prefix?: string): AsyncIterable<StoredObject>;
  /** Throws when the store cannot be reached (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Keys are server-generated; anything else (a path trick, an absolute path) is refused before reaching a driver. */
export function isValidKey(key: string): boolean {
  return /^[a-z0-9-]+(\/[a-z0-9-]+)*\/[A-Za-z0-9-]+\.[a-z0-9]+$/.test(key) && key.length <= 200;
}

/** Every failure to reach the store: 503 with a French message; nothing was written, the client may retry. */
export function storageUnavailable(error: unknown): AppError {
  const appError = new AppError(
    'STORAGE_UNAVAILABLE',
    'Le stockage des fichiers est indisponible, réessayez dans quelques instants',
  );
  appError.cause = error;
  return appError;
}
