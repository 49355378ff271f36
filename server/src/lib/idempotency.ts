import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';

/** How long a key is remembered: a phone may stay offline over a weekend's night, not longer (decision 023). */
export const IDEMPOTENCY_TTL_MS = 48 * 60 * 60 * 1000;
/**
 * How long a request holds its key before another request with the same key may take it over. Longer than any write
 * takes (an upload of 10 MB to the store included); after a crash the key is free again once it has passed.
 */
export const IDEMPOTENCY_LEASE_MS = 2 * 60 * 1000;

export interface IdempotencyRequest {
  userId: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
}

export type Reservation =
  | { outcome: 'reserved' }
  | { outcome: 'replay'; status: number; type: string | null; body: string | null }
  | { outcome: 'mismatch' }
  | { outcome: 'in-progress' };

/**
 * Claims a key for a request, or says what to do instead: replay the stored answer, refuse a key reused for another
 * request, or refuse while the first request with that key is still running. A key older than the TTL counts as new,
 * and a pending key whose lease has passed (its request's process died) is taken over.
 */
export async function reserveIdempotencyKey(db: Db, request: IdempotencyRequest, now = new Date()): Promise<Reservation> {
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...request, state: 'pending', lockedUntil, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return { outcome: 'reserved' };

    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, request.key)))
      .limit(1);
    if (!existing) continue; // purged in between: claim it again
    if (existing.createdAt.getTime() <= now.getTime() - IDEMPOTENCY_TTL_MS) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, request.key), eq(idempotencyKeys.createdAt, existing.createdAt)));
      continue;
    }
    if (existing.method !== request.method || existing.path !== request.path || existing.fingerprint !== request.fingerprint) {
      return { outcome: 'mismatch' };
    }
    if (existing.state === 'done' && existing.responseStatus !== null) {
      return { outcome: 'replay', status: existing.responseStatus, type: existing.responseType, body: existing.responseBody };
    }
    if (existing.lockedUntil && existing.lockedUntil.getTime() > now.getTime()) return { outcome: 'in-progress' };
    // The request that held it never answered (its process stopped): this one takes the key over, once.
    const taken = await db
      .update(idempotencyKeys)
      .set({ lockedUntil })
      .where(
        and(
          eq(idempotencyKeys.userId, request.userId),
          eq(idempotencyKeys.key, request.key),
          eq(idempotencyKeys.state, 'pending'),
          existing.lockedUntil ? eq(idempotencyKeys.lockedUntil, existing.lockedUntil) : sql`${idempotencyKeys.lockedUntil} is null`,
        ),
      )
      .returning({ key: idempotencyKeys.key });
    return taken.length > 0 ? { outcome: 'reserved' } : { outcome: 'in-progress' };
  }
  return { outcome: 'in-progress' };
}

/** Keeps the answer of a request that ran, so the same key gets it again. */
export async function completeIdempotencyKey(
  db: Db,
  { userId, key }: Pick<IdempotencyRequest, 'userId' | 'key'>,
  answer: { status: number; type: string | null; body: string | null },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', lockedUntil: null, responseStatus: answer.status, responseType: answer.type, responseBody: answer.body })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, 'pending')));
}

/** Frees a key whose request changed nothing the client could not redo (a 5xx, a 429): a retry runs again. */
export async function releaseIdempotencyKey(db: Db, { userId, key }: Pick<IdempotencyRequest, 'userId' | 'key'>): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, 'pending')));
}

/** Scheduled: forgets keys past their TTL. */
export async function purgeExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  const removed = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return removed.length;
}
