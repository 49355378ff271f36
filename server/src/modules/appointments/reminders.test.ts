import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { applications, emailOutbox, missionBatches, missions, reminderDeliveries, scheduledTasks, technicianMissionData, visitLinks } from '../../db/schema';
import { Scheduler } from '../../lib/scheduler';
import { scheduledTasks as appTasks } from '../../scheduled-tasks';
import { recomputeBatchFigures, recruitApplication } from '../lifecycle/lifecycle.service';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { sendDeadlineDigest, sendEveOfVisitReminders } from './reminders.service';
import { addDays, parisDay } from './visit-time';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let adminEmail: string;
const quiet = { info: () => undefined, error: () => undefined };
const now = new Date();
const tomorrow = addDays(parisDay(now), 1);
const noonOf = (day: string) => new Date(`${day}T12:00:00Z`);

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://maillon.example.org' }, { poolSize: 6 });
  techA = await createTechnician(ctx.db, { firstName: 'Camille', lastName: 'Laurent', companyName: 'Défib’Services' });
  techB = await createTechnician(ctx.db, { firstName: 'Bruno', lastName: 'Petit' });
  adminEmail = (await createAdmin(ctx.db, 'admin-rappels@maillon.test')).email;
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

let counter = 0;
async function lot(technicianId: string, devices: { day: string | null; email?: string | null; done?: boolean; window?: 'morning' | null }[], deadline?: Date) {
  counter += 1;
  const [batch] = await ctx.db
    .insert(missionBatches)
    .values({ title: `Lot rappel ${counter}`, priceCents: 10_000, visibility: 'visible', deadline: deadline ?? new Date(Date.now() + 60 * 86_400_000) })
    .returning({ id: missionBatches.id });
  const rows = await ctx.db
    .insert(missions)
    .values(
      devices.map((device, k) => ({
        title: `Site ${counter}-${k + 1}`,
        batchId: batch!.id,
        status: 'active',
        location: `${k + 1} place Bellecour, 69002 Lyon`,
        postalCode: '69002',
        city: 'Lyon',
        telSite: '04 78 00 00 0' + k,
        emailSite: device.email === undefined ? `site${counter}-${k + 1}@exemple.fr` : device.email,
        defibrillatorModel: 'Philips HeartStart',
        serialNumber: `SN-${counter}-${k + 1}`,
      })),
    )
    .returning({ id: missions.id });
  const [application] = await ctx.db.insert(applications).values({ batchId: batch!.id, technicianId }).returning({ id: applications.id });
  await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  await ctx.db.insert(technicianMissionData).values(
    devices.map((device, k) => ({
      missionId: rows[k]!.id,
      technicianId,
      plannedVisitDate: device.day ? noonOf(device.day) : null,
      isCompleted: device.done ?? false,
      ...(device.window === 'morning' ? { visitWindow: 'morning', visitStartTime: '08:00', visitEndTime: '12:00' } : {}),
    })),
  );
  await ctx.db.transaction((tx) => recomputeBatchFigures(tx, batch!.id));
  return { batchId: batch!.id, missionIds: rows.map((r) => r.id), applicationId: application!.id };
}

async function reminderEmails() {
  return ctx.db
    .select({ id: emailOutbox.id, kind: emailOutbox.kind, to: emailOutbox.to, subject: emailOutbox.subject, text: emailOutbox.text })
    .from(emailOutbox)
    .where(inArray(emailOutbox.kind, ['reminder-technician-eve', 'reminder-site-eve', 'reminder-deadline-digest']))
    .orderBy(asc(emailOutbox.to), asc(emailOutbox.kind));
}

async function resetReminders() {
  await ctx.db.delete(reminderDeliveries);
  await ctx.db.delete(emailOutbox).where(inArray(emailOutbox.kind, ['reminder-technician-eve', 'reminder-site-eve', 'reminder-deadline-digest']));
}

