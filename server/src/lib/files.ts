import crypto from 'node:crypto';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { storedFiles } from '../db/schema';
import { AppError } from './app-error';
import type { ObjectStorage } from './storage/object-storage';
import { sniffFileType, pdfHasActiveContent, type FileType } from './file-type';

// Sniffing lives in ./file-type; these names stay importable from here for the upload callers.
export { sniffFileType, pdfHasActiveContent, MAX_IMAGE_PIXELS, type FileType } from './file-type';

export type StoredFileKind = 'identity' | 'cv' | 'invoice' | 'visit-photo' | 'signature' | 'visit-report';

const MIME: Record<FileType, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const EXTENSION: Record<FileType, string> = { png: 'png', jpeg: 'jpg', pdf: 'pdf', doc: 'doc', docx: 'docx' };

export const ALLOWED_TYPES: Record<StoredFileKind, readonly FileType[]> = {
  identity: ['png', 'jpeg', 'pdf'],
  cv: ['pdf', 'doc', 'docx'],
  invoice: ['pdf'],
  // Visit reports (modules/visit-reports): photos rewritten as JPEG, the drawn signature as PNG, the generated PV.
  'visit-photo': ['jpeg', 'png'],
  signature: ['png'],
  'visit-report': ['pdf'],
};

/** Reads a multipart file part into memory, enforcing the 10 MB limit. */
export async function readFilePart(part: MultipartFile): Promise<Buffer> {
  const buffer = await part.toBuffer();
  if (part.file.truncated || buffer.length > UPLOAD_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'Le fichier dépasse la taille maximale de 10 Mo');
  }
  return buffer;
}

/** A safe display name: no path, no control or bidi characters, bounded length. */
export function sanitizeFileName(name: string, type: FileType): string {
  const base = path.basename(name.replace(/\\/g, '/'));
  const cleaned = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[/\\:*?"<>|%]/g, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 120);
  const stem = cleaned.replace(/\.[^.]*$/, '') || 'document';
  return `${stem}.${EXTENSION[type]}`;
}

export interface StoreFileOptions {
  storage: ObjectStorage;
  technicianId: string | null;
  kind: StoredFileKind;
  buffer: Buffer;
  originalName: string;
  /** Message when the bytes are not one of the allowed types. */
  invalidTypeMessage: string;
  /** Embedded files the caller has read and accepts (an invoice's Factur-X XML); any other one is refused. */
  allowedEmbeddedFiles?: number;
}

export interface StoredFile {
  id: string;
  storageKey: string;
}

/**
 * Checks the bytes, writes the object under a random key and records it. Call inside the transaction of the change it
 * belongs to; if the transaction fails, `removeStoredFile` cleans the object (and the orphan sweep any missed one).
 * The object is written before its row: a store that cannot be reached answers 503 and nothing is recorded.
 */
export async function storeFile(tx: DbOrTx, options: StoreFileOptions): Promise<StoredFile> {
  if (options.buffer.length === 0) throw new AppError('INVALID_FILE', 'Le fichier est vide');
  const type = await sniffFileType(options.buffer);
  if (!type || !ALLOWED_TYPES[options.kind].includes(type)) throw new AppError('INVALID_FILE', options.invalidTypeMessage);
  if (type === 'pdf' && pdfHasActiveContent(options.buffer, { allowedEmbeddedFiles: options.allowedEmbeddedFiles ?? 0 })) {
    throw new AppError('INVALID_FILE', 'Ce PDF contient du contenu actif (scripts) et ne peut pas être accepté');
  }
  const storageKey = `${options.kind}/${crypto.randomUUID()}.${EXTENSION[type]}`;
  await options.storage.put(storageKey, options.buffer, MIME[type]);
  try {
    const [row] = await tx
      .insert(storedFiles)
      .values({
        technicianId: options.technicianId,
        kind: options.kind,
        storageKey,
        originalName: sanitizeFileName(options.originalName, type),
        mimeType: MIME[type],
        size: options.buffer.length,
      })
      .returning({ id: storedFiles.id });
    return { id: row!.id, storageKey };
  } catch (error) {
    await options.storage.remove(storageKey).catch(() => undefined);
    throw error;
  }
}

/** Removes a stored object after the change that dropped its row has committed (best effort: the sweep catches misses). */
export async function removeStoredFile(storage: ObjectStorage, storageKey: string): Promise<void> {
  await storage.remove(storageKey).catch(() => undefined);
}

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '_') || 'document';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Removes objects of the store that no stored_files row points to (a crash between the write and the commit), older
 * than `minAgeMs` so an upload in progress is never touched. Returns the number removed. Safe to run on several
 * instances at once (the scheduler runs it on one), since a removal of a missing object is not an error.
 */
export async function sweepOrphanFiles(tx: DbOrTx, storage: ObjectStorage, minAgeMs = 10 * 60_000): Promise<number> {
  let removed = 0;
  const cutoff = Date.now() - minAgeMs;
  const candidates: string[] = [];
  for await (const object of storage.list()) {
    if (object.lastModified.getTime() < cutoff) candidates.push(object.key);
  }
  // Checked against the rows in slices, so a store with many files never loads every key of the table at once.
  for (let start = 0; start < candidates.length; start += 500) {
    const slice = candidates.slice(start, start + 500);
    const rows = await tx.select({ storageKey: storedFiles.storageKey }).from(storedFiles).where(inArray(storedFiles.storageKey, slice));
    const known = new Set(rows.map((r) => r.storageKey));
    for (const key of slice) {
      if (known.has(key)) continue;
      await storage.remove(key);
      removed += 1;
    }
  }
  return removed;
}
