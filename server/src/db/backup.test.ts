import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { count, eq } from 'drizzle-orm';
import { openPglite, openPostgres, type Database } from './client';
import { startTestS3Server } from '../../test/s3';
import { parseStorageUrl, S3Storage } from '../lib/storage/s3';
import { missionBatches, users } from './schema';
import { backup, restore } from './backup';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-backup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function fill(database: Database, dataDir: string) {
  await database.migrate();
  await database.db.insert(users).values({ email: 'sauvegarde@maillon.test', passwordHash: 'x', role: 'admin' });
  await database.db.insert(missionBatches).values([{ title: 'Lot A' }, { title: 'Lot B' }]);
  fs.mkdirSync(path.join(dataDir, 'uploads', 'cv'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'uploads', 'cv', 'abc.pdf'), '%PDF-1.4 contenu\n%%EOF');
}

async function damage(database: Database, dataDir: string) {
  await database.db.delete(missionBatches).where(eq(missionBatches.title, 'Lot A'));
  await database.db.insert(missionBatches).values({ title: 'Lot après la sauvegarde' });
  fs.rmSync(path.join(dataDir, 'uploads'), { recursive: true, force: true });
}

async function snapshot(database: Database) {
  const lots = await database.db.select({ title: missionBatches.title }).from(missionBatches).orderBy(missionBatches.title);
  const [admins] = await database.db.select({ n: count() }).from(users);
  return { lots: lots.map((l) => l.title), users: admins?.n };
}

describe('backup and restore', () => {
  async function roundTripEmbedded() {
    const dataDir = path.join(tmp, 'embedded');
    // Paths from this file, whatever the working directory (CI runs vitest from the repository root).
    const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const tsx = path.join(serverDir, 'node_modules/.bin/tsx');
    const bin = fs.existsSync(tsx) ? tsx : path.join(serverDir, '../node_modules/.bin/tsx');
    const step = (script: string, ...args: string[]) =>
      execFileSync(bin, [path.join(serverDir, script), ...args], { cwd: serverDir, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
    step('test/backup-steps.ts', 'fill', dataDir);
    const before = step('test/backup-steps.ts', 'snapshot', dataDir);
    const out = path.join(tmp, 'embedded-backup');
    step('src/db/backup-cli.ts', 'backup', out);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')).database).toBe('pglite');
    step('test/backup-steps.ts', 'damage', dataDir);
    expect(step('test/backup-steps.ts', 'snapshot', dataDir)).not.toEqual(before);
    step('src/db/backup-cli.ts', 'restore', out);
    expect(JSON.parse(step('test/backup-steps.ts', 'snapshot', dataDir))).toEqual(JSON.parse(before));
    expect(fs.readFileSync(path.join(dataDir, 'uploads', 'cv', 'abc.pdf'), 'utf8')).toContain('%PDF-1.4');
  }

  async function roundTripPostgres() {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `maillon_backup_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const target = { DATABASE_URL: url.toString(), DATA_DIR: path.join(tmp, 'postgres') };
    try {
      let database = openPostgres(target.DATABASE_URL, 2);
      await fill(database, target.DATA_DIR);
      const before = await snapshot(database);
      await damage(database, target.DATA_DIR);
      await database.close();
      expect(before.lots).toEqual(['Lot A', 'Lot B']);

      // Back up the damaged state, then restore the good one taken below, to prove both directions.
      const damagedOut = path.join(tmp, 'pg-damaged');
      await backup(target, damagedOut);
      database = openPostgres(target.DATABASE_URL, 2);
      const damaged = await snapshot(database);
      await database.db.delete(missionBatches);
      await database.close();

      await restore(target, damagedOut);
      database = openPostgres(target.DATABASE_URL, 2);
      expect(await snapshot(database)).toEqual(damaged);
      await database.close();
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }

  // The embedded pass proves the PGlite dump, the PostgreSQL pass (TEST_DATABASE_URL) proves pg_dump/pg_restore.
  it(`round-trips the ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'} database and the uploads`, async () => {
    if (process.env.TEST_DATABASE_URL) await roundTripPostgres();
    else await roundTripEmbedded();
  }, 180_000);

  it('backs up the files of an S3 store and restores exactly them (a file added after the backup is removed)', async () => {
    const s3 = await startTestS3Server('maillon-backup');
    const dataDir = path.join(tmp, 'embedded-s3');
    const target = { DATA_DIR: dataDir, STORAGE_URL: s3.url };
    const bucket = new S3Storage(parseStorageUrl(s3.url));
    try {
      const database = openPglite(path.join(dataDir, 'pglite'));
      await database.migrate();
      await database.close();
      const kept = `cv/${crypto.randomUUID()}.pdf`;
      await bucket.put(kept, Buffer.from('%PDF-1.4 gardé\n%%EOF'), 'application/pdf');
      const out = path.join(tmp, 'embedded-s3-backup');
      const manifest = await backup(target, out);
      expect(manifest.storage).toBe('s3');
      expect(fs.readFileSync(path.join(out, 'uploads', kept), 'utf8')).toContain('gardé');

      await bucket.remove(kept);
      const later = `identity/${crypto.randomUUID()}.pdf`;
      await bucket.put(later, Buffer.from('%PDF-1.4 après\n%%EOF'), 'application/pdf');
      await restore(target, out);
      expect((await bucket.read(kept))?.toString()).toContain('gardé');
      expect(await bucket.read(later)).toBeNull();
    } finally {
      await bucket.close();
      await s3.close();
    }
  }, 120_000);
});
