import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { CONNECTION_WARM_UP, WARM_UP_WRITES, openPostgres, type Database } from '../../src/db/client';
import { FUNCTION_WRITES } from '../../src/lib/change-tracker';
import { technicianMissionData } from '../../src/db/schema';
import { makeLotWithDevices } from '../device-fixtures';
import { createTechnician, createTestContext, type TestContext } from '../helpers';

/**
 * Each connection of the pool is opened before the first request and warmed once: the writes a working day repeats
 * most, on one row each, rolled back (db/client.ts, decision 087). PostgreSQL pass only (test/cluster:
 * vitest.config.ts). Another session watches the pool's connections in pg_stat_activity, whose `query` is the last
 * text each one ran.
 */
let ctx: TestContext;
let watcher: pg.Client;
let lot: { batchId: string; missionIds: string[] };
const opened: Database[] = [];

beforeAll(async () => {
  ctx = await createTestContext({}, { poolSize: 2 });
  const { technician } = await createTechnician(ctx.db);
  lot = await makeLotWithDevices(ctx.db, { technicianId: technician.id, serials: ['WARM-1', 'WARM-2'] });
  // The recruit's progress on one device, and another technician's application still waiting on a second lot.
  await ctx.db
    .insert(technicianMissionData)
    .values({ missionId: lot.missionIds[0]!, technicianId: technician.id, isCompleted: false });
  const other = await createTechnician(ctx.db);
  await makeLotWithDevices(ctx.db, { technicianId: other.technician.id, serials: ['WARM-3'], recruit: false });
  watcher = new pg.Client({ connectionString: ctx.url! });
  await watcher.connect();
});
afterAll(async () => {
  for (const database of opened) await database.close();
  await watcher?.end();
  await ctx?.close();
});

function openPool(size: number): Database {
  const database = openPostgres(ctx.url!, size);
  opened.push(database);
  return database;
}

/**
 * The other sessions on the test's database: the start of what each ran last (pg_stat_activity keeps a text's first
 * kilobyte), and whether it is left inside a transaction.
 */
async function sessions(): Promise<{ query: string; state: string }[]> {
  const result = await watcher.query<{ query: string; state: string }>(
    `select left(query, 200) as query, state from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
       and backend_type = 'client backend' order by backend_start`,
  );
  return result.rows;
}

/**
 * What the warm-up must leave as it found it: the missions, the lots' kept figures, the recruit's progress, comments,
 * applications and invoices, the counters, the journal.
 */
async function snapshot(): Promise<unknown> {
  const result = await watcher.query(
    `select
       (select json_agg(json_build_object('o', observations, 'u', updated_at, 's', search_text) order by id)
          from missions where batch_id = $1) as missions,
       (select json_agg(json_build_object('n', mission_count, 's', missions_search_text, 'j', missions_json::text,
          'd', defibrillators_done, 'u', updated_at) order by id) from mission_batches) as lots,
       (select json_agg(json_build_object('c', is_completed, 'u', updated_at) order by id) from technician_mission_data) as progress,
       (select json_agg(json_build_object('c', content, 'at', created_at) order by id) from comments) as comments,
       (select json_agg(json_build_object('s', status, 'at', applied_at) order by id) from applications) as applications,
       (select json_agg(json_build_object('v', validated_amount_cents, 'p', progression, 'u', updated_at) order by id)
          from invoices) as invoices,
       (select json_agg(json_build_object('t', table_name, 'k', key, 'n', n) order by table_name, key) from row_counts) as counts,
       (select count(*)::int from audit_log) as journal`,
    [lot.batchId],
  );
  return result.rows[0];
}

