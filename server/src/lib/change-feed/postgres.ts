import pg from 'pg';
import type { ChangeTracker } from '../change-tracker';
import { Markers, type ChangeFeed, type FeedLog } from './feed';
import { CHANGE_CHANNEL } from './triggers';

const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 3_000;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** The name other tools (and the tests) see in pg_stat_activity. */
export const CHANGE_FEED_APPLICATION = 'maillon-change-feed';

/**
 * One dedicated connection LISTENing on the change channel. Lost (server restart, pg_terminate_backend, a silent
 * network drop caught by the heartbeat): the tracker is suspended at once and the connection opened again with backoff;
 * once it listens again the tracker resumes with everything counted as changed, so no invalidation is ever lost.
 */
export class PostgresChangeFeed implements ChangeFeed {
  readonly kind = 'postgres' as const;
  reconnects = 0;
  private client: pg.Client | null = null;
  private closed = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private delay = RECONNECT_MIN_MS;
  private readonly markers = new Markers();

  constructor(
    private readonly options: pg.ClientConfig,
    private readonly tracker: ChangeTracker,
    private readonly log: FeedLog,
  ) {}

  get listening(): boolean {
    return this.client !== null;
  }

  /** Suspends the tracker and makes a first attempt; later attempts run in the background until close. */
  async start(): Promise<void> {
    this.tracker.suspend();
    await this.connect();
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private async connect(): Promise<void> {
    if (this.closed || this.client) return;
    const client = new pg.Client({
      ...this.options,
      application_name: CHANGE_FEED_APPLICATION,
      keepAlive: true,
      connectionTimeoutMillis: 2_000,
    });
    client.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL && message.payload && !this.markers.handle(message.payload))
        this.tracker.record([message.payload]);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.log.warn(`Flux des changements : connexion impossible (${(error as Error).message}), nouvel essai`);
      this.scheduleReconnect();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.delay = RECONNECT_MIN_MS;
    this.tracker.resume();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.tracker.suspend();
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.reconnects += 1;
    this.log.warn('Flux des changements : connexion perdue, caches suspendus jusqu’à la reconnexion');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    const delay = this.delay;
    this.delay = Math.min(RECONNECT_MAX_MS, this.delay * 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, delay);
    this.retry.unref();
  }

  /** A connection that stopped answering (a network drop without a reset) counts as lost. */
  private async beat(): Promise<void> {
    const client = this.client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('heartbeat timeout')), HEARTBEAT_TIMEOUT_MS);
    });
    try {
      await Promise.race([client.query('select 1'), timeout]);
    } catch {
      this.lost(client);
    } finally {
      clearTimeout(timer);
    }
  }

  async caughtUp(timeoutMs = 2_000): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('Flux des changements : pas à l’écoute');
    // Sent on the listening connection itself: its own notification comes back after every earlier commit's.
    await this.markers.wait((payload) => client.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, payload]), timeoutMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