describe('the eve of a visit', () => {
  let first: Awaited<ReturnType<typeof lot>>;
  beforeAll(async () => {
    first = await lot(techA.technician.id, [
      { day: tomorrow, window: 'morning' },
      { day: tomorrow, email: null },
      { day: addDays(tomorrow, 1) },
      { day: tomorrow, done: true },
    ]);
    await lot(techB.technician.id, [{ day: tomorrow }]);
    // Not recruited any more: no reminder.
    const cancelled = await lot(techB.technician.id, [{ day: tomorrow }]);
    await ctx.db.update(applications).set({ status: 'Annulé' }).where(eq(applications.id, cancelled.applicationId));
  });
  beforeEach(resetReminders);

  it('sends each technician tomorrow’s visits with addresses, site phones and Y ALLER links, and each site with an e-mail its reminder', async () => {
    const result = await sendEveOfVisitReminders(ctx.db, ctx.app.config, { now });
    const emails = await reminderEmails();
    expect(result.emails).toBe(emails.length);
    const forA = emails.filter((e) => e.to === techA.technician.email);
    expect(forA).toHaveLength(1);
    expect(forA[0]!.kind).toBe('reminder-technician-eve');
    expect(forA[0]!.subject).toBe(`Rappel : 2 visites demain (${tomorrow.split('-').reverse().join('/')})`);
    expect(forA[0]!.text).toContain(`Site ${counter - 2}-1`);
    expect(forA[0]!.text).toContain('le matin (8 h – 12 h)');
    expect(forA[0]!.text).toContain('Adresse : 1 place Bellecour, 69002 Lyon');
    expect(forA[0]!.text).toContain('Téléphone du site : 04 78 00 00 00');
    expect(forA[0]!.text).toContain(`Y ALLER : https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent('1 place Bellecour, 69002 Lyon')}`);
    expect(forA[0]!.text).toContain(`Site ${counter - 2}-2`);
    // The day after tomorrow and a done device are not in it.
    expect(forA[0]!.text).not.toContain(`Site ${counter - 2}-3`);
    expect(forA[0]!.text).not.toContain(`Site ${counter - 2}-4`);
    expect(emails.filter((e) => e.to === techB.technician.email)).toHaveLength(1);
    const sites = emails.filter((e) => e.kind === 'reminder-site-eve');
    expect(sites.map((e) => e.to).sort()).toEqual([`site${counter - 2}-1@exemple.fr`, `site${counter - 1}-1@exemple.fr`]);
    expect(sites[0]!.text).toContain('passera demain');
    expect(sites[0]!.text).not.toContain('Laurent');
  });

  it('sends once per recipient, visit and day: a second run, two workers at once, two schedulers, a crash and a restart send nothing more', async () => {
    // Two workers at once (no scheduler in between: the unique marks alone decide).
    const [one, two] = await Promise.all([
      sendEveOfVisitReminders(ctx.db, ctx.app.config, { now }),
      sendEveOfVisitReminders(ctx.db, ctx.app.config, { now }),
    ]);
    const sent = await reminderEmails();
    expect(sent.length).toBe(4);
    expect(one.emails + two.emails).toBe(4);
    expect(new Set(sent.map((e) => `${e.kind}:${e.to}`)).size).toBe(sent.length);

    // Run again: nothing new.
    expect((await sendEveOfVisitReminders(ctx.db, ctx.app.config, { now })).emails).toBe(0);

    // Two Scheduler instances ticking concurrently on the real task list.
    const tasks = appTasks(ctx.app).filter((task) => task.name === 'visit-reminders');
    const instances = [new Scheduler(ctx.db, tasks, quiet), new Scheduler(ctx.db, tasks, quiet)];
    await Promise.all(instances.map((s) => s.register()));
    await ctx.db.update(scheduledTasks).set({ nextRunAt: sql`now() - interval '1 second'` }).where(eq(scheduledTasks.name, 'visit-reminders'));
    const ran = await Promise.all(instances.map((s) => s.tick()));
    expect(ran.flat()).toEqual(['visit-reminders']);

    // A crash: an instance claimed the run, sent, and died before releasing it; another takes it after the lease.
    await ctx.db
      .update(scheduledTasks)
      .set({ lockedBy: 'mort:1:abc', lockedUntil: sql`now() - interval '1 second'`, nextRunAt: sql`now() - interval '1 minute'` })
      .where(eq(scheduledTasks.name, 'visit-reminders'));
    expect(await instances[1]!.tick()).toEqual(['visit-reminders']);

    // A restart: a new app on the same database runs the task again.
    const restarted: FastifyInstance = await buildApp({ config: { ...ctx.app.config, READ_CACHE: false }, db: ctx.db });
    await restarted.ready();
    try {
      const task = appTasks(restarted).find((t) => t.name === 'visit-reminders')!;
      await task.run();
    } finally {
      await restarted.close();
    }
    expect(await reminderEmails()).toHaveLength(4);
    const marks = await ctx.db.select().from(reminderDeliveries);
    expect(marks.every((mark) => mark.emailId !== null)).toBe(true);
  });

  it('a visit moved to another day is reminded again for that day; the site’s reminder carries a fresh link when it was invited', async () => {
    await sendEveOfVisitReminders(ctx.db, ctx.app.config, { now });
    // Informed through the API: the site has a link for this slot.
    const cookie = await login(ctx.app, techA.technician.email);
    const missionId = first.missionIds[0]!;
    const informed = await as(ctx.app, cookie)({ method: 'POST', url: '/api/emails/client-notification', payload: { missionId, technicianId: techA.technician.id } });
    expect(informed.statusCode).toBe(200);
    const linksBefore = await ctx.db.select().from(visitLinks);
    await ctx.db.delete(reminderDeliveries).where(eq(reminderDeliveries.kind, 'site-eve'));
    await sendEveOfVisitReminders(ctx.db, ctx.app.config, { now });
    const siteMail = (await reminderEmails()).filter((e) => e.to === `site${counter - 2}-1@exemple.fr`).pop()!;
    expect(siteMail.text).toMatch(/https:\/\/maillon\.example\.org\/rdv\/[A-Za-z0-9_-]{43}/);
    const linksAfter = await ctx.db.select().from(visitLinks);
    expect(linksAfter.length).toBe(linksBefore.length + 1);
    // Tomorrow's visit moved to the day after: the reminder of that day is another one.
    const moved = await sendEveOfVisitReminders(ctx.db, ctx.app.config, { now: new Date(now.getTime() + 86_400_000) });
    expect(moved.emails).toBeGreaterThan(0);
  });
});