describe('the warm-up’s writes', () => {
  it('each reach the write it stands for: the lot’s kept figures, a saved progress, a saved comment, an application’s checks', async () => {
    const lotText = async () =>
      (await watcher.query<{ s: string }>('select missions_search_text as s from mission_batches where id = $1', [lot.batchId]))
        .rows[0]!.s;
    const before = await lotText();
    const [edit, progress, comment, application] = WARM_UP_WRITES;
    await watcher.query('begin');
    try {
      expect((await watcher.query(edit!)).rowCount).toBe(1);
      expect(await lotText()).not.toBe(before);
      expect((await watcher.query(progress!)).rows).toEqual([{ outcome: 'saved' }]);
      expect((await watcher.query(comment!)).rows).toEqual([{ savedContent: 'Préchauffage de la connexion' }]);
      // The lot waits for its recruit: the application is refused only after the lot's lock and every check.
      expect((await watcher.query(application!)).rows).toEqual([{ outcome: 'already-applied' }]);
    } finally {
      await watcher.query('rollback');
    }
    expect(await lotText()).toBe(before);
  });

  it('run every database function a request writes through (FUNCTION_WRITES), the hourly fold of the devices aside', async () => {
    // The hourly task (scheduled-tasks.ts) runs on one instance at a time; every other function serves requests.
    const requests = Object.keys(FUNCTION_WRITES).filter((name) => name !== 'maillon_fold_due_devices');
    await watcher.query('begin');
    try {
      await watcher.query("set local track_functions = 'pl'");
      for (const write of WARM_UP_WRITES) await watcher.query(write);
      const called = (await watcher.query<{ name: string }>('select funcname as name from pg_stat_xact_user_functions')).rows;
      expect(requests.filter((name) => !called.some((f) => f.name === name))).toEqual([]);
    } finally {
      await watcher.query('rollback');
    }
  });
});

describe('the pool’s connections', () => {
  it('are all opened and warmed before the first request, and none is left inside a transaction', async () => {
    const before = await sessions();
    const database = openPool(3);
    expect(await database.open()).toBe(3);
    const after = await sessions();
    const added = after.slice(before.length);
    expect(added).toEqual(Array.from({ length: 3 }, () => ({ query: CONNECTION_WARM_UP.slice(0, 200), state: 'idle' })));
  });

  it('change nothing by warming: no row, figure, counter or journal line, and no notification sent', async () => {
    const listener = new pg.Client({ connectionString: ctx.url! });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.query('listen maillon_changes');
    try {
      const before = await snapshot();
      expect(await openPool(2).open()).toBe(2);
      expect(await snapshot()).toEqual(before);
      // Notifications arrive in commit order: the probe sent after the warm-ups is the first one heard.
      await watcher.query(`select pg_notify('maillon_changes', 'sonde')`);
      await expect.poll(() => heard, { timeout: 5000 }).toContain('sonde');
      expect(heard).toEqual(['sonde']);
    } finally {
      await listener.end();
    }
  });

  it('do not wait for a writer: with the missions locked, each one gives up warming and serves at once', async () => {
    const writer = new pg.Client({ connectionString: ctx.url! });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query('lock table missions in access exclusive mode');
      const database = openPool(2);
      expect(await database.open()).toBe(2);
      await writer.query('rollback');
      // Each connection's warm-up failed on the lock: it was closed, and the connection reads the table it could not.
      const served = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from missions where batch_id = ${lot.batchId}`,
      );
      expect(served.rows).toEqual([{ n: 2 }]);
      expect((await sessions()).filter((s) => s.state !== 'idle')).toEqual([]);
    } finally {
      await writer.end();
    }
  });

  it('serve on a database not migrated yet, where the warm-up has no mission to edit', async () => {
    const admin = new pg.Client({ connectionString: ctx.url! });
    await admin.connect();
    const name = `${new URL(ctx.url!).pathname.slice(1)}_vide`;
    await admin.query(`create database ${name}`);
    try {
      const target = new URL(ctx.url!);
      target.pathname = `/${name}`;
      const database = openPostgres(target.toString(), 1);
      try {
        expect(await database.open()).toBe(1);
        // Left inside the warm-up's failed transaction, the connection would refuse any statement until a rollback.
        const result = await database.db.execute<{ n: number }>(sql`select ${1}::int as n`);
        expect(result.rows).toEqual([{ n: 1 }]);
      } finally {
        await database.close();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
