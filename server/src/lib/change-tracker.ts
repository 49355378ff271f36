import { AsyncLocalStorage } from 'node:async_hooks';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { COUNTED_TABLES, ROW_COUNTS_TABLE } from './row-counts';

/**
 * Which tables changed, and when, seen at the driver: every statement sent through the database client is read once
 * (a regular expression over its text), so a write is noticed whether it comes from the query builder, raw SQL, a
 * transaction or a background job. The read cache (plugins/read-cache.ts) and the session cache use it to know that an
 * answer computed before a change may no longer be served (docs/decisions/014-read-cache.md).
 *
 * A change is recorded when a writing statement is sent, again when it has run, and again when its transaction ends,
 * so a reader that ran in between (and may have seen the old rows) can never store its answer as current.
 */
export class ChangeTracker {
  /** Increases with every recorded change; an answer remembers the value it started at. */
  private sequence = 0;
  private readonly lastChange = new Map<string, number>();
  /** Schema changes (migrations, restore) invalidate everything. */
  private everythingChangedAt = 0;
  /**
   * While other instances' changes cannot be heard (the change feed's connection is down or not yet listening), every
   * answer counts as changed: nothing is served from memory or kept (lib/change-feed).
   */
  private suspended = false;

  current(): number {
    return this.sequence;
  }

  /** Stops serving and keeping cached answers until `resume` (change feed lost: other instances' writes unheard). */
  suspend(): void {
    this.suspended = true;
    this.record(['*']);
  }

  /** The change feed listens again: whatever happened meanwhile is unknown, so everything counts as changed once. */
  resume(): void {
    this.record(['*']);
    this.suspended = false;
  }

  get isSuspended(): boolean {
    return this.suspended;
  }

  record(tables: Iterable<string>): void {
    for (const table of tables) {
      this.sequence += 1;
      if (table === '*') this.everythingChangedAt = this.sequence;
      else this.lastChange.set(table, this.sequence);
    }
  }

  /** Whether one of `tables` changed after `since` (a value of current()). */
  changedSince(tables: Iterable<string>, since: number): boolean {
    if (this.suspended || this.everythingChangedAt > since) return true;
    for (const table of tables) if ((this.lastChange.get(table) ?? 0) > since) return true;
    return false;
  }
}

/**
 * Values computed from the database, kept in memory while none of the tables they were read from has changed since the
 * computation started, and for at most `ttlMs` (writers outside this process). The oldest go first beyond `maxSize`
 * (counted with `sizeOf`); a value over an eighth of it is not kept. Used for API answers and for sessions.
 */
export class TrackedCache<V> {
  private readonly entries = new Map<string, { value: V; tables: string[]; since: number; storedAt: number; size: number }>();
  private total = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly options: { ttlMs: number; maxSize: number; sizeOf?: (value: V) => number },
  ) {}

  get(key: string): V | null {
    const entry = this.entries.get(key);
    if (entry && Date.now() - entry.storedAt <= this.options.ttlMs && !this.tracker.changedSince(entry.tables, entry.since)) {
      this.hits += 1;
      return entry.value;
    }
    this.delete(key);
    this.misses += 1;
    return null;
  }

  /** Keeps `value`, read from `tables` by a computation that started at `since` (tracker.current()), unless one changed. */
  set(key: string, value: V, tables: Iterable<string>, since: number): void {
    this.delete(key);
    const list = [...tables];
    if (this.tracker.changedSince(list, since)) return;
    const size = this.options.sizeOf?.(value) ?? 1;
    if (size > this.options.maxSize / 8) return;
    this.entries.set(key, { value, tables: list, since, storedAt: Date.now(), size });
    this.total += size;
    for (const [oldest] of this.entries) {
      if (this.total <= this.options.maxSize) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total -= entry.size;
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** What the current request's statements read and wrote (set by the read cache, when on, for /api requests). */
export interface StatementScope {
  /** Only the reads of a cacheable handler are collected (not the session lookup before it). */
  collectReads: boolean;
  reads: Set<string>;
  writes: Set<string>;
}

export const statementScope = new AsyncLocalStorage<StatementScope>();

/**
 * Declares that the current answer depends on `table` although no statement of the handler read it (a value the
 * session lookup brought, for instance): a cached answer is then dropped when that table changes.
 */
export function dependsOn(table: string): void {
  const scope = statementScope.getStore();
  if (scope?.collectReads) scope.reads.add(table);
}

const IDENTIFIER = String.raw`(?:only\s+)?"?([a-z_][a-z0-9_]*)"?(?:\."?([a-z_][a-z0-9_]*)"?)?`;
const WRITE = new RegExp(String.raw`(?<!\bfor\s+(?:no\s+key\s+)?)\b(insert\s+into|update|delete\s+from|merge\s+into|truncate(?:\s+table)?)\s+${IDENTIFIER}`, 'gi');
const READ = new RegExp(String.raw`\b(?:from|join)\s+${IDENTIFIER}`, 'gi');
const SCHEMA_CHANGE = /^\s*(?:create|alter|drop|comment|grant|revoke|copy|do)\b/i;
const TRANSACTION_END = /^\s*(?:commit|rollback|end|abort)\b/i;
/**
 * Statements that cannot make anything a reader saw wrong: a new session (it only adds a row nobody reads for another
 * token) and the sliding of a session's idle expiry (kept up to date in the session cache itself).
 */
const HARMLESS_WRITE = /^\s*(?:insert\s+into\s+"sessions"|update\s+"sessions"\s+set\s+"last_seen_at")/i;

/**
 * Tables a delete (or an update) of a table's rows can change through foreign keys with ON DELETE / ON UPDATE actions
 * (cascade, set null, set default), followed transitively: deleting a user deletes its technician, which deletes its
 * applications… Besides these, the only writes a statement makes elsewhere are the row counts' triggers (COUNTED below).
 */
function foreignKeyActions(kind: 'onDelete' | 'onUpdate'): Map<string, string[]> {
  const direct = new Map<string, Set<string>>();
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    for (const foreignKey of config.foreignKeys) {
      const action = foreignKey[kind];
      if (!action || action === 'no action' || action === 'restrict') continue;
      const referenced = getTableConfig(foreignKey.reference().foreignTable).name;
      if (!direct.has(referenced)) direct.set(referenced, new Set());
      direct.get(referenced)!.add(config.name);
    }
  }
  const closure = new Map<string, string[]>();
  for (const table of direct.keys()) {
    const seen = new Set<string>();
    const stack = [...direct.get(table)!];
    while (stack.length) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(direct.get(next) ?? []));
    }
    closure.set(table, [...seen]);
  }
  return closure;
}

