import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { AppError } from './app-error';

/**
 * Fixed-window counter in the database (shared by every instance). Returns the count after this hit.
 */
export async function hitRateLimit(db: DbOrTx, key: string, windowMs: number): Promise<number> {
  const result = await db.execute<{ count: number }>(sql`
    insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - (${windowMs} * interval '1 millisecond') then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - (${windowMs} * interval '1 millisecond') then now() else rate_limits.window_start end
    returning count`);
  return Number(result.rows[0]?.count ?? 1);
}

export async function peekRateLimit(db: DbOrTx, key: string, windowMs: number): Promise<number> {
  const result = await db.execute<{ count: number }>(sql`
    select count from rate_limits where key = ${key}
      and window_start >= now() - (${windowMs} * interval '1 millisecond')`);
  return Number(result.rows[0]?.count ?? 0);
}

export async function clearRateLimit(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

export async function enforceRateLimit(db: DbOrTx, key: string, limit: number, windowMs: number): Promise<void> {
  const count = await hitRateLimit(db, key, windowMs);
  if (count > limit) throw new AppError('RATE_LIMITED', 'Trop de tentatives, réessayez dans quelques minutes');
}
