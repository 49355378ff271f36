import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../db/schema';
import { countRows, createTestContext, type TestContext } from '../../test/helpers';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp';
import { simpleParser } from 'mailparser';
import { enqueueEmail, processOutbox } from './outbox';

let ctx: TestContext;
let smtp: TestSmtpServer;
const MAIL_FROM = 'Maillon <no-reply@maillon.test>';

beforeAll(async () => {
  ctx = await createTestContext();
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.delete(emailOutbox);
  smtp.messages.length = 0;
  smtp.refuseWith(null);
});

const resetLink = 'http://localhost:3000/technician/reset-password?token=AbC-123_xyz';
const email = {
  kind: 'password-reset',
  to: 'jeanne.martin@exemple.fr',
  subject: 'Maillon — réinitialisation de votre mot de passe',
  text: `Bonjour,\n\nOuvrez ce lien pour choisir un nouveau mot de passe :\n${resetLink}\n\nCe lien est valable 1 heure.`,
};

async function row(id: string) {
  const [found] = await ctx.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return found!;
}

describe('processOutbox with a real SMTP server', () => {
  it('delivers a pending e-mail: recipient, subject and link arrive, the row is marked sent', async () => {
    const id = await enqueueEmail(ctx.db, email);
    const result = await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM });
    expect(result).toEqual({ sent: 1, logged: 0, failed: 0, retried: 0 });
    expect(smtp.messages).toHaveLength(1);
    const message = smtp.messages[0]!;
    expect(message.to).toEqual(['jeanne.martin@exemple.fr']);
    expect(message.from).toBe('no-reply@maillon.test');
    expect(message.subject).toBe('Maillon — réinitialisation de votre mot de passe');
    expect(message.body).toContain(resetLink);
    const stored = await row(id);
    expect(stored.status).toBe('sent');
    expect(stored.attempts).toBe(1);
    expect(stored.sentAt).toBeInstanceOf(Date);
    expect(stored.lastError).toBeNull();
    // A second run sends nothing more.
    expect(await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM })).toEqual({ sent: 0, logged: 0, failed: 0, retried: 0 });
    expect(smtp.messages).toHaveLength(1);
  });

  it('keeps a refused e-mail pending with the attempt counted, the error kept and a later retry; the retry delivers it', async () => {
    const id = await enqueueEmail(ctx.db, email);
    smtp.refuseWith('Mailbox full');
    const before = Date.now();
    const result = await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM });
    expect(result).toEqual({ sent: 0, logged: 0, failed: 0, retried: 1 });
    let stored = await row(id);
    expect(stored.status).toBe('pending');
    expect(stored.attempts).toBe(1);
    expect(stored.lastError).toContain('Mailbox full');
    expect(stored.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 25_000);

    // Not due yet: nothing is tried.
    smtp.refuseWith(null);
    expect(await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM })).toEqual({ sent: 0, logged: 0, failed: 0, retried: 0 });
    expect(smtp.messages).toHaveLength(0);

    // Once due, the retry delivers it.
    await ctx.db
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(emailOutbox.id, id));
    expect((await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM })).sent).toBe(1);
    stored = await row(id);
    expect(stored.status).toBe('sent');
    expect(stored.attempts).toBe(2);
    expect(stored.lastError).toBeNull();
    expect(smtp.messages[0]?.to).toEqual(['jeanne.martin@exemple.fr']);
  });

  it('backs off longer after each failure and gives up after the last attempt', async () => {
    const id = await enqueueEmail(ctx.db, email);
    smtp.refuseWith('Refused by policy');
    await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM });
    const firstDelay = (await row(id)).nextAttemptAt.getTime() - Date.now();
    await ctx.db
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(emailOutbox.id, id));
    await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM });
    const secondDelay = (await row(id)).nextAttemptAt.getTime() - Date.now();
    expect(secondDelay).toBeGreaterThan(firstDelay * 1.5);

    await ctx.db
      .update(emailOutbox)
      .set({ attempts: 7, nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(emailOutbox.id, id));
    expect(await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM })).toEqual({ sent: 0, logged: 0, failed: 1, retried: 0 });
    const stored = await row(id);
    expect(stored.status).toBe('failed');
    expect(stored.attempts).toBe(8);
    expect(stored.lastError).toContain('Refused by policy');
  });

  it('counts an unreachable SMTP server as a failed attempt', async () => {
    const id = await enqueueEmail(ctx.db, email);
    const closed = await startTestSmtpServer();
    const url = closed.url;
    await closed.close();
    const result = await processOutbox(ctx.db, { SMTP_URL: url, MAIL_FROM });
    expect(result.retried).toBe(1);
    const stored = await row(id);
    expect(stored.status).toBe('pending');
    expect(stored.attempts).toBe(1);
    expect(stored.lastError).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe('processOutbox without SMTP_URL', () => {
  it('marks due e-mails as logged without sending anything', async () => {
    const id = await enqueueEmail(ctx.db, email);
    const result = await processOutbox(ctx.db, { SMTP_URL: undefined, MAIL_FROM });
    expect(result).toEqual({ sent: 0, logged: 1, failed: 0, retried: 0 });
    const stored = await row(id);
    expect(stored.status).toBe('logged');
    expect(stored.attempts).toBe(1);
    expect(stored.sentAt).toBeInstanceOf(Date);
    expect(smtp.messages).toHaveLength(0);
  });
});

describe('enqueueEmail', () => {
  it('writes nothing when the surrounding transaction rolls back', async () => {
    await expect(
      ctx.db.transaction(async (tx) => {
        await enqueueEmail(tx, email);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await countRows(ctx.db, 'email_outbox')).toBe(0);
  });
});

describe('attachments', () => {
  const invitation = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Maillon//FR',
    'METHOD:REQUEST',
    'BEGIN:VEVENT',
    'UID:visite-1@maillon',
    'DTSTAMP:20261124T100000Z',
    'DTSTART:20261201T080000Z',
    'SUMMARY:Maintenance du défibrillateur',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  const pdf = Buffer.from('%PDF-1.4\n% procès-verbal\n%%EOF\n');

  it('sends inline and stored attachments and the calendar invitation, parsed back by an independent MIME parser', async () => {
    const storageKey = `generated/${crypto.randomUUID()}.pdf`;
    await ctx.app.storage.put(storageKey, pdf, 'application/pdf');
    const id = await enqueueEmail(ctx.db, {
      ...email,
      attachments: [
        { fileName: 'visite.ics', contentType: 'text/calendar', disposition: 'calendar', content: Buffer.from(invitation) },
        { fileName: 'proces-verbal.pdf', contentType: 'application/pdf', storageKey },
        { fileName: 'note.txt', contentType: 'text/plain', content: Buffer.from('Accès par le parking') },
      ],
    });
    expect(await countRows(ctx.db, 'email_attachments')).toBe(3);
    const result = await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM }, { storage: ctx.app.storage });
    expect(result.sent).toBe(1);
    const parsed = await simpleParser(smtp.messages[0]!.raw);
    expect(parsed.messageId).toBe(`<${id}@maillon.outbox>`);
    expect(parsed.text).toContain(resetLink);
    const byName = new Map(parsed.attachments.map((a) => [a.filename ?? a.contentType, a]));
    const pdfPart = byName.get('proces-verbal.pdf')!;
    expect(pdfPart.contentType).toBe('application/pdf');
    expect(Buffer.compare(pdfPart.content, pdf)).toBe(0);
    expect(byName.get('note.txt')!.content.toString()).toBe('Accès par le parking');
    const calendar = parsed.attachments.find((a) => a.contentType === 'text/calendar')!;
    expect(calendar.content.toString()).toContain('UID:visite-1@maillon');
    expect(smtp.messages[0]!.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
  });

  it('retries later when a stored attachment cannot be read (the e-mail is never sent without it)', async () => {
    const id = await enqueueEmail(ctx.db, {
      ...email,
      attachments: [
        { fileName: 'absent.pdf', contentType: 'application/pdf', storageKey: `generated/${crypto.randomUUID()}.pdf` },
      ],
    });
    const result = await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM }, { storage: ctx.app.storage });
    expect(result).toEqual({ sent: 0, logged: 0, failed: 0, retried: 1 });
    expect(smtp.messages).toHaveLength(0);
    expect((await row(id)).lastError).toContain('absent.pdf');
  });

  it('deleting the e-mail removes its attachments', async () => {
    const id = await enqueueEmail(ctx.db, {
      ...email,
      attachments: [{ fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') }],
    });
    await ctx.db.delete(emailOutbox).where(eq(emailOutbox.id, id));
    expect(await countRows(ctx.db, 'email_attachments')).toBe(0);
  });
});

describe('several workers at once', () => {
  it('claims each e-mail once: 40 e-mails, 4 concurrent workers, 40 messages, no duplicate Message-ID', async () => {
    for (let i = 0; i < 40; i += 1) await enqueueEmail(ctx.db, { ...email, to: `dest${i}@exemple.fr` });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM }, { batchSize: 15 })),
    );
    let total = results.reduce((sum, r) => sum + r.sent, 0);
    while (total < 40) total += (await processOutbox(ctx.db, { SMTP_URL: smtp.url, MAIL_FROM })).sent;
    expect(total).toBe(40);
    expect(smtp.messages).toHaveLength(40);
    const ids = smtp.messages.map((m) => /Message-ID: (<[^>]+>)/i.exec(m.raw)?.[1]);
    expect(new Set(ids).size).toBe(40);
  });
});
