import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { count, desc, eq, max, notInArray } from 'drizzle-orm';
import type { EmailStatus } from '@maillon/common/enums';
import type { AdminSettings, AuditEntry, OutboxEmail } from '@maillon/common/schemas/settings';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { auditLog, emailOutbox, jobs, users } from '../../db/schema';

const MAX_WALKED_ENTRIES = 200_000;

/** Size and number of files in the upload store (bounded walk: a huge store answers a lower bound, never hangs). */
async function uploadsUsage(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  let walked = 0;
  const stack = [dir];
  while (stack.length > 0 && walked < MAX_WALKED_ENTRIES) {
    const current = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      walked += 1;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) {
        const stat = await fs.stat(full).catch(() => null);
        if (stat) {
          bytes += stat.size;
          files += 1;
        }
      }
    }
  }
  return { bytes, files };
}

function databaseKind(db: Db): 'pglite' | 'postgres' {
  return (db as unknown as { $client?: unknown }).$client instanceof PGlite ? 'pglite' : 'postgres';
}

/** Sources written by people (manual form, CSV import); anything else came from the visit-suggestion tool. */
const HUMAN_JOB_SOURCES = ['manual', 'csv'];

/** The Réglages page: what the running server is really configured with. Never returns a secret. */
export async function getAdminSettings(
  db: Db,
  { config, adminEmail }: { config: Config; adminEmail: string },
): Promise<AdminSettings> {
  const [statusRows, [lastJob], usage] = await Promise.all([
    db.select({ status: emailOutbox.status, n: count() }).from(emailOutbox).groupBy(emailOutbox.status),
    db
      .select({ at: max(jobs.createdAt) })
      .from(jobs)
      .where(notInArray(jobs.source, HUMAN_JOB_SOURCES)),
    uploadsUsage(config.uploadsDir),
  ]);
  const stats: Record<EmailStatus, number> = { pending: 0, sent: 0, logged: 0, failed: 0 };
  for (const row of statusRows) if (row.status in stats) stats[row.status as EmailStatus] = Number(row.n);
  return {
    adminEmail,
    mail: { mode: config.SMTP_URL ? 'smtp' : 'logged', from: config.MAIL_FROM, stats },
    storage: {
      database: databaseKind(db),
      dataDir: path.resolve(config.DATA_DIR),
      uploadsBytes: usage.bytes,
      uploadsFiles: usage.files,
    },
    ingestion: {
      configured: Boolean(config.INGEST_API_KEY),
      path: '/api/jobs/ingest',
      publicUrl: config.PUBLIC_URL ?? null,
      lastIngestedAt: lastJob?.at ? new Date(lastJob.at).toISOString() : null,
    },
  };
}

/** The latest e-mails of the outbox, newest first (the body is not shown: it may hold a reset link). */
export async function listOutboxEmails(
  db: Db,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ items: OutboxEmail[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: emailOutbox.id,
        kind: emailOutbox.kind,
        to: emailOutbox.to,
        subject: emailOutbox.subject,
        status: emailOutbox.status,
        attempts: emailOutbox.attempts,
        lastError: emailOutbox.lastError,
        createdAt: emailOutbox.createdAt,
        sentAt: emailOutbox.sentAt,
      })
      .from(emailOutbox)
      .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(emailOutbox),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      status: r.status as EmailStatus,
      createdAt: r.createdAt.toISOString(),
      sentAt: r.sentAt?.toISOString() ?? null,
    })),
    total: Number(total?.n ?? 0),
  };
}

/** The append-only audit trail, newest first, with the acting account's e-mail. */
export async function listAuditEntries(
  db: Db,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ items: AuditEntry[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        actorEmail: users.email,
        action: auditLog.action,
        entity: auditLog.entity,
        entityId: auditLog.entityId,
        before: auditLog.before,
        after: auditLog.after,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(auditLog),
  ]);
  return { items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total: Number(total?.n ?? 0) };
}
