/** The change feed's contract and the markers of caughtUp(), shared by both drivers (index.ts picks one). */

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
