import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { emailOutbox } from '../db/schema';

export interface OutgoingEmail {
  kind: 'client-notification' | 'password-reset' | 'registration-received' | 'technician-approved' | (string & {});
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Writes the e-mail in the caller's transaction: it is sent if and only if the change commits. */
export async function enqueueEmail(tx: DbOrTx, email: OutgoingEmail): Promise<string> {
  const [row] = await tx
    .insert(emailOutbox)
    .values({ kind: email.kind, to: email.to, subject: email.subject, text: email.text, html: email.html ?? null })
    .returning({ id: emailOutbox.id });
  return row!.id;
}

const MAX_ATTEMPTS = 8;
const backoffMs = (attempts: number) => Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));

export interface OutboxResult {
  sent: number;
  logged: number;
  failed: number;
  retried: number;
}

/**
 * Sends the due pending e-mails once. Rows are claimed with FOR UPDATE SKIP LOCKED on PostgreSQL so several
 * instances never send the same e-mail twice. Without SMTP_URL they are marked "logged".
 */
export async function processOutbox(db: Db, config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>, transporter?: Transporter): Promise<OutboxResult> {
  const result: OutboxResult = { sent: 0, logged: 0, failed: 0, retried: 0 };
  const due = await db
    .select()
    .from(emailOutbox)
    // The database's clock decides what is due: rows get their default next_attempt_at from it, in microseconds.
    .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, sql`now()`)))
    .orderBy(asc(emailOutbox.createdAt))
    .limit(20);
  if (due.length === 0) return result;
  if (!config.SMTP_URL) {
    await db
      .update(emailOutbox)
      .set({ status: 'logged', attempts: sql`${emailOutbox.attempts} + 1`, sentAt: new Date() })
      .where(inArray(emailOutbox.id, due.map((e) => e.id)));
    result.logged = due.length;
    return result;
  }
  const transport = transporter ?? nodemailer.createTransport(config.SMTP_URL);
  for (const email of due) {
    // Claim the row: only one worker moves it out of "pending" for this attempt.
    const claimed = await db
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1`, nextAttemptAt: new Date(Date.now() + 5 * 60_000) })
      .where(and(eq(emailOutbox.id, email.id), eq(emailOutbox.status, 'pending'), eq(emailOutbox.attempts, email.attempts)))
      .returning({ attempts: emailOutbox.attempts });
    if (claimed.length === 0) continue;
    const attempts = claimed[0]!.attempts;
    try {
      // The outbox id is the Message-ID: a resend after a crash is recognisable as the same message.
      await transport.sendMail({
        from: config.MAIL_FROM,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html ?? undefined,
        messageId: `<${email.id}@maillon.outbox>`,
      });
      await db.update(emailOutbox).set({ status: 'sent', sentAt: new Date(), lastError: null }).where(eq(emailOutbox.id, email.id));
      result.sent += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const failed = attempts >= MAX_ATTEMPTS;
      await db
        .update(emailOutbox)
        .set({
          status: failed ? 'failed' : 'pending',
          lastError: message.slice(0, 1000),
          nextAttemptAt: new Date(Date.now() + backoffMs(attempts)),
        })
        .where(eq(emailOutbox.id, email.id));
      if (failed) result.failed += 1;
      else result.retried += 1;
    }
  }
  if (!transporter) transport.close();
  return result;
}

/** Runs the outbox every few seconds in the server process; returns a stop function. */
export function startOutboxWorker(db: Db, config: Config, log: { error: (obj: unknown, msg?: string) => void }, intervalMs = 5000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    processOutbox(db, config)
      .catch((error) => log.error(error, 'outbox'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
