import type { PGlite } from '@electric-sql/pglite';
import type { ChangeTracker } from '../change-tracker';
import { Markers, type ChangeFeed } from './feed';
import { CHANGE_CHANNEL } from './triggers';

/** PGlite runs inside this process: its notifications (trigger-side writes included) arrive here and only here. */
export class PgliteChangeFeed implements ChangeFeed {
  readonly kind = 'pglite' as const;
  readonly reconnects = 0;
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly markers = new Markers();

  constructor(
    private readonly client: PGlite,
    private readonly tracker: ChangeTracker,
  ) {}

  get listening(): boolean {
    return this.unsubscribe !== null;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.client.listen(CHANGE_CHANNEL, (table) => {
      if (table && !this.markers.handle(table)) this.tracker.record([table]);
    });
  }

  async caughtUp(timeoutMs = 2_000): Promise<void> {
    await this.markers.wait((payload) => this.client.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, payload]), timeoutMs);
  }

  async close(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    if (unsubscribe && !this.client.closed) await unsubscribe().catch(() => undefined);
  }
}
