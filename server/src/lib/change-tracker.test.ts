import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { ChangeTracker, readTables, trackChanges, writtenTables } from './change-tracker';

describe('writtenTables', () => {
  it('names the table of each kind of write, quoted or not', () => {
    expect(writtenTables('insert into "comments" ("id") values ($1)')).toEqual(['comments']);
    expect(writtenTables('update "applications" set "status" = $1 where "id" = $2')[0]).toBe('applications');
    expect(writtenTables('delete from mission_batches where id = $1')[0]).toBe('mission_batches');
    expect(writtenTables('truncate table invoices')[0]).toBe('invoices');
    expect(writtenTables('with moved as (update "applications" set "batch_id" = $1 returning 1) insert into "audit_log" select 1')).toEqual([
      'applications',
      'audit_log',
      'row_counts',
      'mission_batches',
    ]);
    expect(writtenTables('update public.resource_views set status = $1')).toEqual(['resource_views', 'row_counts']);
  });

  it('adds row_counts to a write of a counted table (its counting triggers write it, decision 027)', () => {
    expect(writtenTables('insert into "missions" ("id") values ($1)')).toEqual(['missions', 'row_counts', 'mission_batches', 'mission_map_cells', 'lot_parts_kept']);
    expect(writtenTables('update public.transfers set status = $1')).toEqual(['transfers', 'row_counts', 'invoices']);
    expect(writtenTables('truncate table learning_resources')).toEqual(expect.arrayContaining(['learning_resources', 'row_counts']));
    expect(writtenTables('delete from "users" where "id" = $1')).toContain('row_counts');
    expect(writtenTables('update "applications" set "status" = $1')).toContain('row_counts');
    expect(writtenTables('update "comments" set "body" = $1')).not.toContain('row_counts');
  });

  it('adds what the lots\' triggers write: figures of a lot from its missions and applications, the open lots\' sites and markers, the admin map\'s cells (decisions 030, 036, 041)', () => {
    expect(writtenTables('update "applications" set "status" = $1')).toEqual(['applications', 'row_counts', 'mission_batches']);
    expect(writtenTables('update "mission_batches" set "visibility" = $1')).toEqual(['mission_batches', 'row_counts', 'lot_sites', 'lot_markers', 'mission_map_cells']);
    expect(writtenTables('update "missions" set "batch_id" = $1')).toContain('mission_map_cells');
    // One level: a lot's figures written by a trigger change neither its counted columns nor its sites or marker.
    expect(writtenTables('delete from "missions" where "id" = $1')).not.toContain('lot_sites');
    expect(writtenTables('delete from "missions" where "id" = $1')).not.toContain('lot_markers');
  });

  it('adds a lot\'s parts version, raised by the writes of its devices, missions and progress (decision 060)', () => {
    expect(writtenTables('update "devices" set "battery_expiry" = $1')).toEqual(['devices', 'row_counts', 'lot_parts_kept']);
    expect(writtenTables('update "technician_mission_data" set "is_completed" = $1')).toEqual(['technician_mission_data', 'lot_parts_kept']);
    expect(writtenTables('update "missions" set "device_id" = $1')).toContain('lot_parts_kept');
    expect(writtenTables('update "applications" set "status" = $1')).not.toContain('lot_parts_kept');
  });

  it('names what the database functions the app calls write, with their triggers (decision 070)', () => {
    const progress = writtenTables('select * from maillon_save_device_progress($1, $2, $3::jsonb, $4)');
    expect(progress).toEqual(expect.arrayContaining(['technician_mission_data', 'mission_batches', 'invoices', 'row_counts', 'lot_parts_kept', 'lot_markers']));
    expect(writtenTables('select * from maillon_recompute_batch_figures($1)')).toEqual(expect.arrayContaining(['mission_batches', 'invoices', 'lot_sites']));
    expect(writtenTables('select maillon_fold_due_devices() as folded')).toEqual(['row_counts']);
    expect(writtenTables('select * from maillon_save_lot_comment($1, $2, $3, $4)')).toContain('comments');
    expect(writtenTables('select * from maillon_apply($1, $2::uuid, $3::uuid, $4)')).toEqual(['applications', 'row_counts', 'mission_batches']);
    expect(writtenTables('select maillon_json_time(created_at) from invoices')).toEqual([]);
  });

  it('adds the tables a delete reaches through ON DELETE cascade / set null, transitively', () => {
    const tables = writtenTables('delete from "users" where "id" = $1');
    expect(tables[0]).toBe('users');
    expect(tables).toEqual(expect.arrayContaining(['technicians', 'sessions', 'applications', 'invoices']));
    expect(writtenTables('insert into "users" ("email") values ($1)')).toEqual(['users']);
  });

  it('does not take a row lock or a column name for a write', () => {
    expect(writtenTables('select * from "invoices" where "id" = $1 for update')).toEqual([]);
    expect(writtenTables('select * from "invoices" for no key update of "invoices"')).toEqual([]);
    expect(writtenTables('select "updated_at" from "missions"')).toEqual([]);
  });

  it('treats a schema change as a change of everything', () => {
    expect(writtenTables('create index foo on missions (id)')).toEqual(['*']);
    expect(writtenTables('  ALTER TABLE missions ADD COLUMN x int')).toEqual(['*']);
  });

  it('ignores a new session and the sliding of a session, which no reader can have seen', () => {
    expect(writtenTables('insert into "sessions" ("token_hash") values ($1)')).toEqual([]);
    expect(writtenTables('update "sessions" set "last_seen_at" = $1, "expires_at" = $2 where "token_hash" = $3')).toEqual([]);
    expect(writtenTables('delete from "sessions" where "user_id" = $1')).toEqual(['sessions']);
  });
});

