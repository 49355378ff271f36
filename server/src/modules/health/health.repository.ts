import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** The `created_at` of every migration drizzle recorded as applied (the journal's `when`; schema "drizzle" on both drivers). */
export async function findAppliedMigrationTimes(db: Db): Promise<Set<number>> {
  const result = await db.execute<{ created_at: string | number }>(sql`select created_at from drizzle.__drizzle_migrations`);
  return new Set(result.rows.map((row) => Number(row.created_at)));
}

export interface OutboxBacklog {
  pending: number;
  failed: number;
  oldestPendingAgeSeconds: number;
}

/** Pending and failed e-mails and the age of the oldest pending one (email_outbox_pending_idx serves the filter). */
export async function getOutboxBacklog(db: Db): Promise<OutboxBacklog> {
  const result = await db.execute<{ status: string; n: number; age: number | null }>(sql`
    select status, count(*)::int as n, extract(epoch from now() - min(created_at))::float8 as age
    from email_outbox where status in ('pending', 'failed') group by status`);
  const backlog: OutboxBacklog = { pending: 0, failed: 0, oldestPendingAgeSeconds: 0 };
  for (const row of result.rows) {
    if (row.status === 'pending') {
      backlog.pending = Number(row.n);
      backlog.oldestPendingAgeSeconds = Math.max(0, Number(row.age ?? 0));
    } else backlog.failed = Number(row.n);
  }
  return backlog;
}
