import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { Config } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { emailAttachments, emailOutbox } from '../db/schema';
import type { ObjectStorage } from './storage/object-storage';

/**
 * A file sent with an e-mail: bytes (a small generated document: an invitation, a PDF) or a stored object's key.
 * `calendar` sends an iCalendar invitation as the text/calendar part mail clients offer to add (its METHOD is read from
 * the content, e.g. REQUEST or CANCEL).
 */
export type OutgoingAttachment = { fileName: string; contentType: string; disposition?: 'attachment' | 'calendar' } & (
  { content: Uint8Array; storageKey?: undefined } | { storageKey: string; content?: undefined }
);

export interface OutgoingEmail {
  kind: 'client-notification' | 'password-reset' | 'registration-received' | 'technician-approved' | (string & {});
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutgoingAttachment[];
}

/** Attachments over this size (inline bytes) belong in the file store, referenced by key. */
const INLINE_ATTACHMENT_MAX_BYTES = 2 * 1024 * 1024;

/** Writes the e-mail (and its attachments) in the caller's transaction: it is sent if and only if the change commits. */
export async function enqueueEmail(tx: DbOrTx, email: OutgoingEmail): Promise<string> {
  const [row] = await tx
    .insert(emailOutbox)
    .values({ kind: email.kind, to: email.to, subject: email.subject, text: email.text, html: email.html ?? null })
    .returning({ id: emailOutbox.id });
  const attachments = email.attachments ?? [];
  if (attachments.length) {
    for (const attachment of attachments) {
      if (attachment.content && attachment.content.length > INLINE_ATTACHMENT_MAX_BYTES) {
        throw new Error(`Pièce jointe ${attachment.fileName} trop lourde pour la file d’envoi : passez par le stockage`);
      }
    }
    await tx.insert(emailAttachments).values(
      attachments.map((attachment, position) => ({
        emailId: row!.id,
        fileName: attachment.fileName,
        contentType: attachment.contentType,
        disposition: attachment.disposition ?? 'attachment',
        content: attachment.content ? Buffer.from(attachment.content) : null,
        storageKey: attachment.storageKey ?? null,
        position,
      })),
    );
  }
  return row!.id;
}

const MAX_ATTEMPTS = 8;
/** A claimed e-mail whose sender died is offered again after this lease. */
const CLAIM_LEASE_MS = 5 * 60_000;
const backoffMs = (attempts: number) => Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));

export interface OutboxResult {
  sent: number;
  logged: number;
  failed: number;
  retried: number;
}

export interface OutboxOptions {
  /** Tests pass a transport; otherwise one is made from SMTP_URL. */
  transporter?: Transporter;
  /** Where attachments given by key are read from (required once such an e-mail exists). */
  storage?: ObjectStorage;
  batchSize?: number;
}

/**
 * Sends the due pending e-mails once. A batch is claimed in one statement (FOR UPDATE SKIP LOCKED): any number of
 * workers on any number of instances never hold the same e-mail, and a claim is leased, so an e-mail whose sender
 * crashed is offered again later (with the same Message-ID). Without SMTP_URL they are marked "logged".
 */
export async function processOutbox(
  db: Db,
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  options: OutboxOptions = {},
): Promise<OutboxResult> {
  const result: OutboxResult = { sent: 0, logged: 0, failed: 0, retried: 0 };
  const limit = options.batchSize ?? 20;
  // A plain read first: an idle outbox never writes (each write would notify every instance's change feed).
  const [due] = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    // The database's clock decides what is due: rows get their default next_attempt_at from it.
    .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, sql`now()`)))
    .limit(1);
  if (!due) return result;

  const candidates = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(asc(emailOutbox.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });

  if (!config.SMTP_URL) {
    const logged = await db
      .update(emailOutbox)
      .set({ status: 'logged', attempts: sql`${emailOutbox.attempts} + 1`, sentAt: new Date() })
      .where(inArray(emailOutbox.id, candidates))
      .returning({ id: emailOutbox.id });
    result.logged = logged.length;
    return result;
  }

  const claimed = await db
    .update(emailOutbox)
    .set({
      attempts: sql`${emailOutbox.attempts} + 1`,
      nextAttemptAt: sql`now() + ${`${CLAIM_LEASE_MS} milliseconds`}::interval`,
    })
    .where(inArray(emailOutbox.id, candidates))
    .returning();
  if (claimed.length === 0) return result;
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const parts = await db
    .select()
    .from(emailAttachments)
    .where(
      inArray(
        emailAttachments.emailId,
        claimed.map((e) => e.id),
      ),
    )
    .orderBy(asc(emailAttachments.position));

  const transport = options.transporter ?? nodemailer.createTransport(config.SMTP_URL);
  try {
    for (const email of claimed) {
      try {
        const mail: Mail.Options = {
          from: config.MAIL_FROM,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html ?? undefined,
          // The outbox id is the Message-ID: a resend after a crash is recognisable as the same message.
          messageId: `<${email.id}@maillon.outbox>`,
        };
        await addAttachments(
          mail,
          parts.filter((p) => p.emailId === email.id),
          options.storage,
        );
        await transport.sendMail(mail);
        await db
          .update(emailOutbox)
          .set({ status: 'sent', sentAt: new Date(), lastError: null })
          .where(eq(emailOutbox.id, email.id));
        result.sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const failed = email.attempts >= MAX_ATTEMPTS;
        await db
          .update(emailOutbox)
          .set({
            status: failed ? 'failed' : 'pending',
            lastError: message.slice(0, 1000),
            nextAttemptAt: new Date(Date.now() + backoffMs(email.attempts)),
          })
          .where(eq(emailOutbox.id, email.id));
        if (failed) result.failed += 1;
        else result.retried += 1;
      }
    }
  } finally {
    if (!options.transporter) transport.close();
  }
  return result;
}

async function addAttachments(
  mail: Mail.Options,
  parts: (typeof emailAttachments.$inferSelect)[],
  storage: ObjectStorage | undefined,
) {
  const attachments: Mail.Attachment[] = [];
  for (const part of parts) {
    let content = part.content;
    if (!content) {
      if (!storage) throw new Error('Pièce jointe stockée mais aucun stockage configuré pour la lire');
      content = await storage.read(part.storageKey!);
      if (!content) throw new Error(`Pièce jointe introuvable dans le stockage : ${part.fileName}`);
    }
    if (part.disposition === 'calendar') {
      const method = /^METHOD:(\w+)/m.exec(content.toString('utf8'))?.[1] ?? 'PUBLISH';
      // The invitation as the alternative text/calendar part, and as a file for clients that ignore it.
      mail.icalEvent = { method, filename: part.fileName, content: content.toString('utf8') };
      continue;
    }
    attachments.push({ filename: part.fileName, contentType: part.contentType, content });
  }
  if (attachments.length) mail.attachments = attachments;
}