const CASCADES = { onDelete: foreignKeyActions('onDelete'), onUpdate: foreignKeyActions('onUpdate') };

/** Tables whose writes also write row_counts through the counting triggers (lib/row-counts.ts, decision 027). */
const COUNTED = new Set<string>(COUNTED_TABLES);

/**
 * Tables other triggers write when a table is written, in the same statement (migration 0017, docs/decisions/030): a
 * lot keeps figures of its missions and applications (columns no count is kept by, so row_counts does not follow),
 * lot_sites and lot_markers follow the open lots' sites and map markers (migration 0024), mission_map_cells the
 * admin's map in groups (migration 0034), an invoice whether one of its transfers is paid (migration 0040), and a
 * lot's parts version its devices, missions and recruit's progress (migration 0043, decision 060). Not listed: the
 * mark the writes of progress, applications and missions set on invitations (`visit_appointments.standing_check`,
 * migration 0045), which no answer reads: the sweep reads it from the database.
 */
export const TRIGGER_WRITES: Readonly<Record<string, readonly string[]>> = {
  missions: ['mission_batches', 'mission_map_cells', 'lot_parts_kept'],
  applications: ['mission_batches'],
  devices: ['lot_parts_kept'],
  technician_mission_data: ['lot_parts_kept'],
  mission_batches: ['lot_sites', 'lot_markers', 'mission_map_cells'],
  transfers: ['invoices'],
};

/**
 * The database functions the app calls in a statement of its own (`select … from maillon_…(…)`), and the tables they
 * write: the statement's text names none of them (migrations 0023 and 0051–0053, decision 070). The triggers of those
 * tables follow, as for a write the text names.
 */
export const FUNCTION_WRITES: Readonly<Record<string, readonly string[]>> = {
  maillon_apply: ['applications'],
  maillon_fold_due_devices: ['row_counts'],
  maillon_recompute_batch_figures: ['mission_batches', 'invoices'],
  maillon_save_device_progress: ['technician_mission_data', 'mission_batches', 'invoices'],
  maillon_save_lot_comment: ['comments'],
};
const FUNCTION_CALL = /\b(maillon_[a-z0-9_]+)\s*\(/gi;

/**
 * Tables a statement writes ('*' for a schema change), with the tables its foreign-key actions reach and the functions
 * of FUNCTION_WRITES it calls write; or none.
 */
export function writtenTables(text: string): string[] {
  if (SCHEMA_CHANGE.test(text)) return ['*'];
  if (HARMLESS_WRITE.test(text)) return [];
  const tables = new Set<string>();
  for (const match of text.matchAll(WRITE)) {
    const table = (match[3] ?? match[2]!).toLowerCase();
    tables.add(table);
    const verb = match[1]!.toLowerCase();
    const reached = verb.startsWith('update') ? CASCADES.onUpdate.get(table) : verb.startsWith('insert') ? undefined : CASCADES.onDelete.get(table);
    for (const other of reached ?? []) tables.add(other);
  }
  for (const match of text.matchAll(FUNCTION_CALL)) for (const table of FUNCTION_WRITES[match[1]!.toLowerCase()] ?? []) tables.add(table);
  // The triggers' own writes: figures of a lot (never its counted columns) and the open lots' sites, one level deep.
  for (const table of [...tables]) {
    if (COUNTED.has(table)) tables.add(ROW_COUNTS_TABLE);
    for (const other of TRIGGER_WRITES[table] ?? []) tables.add(other);
  }
  return [...tables];
}

/** Tables a statement reads from or joins. */
export function readTables(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(READ)) names.push((match[2] ?? match[1]!).toLowerCase());
  return names;
}

