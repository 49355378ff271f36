import { LocalStorage } from './local';
import { S3Storage, parseStorageUrl } from './s3';
import type { ObjectStorage } from './object-storage';

export interface StorageConfig {
  STORAGE_URL?: string | undefined;
  uploadsDir: string;
}

export function openStorage(config: StorageConfig): ObjectStorage {
  if (config.STORAGE_URL) return new S3Storage(parseStorageUrl(config.STORAGE_URL));
  return new LocalStorage(config.uploadsDir);
}

/** Copies every object of `from` missing in `to` (same key); returns how many were copied and skipped. */
export async function copyObjects(
  from: ObjectStorage,
  to: ObjectStorage,
  onObject?: (key: string, copied: boolean) => void,
): Promise<{ copied: number; skipped: number }> {
  const existing = new Set<string>();
  for await (const object of to.list()) existing.add(object.key);
  let copied = 0;
  let skipped = 0;
  for await (const object of from.list()) {
    if (existing.has(object.key)) {
      skipped += 1;
      onObject?.(object.key, false);
      continue;
    }
    const bytes = await from.read(object.key);
    if (!bytes) continue;
    await to.put(object.key, bytes, contentTypeOf(object.key));
    copied += 1;
    onObject?.(object.key, true);
  }
  return { copied, skipped };
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}
