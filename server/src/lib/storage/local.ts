import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../app-error';
import { isValidKey, storageUnavailable, type ObjectStorage, type StoredObject } from './object-storage';

/** Files under one directory of this machine (DATA_DIR/uploads): the embedded default, for a single instance. */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly description: string;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `dossier local ${this.root}`;
  }

  private pathOf(key: string): string {
    const filePath = path.resolve(this.root, key);
    if (!isValidKey(key) || !filePath.startsWith(this.root + path.sep)) throw new AppError('NOT_FOUND', 'Fichier introuvable');
    return filePath;
  }

  async put(key: string, body: Uint8Array, _contentType?: string): Promise<void> {
    const filePath = this.pathOf(key);
    try {
      await fsp.mkdir(path.dirname(filePath), { recursive: true });
      // Written to a temporary name and renamed: a crash never leaves a half file under the real key.
      const temporary = `${filePath}.${process.pid}.partial`;
      await fsp.writeFile(temporary, body, { flag: 'w', mode: 0o600 });
      await fsp.rename(temporary, filePath);
    } catch (error) {
      throw storageUnavailable(error);
    }
  }

  async open(key: string): Promise<{ stream: fs.ReadStream; size: number } | null> {
    const filePath = this.pathOf(key);
    const stat = await fsp.stat(filePath).catch(() => null);
    if (!stat?.isFile()) return null;
    return { stream: fs.createReadStream(filePath), size: stat.size };
  }

  async read(key: string): Promise<Buffer | null> {
    const filePath = this.pathOf(key);
    try {
      return await fsp.readFile(filePath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw storageUnavailable(error);
    }
  }

  async remove(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix = ''): AsyncIterable<StoredObject> {
    const walk = async function* (dir: string, relative: string): AsyncIterable<StoredObject> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const key = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          yield* walk(path.join(dir, entry.name), key);
        } else if (entry.isFile() && !entry.name.endsWith('.partial') && key.startsWith(prefix)) {
          const stat = await fsp.stat(path.join(dir, entry.name)).catch(() => null);
          if (stat) yield { key, size: stat.size, lastModified: stat.mtime };
        }
      }
    };
    yield* walk(this.root, '');
  }

  async check(): Promise<void> {
    try {
      await fsp.mkdir(this.root, { recursive: true });
      await fsp.access(this.root, fs.constants.W_OK);
    } catch (error) {
      throw storageUnavailable(error);
    }
  }

  async close(): Promise<void> {}
}