interface Connection {
  /** Tables written inside the open transaction, recorded again when it ends. */
  pending: Set<string>;
}

function statementText(first: unknown): string {
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object' && 'text' in first && typeof first.text === 'string') return first.text;
  return '';
}

type AnyFunction = (...args: unknown[]) => unknown;

interface StatementTables {
  written: readonly string[];
  read: readonly string[];
  endsTransaction: boolean;
}

/**
 * What each statement text reads and writes, read once: a server sends the same few hundred texts again and again
 * (the regular expressions cost more than the lookup). Texts that vary with their input stop being remembered past
 * KNOWN_STATEMENTS_MAX; they are read each time, as before.
 */
const knownStatements = new Map<string, StatementTables>();
const KNOWN_STATEMENTS_MAX = 5000;

function tablesOf(text: string): StatementTables {
  let tables = knownStatements.get(text);
  if (!tables) {
    tables = { written: writtenTables(text), read: readTables(text), endsTransaction: TRANSACTION_END.test(text) };
    if (knownStatements.size < KNOWN_STATEMENTS_MAX) knownStatements.set(text, tables);
  }
  return tables;
}

/** Wraps `target[method]` (a query function, callback or promise style) so the tracker sees each statement. */
function watchQueries(target: Record<string, unknown>, method: string, tracker: ChangeTracker, connection: Connection): void {
  const original = (target[method] as AnyFunction).bind(target);
  target[method] = (...args: unknown[]) => {
    const text = statementText(args[0]);
    const { written, read, endsTransaction } = tablesOf(text);
    const scope = statementScope.getStore();
    if (scope?.collectReads) for (const table of read) scope.reads.add(table);
    if (written.length) {
      tracker.record(written);
      for (const table of written) connection.pending.add(table);
      if (scope) for (const table of written) scope.writes.add(table);
    }
    // A read has nothing to record once it is done: its call goes on as it came. Wrapping its callback (or chaining
    // its promise) for nothing kept each answer's rows alive through young collections, which then moved them to the
    // old generation (decision 084).
    if (!written.length && !endsTransaction) return original(...args);
    const settled = () => {
      if (written.length) tracker.record(written);
      if (endsTransaction) {
        tracker.record(connection.pending);
        connection.pending.clear();
      }
    };
    const callbackIndex = args.findIndex((a) => typeof a === 'function');
    if (callbackIndex >= 0) {
      const callback = args[callbackIndex] as AnyFunction;
      args[callbackIndex] = (...results: unknown[]) => {
        settled();
        return callback(...results);
      };
      return original(...args);
    }
    const result = original(...args);
    if (result instanceof Promise) return result.finally(settled);
    settled();
    return result;
  };
}

const WATCHED = Symbol.for('maillon.change-tracker');

interface PoolLike {
  connect: AnyFunction;
  query: AnyFunction;
}

interface PgliteLike {
  query: AnyFunction;
  exec: AnyFunction;
  transaction: AnyFunction;
}

function isPool(client: object): client is PoolLike {
  return 'connect' in client && 'totalCount' in client;
}

/**
 * Attaches a tracker to the database client behind `db` (node-postgres pool or PGlite) and returns it; the same
 * tracker on a second call, so every app built on one database shares it.
 */
export function trackChanges(db: Db): ChangeTracker {
  const client = (db as unknown as { $client: Record<PropertyKey, unknown> }).$client;
  const existing = client[WATCHED] as ChangeTracker | undefined;
  if (existing) return existing;
  const tracker = new ChangeTracker();
  client[WATCHED] = tracker;

  if (isPool(client)) {
    const watchClient = (pgClient: Record<PropertyKey, unknown> | undefined) => {
      if (!pgClient || pgClient[WATCHED]) return;
      pgClient[WATCHED] = true;
      watchQueries(pgClient, 'query', tracker, { pending: new Set() });
    };
    const connect = client.connect.bind(client);
    client.connect = (...args: unknown[]) => {
      const callback = args[0];
      if (typeof callback === 'function') {
        return connect((error: unknown, pgClient: Record<PropertyKey, unknown> | undefined, done: unknown) => {
          watchClient(pgClient);
          (callback as AnyFunction)(error, pgClient, done);
        });
      }
      return (connect() as Promise<Record<PropertyKey, unknown>>).then((pgClient) => {
        watchClient(pgClient);
        return pgClient;
      });
    };
    return tracker;
  }

  const pglite = client as unknown as PgliteLike & Record<string, unknown>;
  const outside: Connection = { pending: new Set() };
  watchQueries(pglite, 'query', tracker, outside);
  watchQueries(pglite, 'exec', tracker, outside);
  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = (callback: unknown) => {
    const inside: Connection = { pending: new Set() };
    const settled = () => {
      tracker.record(inside.pending);
      inside.pending.clear();
    };
    const result = transaction((tx: Record<string, unknown>) => {
      watchQueries(tx, 'query', tracker, inside);
      watchQueries(tx, 'exec', tracker, inside);
      return (callback as AnyFunction)(tx);
    }) as Promise<unknown>;
    return result.finally(settled);
  };
  return tracker;
}