describe('readTables', () => {
  it('lists the tables read and joined', () => {
    expect(readTables('select * from "sessions" inner join "users" on 1=1 left join technicians t on true')).toEqual([
      'sessions',
      'users',
      'technicians',
    ]);
  });
});

describe('ChangeTracker', () => {
  it('says whether a table changed after a point', () => {
    const tracker = new ChangeTracker();
    const before = tracker.current();
    tracker.record(['missions']);
    expect(tracker.changedSince(['missions'], before)).toBe(true);
    expect(tracker.changedSince(['invoices'], before)).toBe(false);
    const after = tracker.current();
    expect(tracker.changedSince(['missions'], after)).toBe(false);
    tracker.record(['*']);
    expect(tracker.changedSince(['invoices'], after)).toBe(true);
  });
});

describe('trackChanges on a node-postgres pool', () => {
  type Callback = (error: unknown, result?: unknown) => void;
  /** A pool whose one client keeps each statement's callback, to answer it when the test says. */
  function fakePool() {
    const received: { text: string; callback: Callback }[] = [];
    const client = {
      query(config: { text: string }, _values: unknown, callback: Callback) {
        received.push({ text: config.text, callback });
      },
    };
    const pool = {
      totalCount: 1,
      connect(callback: (error: unknown, client: unknown, done: () => void) => void) {
        callback(undefined, client, () => {});
      },
      query(config: { text: string }, values: unknown, callback: Callback) {
        this.connect((_error, pgClient) => (pgClient as typeof client).query(config, values, callback));
      },
    };
    return { pool, received, tracker: trackChanges({ $client: pool } as unknown as Db) };
  }

  it('hands a read its own callback: nothing to record once it is done (decision 084)', () => {
    const { pool, received, tracker } = fakePool();
    const before = tracker.current();
    const results: unknown[] = [];
    const callback: Callback = (_error, result) => results.push(result);
    pool.query({ text: 'select * from missions where id = $1' }, ['m1'], callback);
    expect(received[0]!.text).toBe('select * from missions where id = $1');
    expect(received[0]!.callback).toBe(callback);
    received[0]!.callback(undefined, { rows: [1] });
    expect(results).toEqual([{ rows: [1] }]);
    expect(tracker.current()).toBe(before);
  });

  it('records a write when it is sent and again once it is done, and a transaction’s writes at its end', () => {
    const { pool, received, tracker } = fakePool();
    const start = tracker.current();
    const results: unknown[] = [];
    pool.query({ text: 'update missions set title = $1' }, ['t'], (_error, result) => results.push(result));
    const sent = tracker.current();
    expect(tracker.changedSince(['missions'], start)).toBe(true);
    received[0]!.callback(undefined, { rowCount: 1 });
    expect(results).toEqual([{ rowCount: 1 }]);
    expect(tracker.changedSince(['missions'], sent)).toBe(true);
    const done = tracker.current();
    pool.query({ text: 'commit' }, [], () => {});
    expect(tracker.changedSince(['missions'], done)).toBe(false);
    expect(received.map((statement) => statement.text)).toEqual(['update missions set title = $1', 'commit']);
    received[1]!.callback(undefined, {});
    expect(tracker.changedSince(['missions'], done)).toBe(true);
  });
});
