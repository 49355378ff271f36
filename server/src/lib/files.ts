import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import { UPLOAD_MAX_BYTES } from '@maillon/common/constants';
import type { DbOrTx } from '../db/client';
import { storedFiles } from '../db/schema';
import { AppError } from './app-error';
import { sniffFileType, pdfHasActiveContent, type FileType } from './file-type';

// Sniffing lives in ./file-type; these names stay importable from here for the upload callers.
export { sniffFileType, pdfHasActiveContent, MAX_IMAGE_PIXELS, type FileType } from './file-type';

export type StoredFileKind = 'identity' | 'cv' | 'invoice';

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
  uploadsDir: string;
  technicianId: string | null;
  kind: StoredFileKind;
  buffer: Buffer;
  originalName: string;
  /** Message when the bytes are not one of the allowed types. */
  invalidTypeMessage: string;
}

export interface StoredFile {
  id: string;
  storageKey: string;
  path: string;
}

/**
 * Checks the bytes, writes the file under a random name and records it. Call inside the transaction of the change it
 * belongs to; if the transaction fails, `removeStoredFile` cleans the orphan.
 */
export async function storeFile(tx: DbOrTx, options: StoreFileOptions): Promise<StoredFile> {
  if (options.buffer.length === 0) throw new AppError('INVALID_FILE', 'Le fichier est vide');
  const type = await sniffFileType(options.buffer);
  if (!type || !ALLOWED_TYPES[options.kind].includes(type)) throw new AppError('INVALID_FILE', options.invalidTypeMessage);
  if (type === 'pdf' && pdfHasActiveContent(options.buffer)) {
    throw new AppError('INVALID_FILE', 'Ce PDF contient du contenu actif (scripts) et ne peut pas être accepté');
  }
  const storageKey = `${options.kind}/${crypto.randomUUID()}.${EXTENSION[type]}`;
  const filePath = path.join(options.uploadsDir, storageKey);
  await fs.mkdir(path.dirname(filePath), { recursive: true });
  await fs.writeFile(filePath, options.buffer, { flag: 'wx', mode: 0o600 });
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
    return { id: row!.id, storageKey, path: filePath };
  } catch (error) {
    await fs.rm(filePath, { force: true });
    throw error;
  }
}

export async function removeStoredFile(uploadsDir: string, storageKey: string): Promise<void> {
  const filePath = path.resolve(uploadsDir, storageKey);
  if (!filePath.startsWith(path.resolve(uploadsDir) + path.sep)) return;
  await fs.rm(filePath, { force: true });
}

export function resolveStoredPath(uploadsDir: string, storageKey: string): string {
  const filePath = path.resolve(uploadsDir, storageKey);
  if (!filePath.startsWith(path.resolve(uploadsDir) + path.sep)) throw new AppError('NOT_FOUND', 'Fichier introuvable');
  return filePath;
}

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '_') || 'document';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Removes files of the upload store that no stored_files row points to (a crash between the write and the row),
 * older than `minAgeMs` so an upload in progress is never touched. Returns the number removed.
 */
export async function sweepOrphanFiles(tx: DbOrTx, uploadsDir: string, minAgeMs = 10 * 60_000): Promise<number> {
  const rows = await tx.select({ storageKey: storedFiles.storageKey }).from(storedFiles);
  const known = new Set(rows.map((r) => r.storageKey));
  let removed = 0;
  for (const kind of ['identity', 'cv', 'invoice']) {
    const dir = path.join(uploadsDir, kind);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const key = `${kind}/${name}`;
      if (known.has(key)) continue;
      const stat = await fs.stat(path.join(dir, name)).catch(() => null);
      if (!stat || Date.now() - stat.mtimeMs < minAgeMs) continue;
      await fs.rm(path.join(dir, name), { force: true });
      removed += 1;
    }
  }
  return removed;
}
