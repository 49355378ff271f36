import type { PGlite } from '@electric-sql/pglite';
import type { ChangeTracker } from '../change-tracker';
import type { ChangeFeed } from './index';
import { CHANGE_CHANNEL } from './triggers';

/** PGlite runs inside this process: its notifications (trigger-side writes included) arrive here and only here. */
export class PgliteChangeFeed implements ChangeFeed {
  readonly kind = 'pglite' as const;
  readonly reconnects = 0;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly client: PGlite,
    private readonly tracker: ChangeTracker,
  ) {}

  get listening(): boolean {
    return this.unsubscribe !== null;
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.client.listen(CHANGE_CHANNEL, (table) => {
      if (table) this.tracker.record([table]);
    });
  }

  async close(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    if (unsubscribe && !this.client.closed) await unsubscribe().catch(() => undefined);
  }
}
