import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, count, desc, eq, max, notInArray, sum } from 'drizzle-orm';
import type { EmailStatus } from '@maillon/common/enums';
import type { AdminSettings, AuditEntry, OutboxEmail, OutboxEmailDetail } from '@maillon/common/schemas/settings';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { auditLog, emailAttachments, emailOutbox, jobs, storedFiles, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { literalLimit } from '../../lib/pagination';
import type { ObjectStorage } from '../../lib/storage/object-storage';

function databaseKind(db: Db): 'pglite' | 'postgres' {
  return (db as unknown as { $client?: unknown }).$client instanceof PGlite ? 'pglite' : 'postgres';
}

/** Sources written by people (manual form, CSV import); anything else came from the visit-suggestion tool. */
const HUMAN_JOB_SOURCES = ['manual', 'csv'];

/** The Réglages page: what the running server is really configured with. Never returns a secret. */
export async function getAdminSettings(
  db: Db,
  { config, storage, adminEmail }: { config: Config; storage: ObjectStorage; adminEmail: string },
): Promise<AdminSettings> {
  const [statusRows, [lastJob], [usage]] = await Promise.all([
    db.select({ status: emailOutbox.status, n: count() }).from(emailOutbox).groupBy(emailOutbox.status),
    db
      .select({ at: max(jobs.createdAt) })
      .from(jobs)
      .where(notInArray(jobs.source, HUMAN_JOB_SOURCES)),
    // Every stored object has its row (the orphan sweep removes the others): the rows give the usage of any store.
    db.select({ bytes: sum(storedFiles.size).mapWith(Number), files: count() }).from(storedFiles),
  ]);
  const stats: Record<EmailStatus, number> = { pending: 0, sent: 0, logged: 0, failed: 0 };
  for (const row of statusRows) if (row.status in stats) stats[row.status as EmailStatus] = Number(row.n);
  return {
    adminEmail,
    mail: { mode: config.SMTP_URL ? 'smtp' : 'logged', from: config.MAIL_FROM, stats },
    storage: {
      database: databaseKind(db),
      dataDir: path.resolve(config.DATA_DIR),
      uploadsBytes: usage?.bytes ?? 0,
      uploadsFiles: usage?.files ?? 0,
      filesDriver: storage.kind,
      filesLocation: storage.description,
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

/** Kinds whose links let their holder into an account: the admin reads the e-mail, not the link. */
const SECRET_LINK_KINDS = new Set(['password-reset']);

/** One e-mail of the outbox with its text and the list of its attachments (issue 19: what the site received). */
export async function getOutboxEmail(db: Db, { id }: { id: string }): Promise<OutboxEmailDetail> {
  const [row] = await db
    .select({
      id: emailOutbox.id,
      kind: emailOutbox.kind,
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      text: emailOutbox.text,
      status: emailOutbox.status,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: emailOutbox.createdAt,
      sentAt: emailOutbox.sentAt,
    })
    .from(emailOutbox)
    .where(eq(emailOutbox.id, id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'E-mail introuvable');
  const attachments = await db
    .select({ fileName: emailAttachments.fileName, contentType: emailAttachments.contentType, disposition: emailAttachments.disposition })
    .from(emailAttachments)
    .where(eq(emailAttachments.emailId, id))
    .orderBy(asc(emailAttachments.position));
  return {
    ...row,
    text: SECRET_LINK_KINDS.has(row.kind) ? row.text.replace(/https?:\/\/\S+/g, '[lien masqué]') : row.text,
    status: row.status as EmailStatus,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    attachments,
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
      .limit(literalLimit(limit))
      .offset(offset),
    db.select({ n: count() }).from(auditLog),
  ]);
  return { items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total: Number(total?.n ?? 0) };
}
