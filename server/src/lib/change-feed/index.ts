import type { PGlite } from '@electric-sql/pglite';
import type { PoolConfig } from 'pg';
import type { Db } from '../../db/client';
import type { ChangeTracker } from '../change-tracker';
import type { ChangeFeed, FeedLog } from './feed';
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
export { MARKER_PREFIX, type ChangeFeed, type FeedLog } from './feed';

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