describe('the admin’s digest of lots due', () => {
  beforeEach(resetReminders);

  it('lists the lots due within 7 days with undone devices, once per admin, lot and day', async () => {
    const due = await lot(techA.technician.id, [{ day: null }, { day: null, done: true }], new Date(Date.now() + 3 * 86_400_000));
    await lot(techA.technician.id, [{ day: null }], new Date(Date.now() + 20 * 86_400_000));
    await lot(techA.technician.id, [{ day: null, done: true }], new Date(Date.now() + 2 * 86_400_000));
    const finished = await lot(techA.technician.id, [{ day: null }], new Date(Date.now() + 2 * 86_400_000));
    await ctx.db.update(missionBatches).set({ status: 'completed' }).where(eq(missionBatches.id, finished.batchId));

    const [one, two] = await Promise.all([sendDeadlineDigest(ctx.db, ctx.app.config, { now }), sendDeadlineDigest(ctx.db, ctx.app.config, { now })]);
    const digests = (await reminderEmails()).filter((e) => e.to === adminEmail);
    expect(one.emails + two.emails).toBeGreaterThanOrEqual(1);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.kind).toBe('reminder-deadline-digest');
    const [row] = await ctx.db.select({ title: missionBatches.title }).from(missionBatches).where(eq(missionBatches.id, due.batchId));
    expect(digests[0]!.text).toContain(row!.title);
    expect(digests[0]!.text).toContain('1/2 effectués');
    expect(digests[0]!.text).toContain('technicien : Camille Laurent');
    expect(digests[0]!.text).toContain('https://maillon.example.org/admin/dashboard?tab=missions-active');
    expect(digests[0]!.text).not.toContain(`Lot rappel ${counter - 2} —`);
    expect(digests[0]!.text).not.toContain(`Lot rappel ${counter - 1} —`);
    expect(digests[0]!.text).not.toContain(`Lot rappel ${counter} —`);
    expect((await sendDeadlineDigest(ctx.db, ctx.app.config, { now })).emails).toBe(0);
    // The next day, the lot is in that day's digest.
    expect((await sendDeadlineDigest(ctx.db, ctx.app.config, { now: new Date(now.getTime() + 86_400_000) })).emails).toBeGreaterThanOrEqual(1);
  });
});
