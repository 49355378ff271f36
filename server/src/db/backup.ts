import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from './client';
import { copyObjects, openStorage } from '../lib/storage';
import { LocalStorage } from '../lib/storage/local';

const run = promisify(execFile);

export interface BackupTarget {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  /** The file store (S3) when set; otherwise DATA_DIR/uploads. */
  STORAGE_URL?: string | undefined;
}

export interface BackupManifest {
  createdAt: string;
  database: 'postgres' | 'pglite';
  databaseFile: string;
  uploads: string;
  /** Where the files were read from ('local' or 's3'); a backup restores into either. */
  storage?: 'local' | 's3';
}

const pgliteDir = (target: BackupTarget) => path.resolve(target.DATA_DIR, 'pglite');
const storageOf = (target: BackupTarget) => openStorage({ STORAGE_URL: target.STORAGE_URL, uploadsDir: path.resolve(target.DATA_DIR, 'uploads') });

/**
 * Writes a consistent backup into `outDir`: pg_dump (custom format, one snapshot) for PostgreSQL, or PGlite's own
 * data-dir dump for the embedded database (the server must be stopped: PGlite has a single owner), plus a copy of
 * every object of the file store (local directory or S3 bucket) and a manifest.
 */
export async function backup(target: BackupTarget, outDir: string): Promise<BackupManifest> {
  await fs.mkdir(outDir, { recursive: true });
  let databaseFile: string;
  let database: BackupManifest['database'];
  if (target.DATABASE_URL) {
    database = 'postgres';
    databaseFile = 'database.dump';
    await run('pg_dump', ['--format=custom', '--no-owner', '--file', path.join(outDir, databaseFile), target.DATABASE_URL]);
  } else {
    database = 'pglite';
    databaseFile = 'database.tar.gz';
    const client = new PGlite(pgliteDir(target), { extensions: PGLITE_EXTENSIONS });
    try {
      // The dump must wait for the database to be open (a dump requested earlier never resolves).
      await client.waitReady;
      await client.query('checkpoint');
      const dump = await client.dumpDataDir('gzip');
      await fs.writeFile(path.join(outDir, databaseFile), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await client.close();
    }
  }
  const uploads = 'uploads';
  await fs.rm(path.join(outDir, uploads), { recursive: true, force: true });
  await fs.mkdir(path.join(outDir, uploads), { recursive: true });
  const storage = storageOf(target);
  try {
    await copyObjects(storage, new LocalStorage(path.join(outDir, uploads)));
  } finally {
    await storage.close();
  }
  const manifest: BackupManifest = { createdAt: new Date().toISOString(), database, databaseFile, uploads, storage: storage.kind };
  await fs.writeFile(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** Brings a backup back: the database is replaced (pg_restore --clean, or a fresh PGlite data dir) and the file store too. */
export async function restore(target: BackupTarget, fromDir: string): Promise<BackupManifest> {
  const manifest = JSON.parse(await fs.readFile(path.join(fromDir, 'manifest.json'), 'utf8')) as BackupManifest;
  const file = path.join(fromDir, manifest.databaseFile);
  if (manifest.database === 'postgres') {
    if (!target.DATABASE_URL) throw new Error('Cette sauvegarde vient de PostgreSQL : définissez DATABASE_URL pour la restaurer.');
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--single-transaction', '--dbname', target.DATABASE_URL, file]);
  } else {
    if (target.DATABASE_URL) throw new Error('Cette sauvegarde vient de la base embarquée : retirez DATABASE_URL pour la restaurer.');
    const dir = pgliteDir(target);
    const aside = `${dir}.before-restore-${Date.now()}`;
    await fs.rename(dir, aside).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    try {
      const client = new PGlite(dir, { loadDataDir: new Blob([await fs.readFile(file)]), extensions: PGLITE_EXTENSIONS });
      await client.query('select 1');
      await client.close();
      await fs.rm(aside, { recursive: true, force: true });
    } catch (error) {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.rename(aside, dir).catch(() => undefined);
      throw error;
    }
  }
  // The store then holds exactly the backup's files: objects written after it are removed, missing ones copied.
  const storage = storageOf(target);
  const saved = new LocalStorage(path.join(fromDir, manifest.uploads));
  try {
    const keep = new Set<string>();
    for await (const object of saved.list()) keep.add(object.key);
    const extra: string[] = [];
    for await (const object of storage.list()) if (!keep.has(object.key)) extra.push(object.key);
    for (const key of extra) await storage.remove(key);
    await copyObjects(saved, storage);
  } finally {
    await storage.close();
  }
  return manifest;
}
