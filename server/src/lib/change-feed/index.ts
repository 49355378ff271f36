import type { PGlite } from '@electric-sql/pglite';
import type { PoolConfig } from 'pg';
import type { Db } from '../../db/client';
import type { ChangeTracker } from '../change-tracker';
import { PgliteChangeFeed } from './pglite';
import { PostgresChangeFeed } from './postgres';

/**
 * Hears the tables other connections changed (other instances, psql, jobs) through the database's notifications
 * (triggers.ts) and records them in this process's change tracker, so the read cache and the session cache never serve
 * an answer older than a committed write, whichever instance made it (docs/decisions/).
 * - PostgreSQL: a dedicated LISTEN connection with heartbeat and reconnect. While it is down the tracker is suspended
 *   (nothing served from memory, nothing kept); when it listens again everything counts as changed once.
 * - PGlite: notifications are delivered inside this process only, which is the only process that can open it.
 */
export interface ChangeFeed {
  readonly kind: 'postgres' | 'pglite';
  /** Whether notifications are heard right now. */
  readonly listening: boolean;
  /** Times the listening connection was lost and opened again. */
  readonly reconnects: number;
  /**
   * Resolves once every change committed before the call has been heard: a marker is notified on the channel, and
   * notifications arrive in commit order. For tests that need a settled cache; rejects after `timeoutMs`.
   */
  caughtUp(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Payloads that are markers of caughtUp(), not table names. */
export const MARKER_PREFIX = 'caught-up:';

/** The markers a feed waits for, resolved as they come back on the channel. */
export class Markers {
  private readonly waiting = new Map<string, () => void>();

  /** True when the payload was a marker (handled), false when it names a table. */
  handle(payload: string): boolean {
    if (!payload.startsWith(MARKER_PREFIX)) return false;
    this.waiting.get(payload)?.();
    this.waiting.delete(payload);
    return true;
  }

  async wait(send: (payload: string) => Promise<unknown>, timeoutMs: number): Promise<void> {
    const payload = `${MARKER_PREFIX}${crypto.randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve, reject) => {
      this.waiting.set(payload, resolve);
      timer = setTimeout(() => {
        this.waiting.delete(payload);
        reject(new Error('Flux des changements : pas de réponse au marqueur'));
      }, timeoutMs);
    });
    try {
      await send(payload);
      await arrived;
    } finally {
      clearTimeout(timer);
    }
  }
}

export interface FeedLog {
  info(message: string): void;
  warn(message: string): void;
}

export async function startChangeFeed(db: Db, tracker: ChangeTracker, log: FeedLog): Promise<ChangeFeed> {
  const client = (db as unknown as { $client: object }).$client;
  if ('totalCount' in client && 'options' in client) {
    const feed = new PostgresChangeFeed((client as { options: PoolConfig }).options, tracker, log);
    await feed.start();
    return feed;
  }
  const feed = new PgliteChangeFeed(client as PGlite, tracker);
  await feed.start();
  return feed;
}
