import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder, PGLITE_EXTENSIONS, type Db } from '../src/db/client';
import { ensureChangeTriggers } from '../src/lib/change-feed/triggers';

/** Migrates one embedded database and saves it as a template every test file clones (fast, isolated). */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-test-'));
  const templateFile = path.join(dir, 'template.tar.gz');
  if (!process.env.TEST_DATABASE_URL) {
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const db = drizzle(client, { casing: 'snake_case' });
    await migrate(db, { migrationsFolder: migrationsFolder() });
    await ensureChangeTriggers(db as unknown as Db);
    const dump = await client.dumpDataDir('gzip');
    fs.writeFileSync(templateFile, Buffer.from(await dump.arrayBuffer()));
    await client.close();
  }
  project.provide('pgliteTemplate', templateFile);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
