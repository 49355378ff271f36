import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { applicationWorkSchema, missionProgressSchema } from '@maillon/common/schemas/field-work';
import { calendarFeedSchema, siteVisitSchema, SITE_PROPOSAL_MESSAGES } from '@maillon/common/schemas/appointments';
import { VISIT_SLOT_MESSAGES } from '@maillon/common/visit-slot';
import { applications, emailAttachments, emailOutbox, missionBatches, missions, technicianMissionData, users, visitAppointments, visitLinks } from '../../db/schema';
import { recruitApplication } from '../lifecycle/lifecycle.service';
import { as, countRows, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../../test/helpers';
import { longestLineOctets, parseIcs } from '../../../test/ics';
import { APPOINTMENT_MESSAGES, confirmSiteVisit, LINK_NOT_FOUND, proposeSiteVisit, sweepStaleInvitations } from './appointments.service';
import { addDays, parisDay, parisInstant } from './visit-time';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;
const today = parisDay(new Date());
const inDays = (n: number) => addDays(today, n);

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: 'https://maillon.example.org' });
  techA = await createTechnician(ctx.db, { firstName: 'Camille', lastName: 'Laurent', phone: '06 11 22 33 44', companyName: 'Défib’Services', address: '1 rue de la Paix', postalCode: '75002', city: 'Paris' });
  techB = await createTechnician(ctx.db, { firstName: 'Bruno', lastName: 'Petit' });
  const admin = await createAdmin(ctx.db);
  cookieA = await login(ctx.app, techA.technician.email);
  cookieB = await login(ctx.app, techB.technician.email);
  cookieAdmin = await login(ctx.app, admin.email);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

let lotCounter = 0;
const LONG_LOCATION = 'Résidence « Les Érables », bâtiment Œ, escalier C, 3ᵉ étage, 12 bis rue de l’Hôtel-de-Ville, 69002 Lyon';

async function makeLot(technicianId: string, { count = 2, withEmail = true } = {}) {
  lotCounter += 1;
  const [lot] = await ctx.db
    .insert(missionBatches)
    .values({ title: `Lot rdv ${lotCounter}`, priceCents: 20_000, departments: ['69'], visibility: 'visible', deadline: new Date(Date.now() + 30 * 86_400_000) })
    .returning({ id: missionBatches.id });
  const rows = await ctx.db
    .insert(missions)
    .values(
      Array.from({ length: count }, (_, k) => ({
        title: `Mairie ${lotCounter}-${k + 1}`,
        batchId: lot!.id,
        status: 'active',
        serialNumber: `SN-R-${lotCounter}-${k + 1}`,
        defibrillatorModel: 'ZOLL - AED Plus',
        clientName: 'Mairie de Lyon',
        telSite: '04 72 00 00 00',
        emailSite: withEmail ? `accueil${lotCounter}-${k + 1}@mairie.test` : null,
        location: LONG_LOCATION,
        postalCode: '69002',
        city: 'Lyon',
      })),
    )
    .returning({ id: missions.id });
  const [application] = await ctx.db.insert(applications).values({ batchId: lot!.id, technicianId, status: 'En attente' }).returning({ id: applications.id });
  await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
  return { lotId: lot!.id, missionIds: rows.map((r) => r.id), applicationId: application!.id };
}

const techId = () => techA.technician.id;
const plan = (missionId: string, payload: Record<string, unknown>, cookie = cookieA) =>
  as(ctx.app, cookie)({ method: 'PATCH', url: `/api/technician-mission-data/${missionId}/${techId()}`, payload });
const inform = (missionId: string, extra: Record<string, unknown> = {}) =>
  as(ctx.app, cookieA)({ method: 'POST', url: '/api/emails/client-notification', payload: { missionId, technicianId: techId(), ...extra } });
const site = (token: string, action?: 'confirm' | 'propose', payload?: Record<string, unknown>, ip = '203.0.113.10') =>
  ctx.app.inject({
    method: action ? 'POST' : 'GET',
    url: `/api/site-visits/${token}${action ? `/${action}` : ''}`,
    remoteAddress: ip,
    ...(action ? { payload: payload ?? {} } : {}),
  });
const answer = (missionId: string, decision: 'accept' | 'refuse', cookie = cookieA) =>
  as(ctx.app, cookie)({ method: 'POST', url: `/api/technician-mission-data/${missionId}/${techId()}/site-proposal/${decision}` });

async function emailsTo(to: string) {
  return ctx.db
    .select({ id: emailOutbox.id, kind: emailOutbox.kind, subject: emailOutbox.subject, text: emailOutbox.text, html: emailOutbox.html })
    .from(emailOutbox)
    .where(eq(emailOutbox.to, to))
    .orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id));
}

async function lastEmailTo(to: string) {
  const list = await emailsTo(to);
  return list[list.length - 1]!;
}

async function calendarOf(emailId: string) {
  const [part] = await ctx.db
    .select({ fileName: emailAttachments.fileName, contentType: emailAttachments.contentType, disposition: emailAttachments.disposition, content: emailAttachments.content })
    .from(emailAttachments)
    .where(eq(emailAttachments.emailId, emailId));
  expect(part?.disposition).toBe('calendar');
  const text = Buffer.from(part!.content!).toString('utf8');
  return { text, calendar: parseIcs(text) };
}

const linkIn = (text: string) => /\/rdv\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? null;

async function work(applicationId: string) {
  const response = await as(ctx.app, cookieA)({ method: 'GET', url: `/api/applications/${applicationId}/work` });
  expect(response.statusCode).toBe(200);
  return applicationWorkSchema.parse(response.json());
}

describe('visit slot: « Je passerais le : » with an optional window', () => {
  it('saves matin / après-midi with their hours and a range with its own; keeps the window when only the date is sent', async () => {
    const lot = await makeLot(techId(), { count: 1 });
    const missionId = lot.missionIds[0]!;
    const morning = await plan(missionId, { plannedVisitDate: inDays(10), visitWindow: 'morning' });
    expect(morning.statusCode).toBe(200);
    expect(missionProgressSchema.parse(morning.json())).toMatchObject({ visitWindow: 'morning', visitStartTime: '08:00', visitEndTime: '12:00' });
    const range = await plan(missionId, { visitWindow: 'range', visitStartTime: '09:30', visitEndTime: '11:00' });
    expect(range.json()).toMatchObject({ visitWindow: 'range', visitStartTime: '09:30', visitEndTime: '11:00' });
    // A client of the spec's API sends only the date: the window stays.
    const dateOnly = await plan(missionId, { plannedVisitDate: inDays(11) });
    expect(dateOnly.json()).toMatchObject({ plannedVisitDate: `${inDays(11)}T12:00:00.000Z`, visitWindow: 'range', visitStartTime: '09:30' });
    const whole = await plan(missionId, { visitWindow: null });
    expect(whole.json()).toMatchObject({ visitWindow: null, visitStartTime: null, visitEndTime: null });
    await plan(missionId, { visitWindow: 'afternoon' });
    const cleared = await plan(missionId, { plannedVisitDate: null });
    expect(cleared.json()).toMatchObject({ plannedVisitDate: null, visitWindow: null, visitStartTime: null });
  });

  it('refuses a range without its hours, an end before its start, a bad window, and a window without a date', async () => {
    const lot = await makeLot(techId(), { count: 1 });
    const missionId = lot.missionIds[0]!;
    const noTimes = await plan(missionId, { plannedVisitDate: inDays(10), visitWindow: 'range' });
    expect(noTimes.statusCode).toBe(400);
    expect(noTimes.json().fields).toMatchObject({ visitStartTime: VISIT_SLOT_MESSAGES.rangeTimesRequired, visitEndTime: VISIT_SLOT_MESSAGES.rangeTimesRequired });
    const backwards = await plan(missionId, { plannedVisitDate: inDays(10), visitWindow: 'range', visitStartTime: '11:00', visitEndTime: '09:00' });
    expect(backwards.json().fields).toMatchObject({ visitEndTime: VISIT_SLOT_MESSAGES.endBeforeStart });
    const badTime = await plan(missionId, { plannedVisitDate: inDays(10), visitWindow: 'range', visitStartTime: '25:00', visitEndTime: '26:00' });
    expect(badTime.json().fields).toMatchObject({ visitStartTime: VISIT_SLOT_MESSAGES.badTime });
    const badWindow = await plan(missionId, { plannedVisitDate: inDays(10), visitWindow: 'soir' });
    expect(badWindow.json().fields).toMatchObject({ visitWindow: VISIT_SLOT_MESSAGES.badWindow });
    const noDate = await plan(missionId, { visitWindow: 'morning' });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.json().message).toBe(VISIT_SLOT_MESSAGES.windowWithoutDate);
    const [row] = await ctx.db.select().from(technicianMissionData).where(eq(technicianMissionData.missionId, missionId));
    expect(row?.plannedVisitDate ?? null).toBeNull();
  });
});

describe('Informer client: the invitation with its calendar file and personal link', () => {
  it('e-mails the day and window, the link and a METHOD:REQUEST invitation; an unchanged slot keeps its SEQUENCE, a new one raises it', async () => {
    const lot = await makeLot(techId(), { count: 1 });
    const missionId = lot.missionIds[0]!;
    const to = `accueil${lotCounter}-1@mairie.test`;
    await plan(missionId, { plannedVisitDate: inDays(10), visitWindow: 'morning' });
    const mismatch = await inform(missionId, { visitDate: inDays(10), visitWindow: 'afternoon' });
    expect(mismatch.statusCode).toBe(400);
    expect(await emailsTo(to)).toHaveLength(0);

    const first = await inform(missionId, { visitDate: inDays(10), visitWindow: 'morning' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, message: 'Client informé' });
    const mail = await lastEmailTo(to);
    expect(mail.kind).toBe('client-notification');
    expect(mail.text).toContain('le matin (8 h – 12 h)');
    expect(mail.text).toContain('Camille Laurent');
    expect(mail.text).toContain('06 11 22 33 44');
    const token = linkIn(mail.text)!;
    expect(mail.text).toContain(`https://maillon.example.org/rdv/${token}`);
    expect(mail.html).toContain(`/rdv/${token}`);
    const { text, calendar } = await calendarOf(mail.id);
    expect(calendar.method).toBe('REQUEST');
    const event = calendar.events[0]!;
    expect(event.sequence).toBe(0);
    expect(event.startZone).toBe('Europe/Paris');
    expect(event.start.getTime()).toBe(parisInstant(inDays(10), '08:00').getTime());
    expect(event.dtstampUtc).toBe(true);
    expect(event.location).toBe(LONG_LOCATION);
    expect(longestLineOctets(text)).toBeLessThanOrEqual(75);
    // Only the token's hash is stored.
    const stored = await ctx.db.select({ tokenHash: visitLinks.tokenHash }).from(visitLinks);
    expect(stored.some((row) => row.tokenHash === token)).toBe(false);

    // Informed again, same slot: same UID and SEQUENCE, a new link; the previous one is replaced.
    await inform(missionId);
    const again = await lastEmailTo(to);
    const sameEvent = (await calendarOf(again.id)).calendar.events[0]!;
    expect(sameEvent.uid).toBe(event.uid);
    expect(sameEvent.sequence).toBe(0);
    expect(siteVisitSchema.parse((await site(token)).json()).state).toBe('replaced');

    // A new slot: the old link dies at once, the next invitation raises SEQUENCE and says the date changed.
    const newToken = linkIn(again.text)!;
    await plan(missionId, { plannedVisitDate: inDays(12), visitWindow: 'range', visitStartTime: '14:30', visitEndTime: '16:00' });
    expect((await site(newToken)).json().state).toBe('replaced');
    await inform(missionId, { visitDate: inDays(12) });
    const updated = await lastEmailTo(to);
    expect(updated.subject).toContain('Nouvelle date');
    expect(updated.text).toContain('de 14 h 30 à 16 h');
    const updatedEvent = (await calendarOf(updated.id)).calendar.events[0]!;
    expect(updatedEvent.uid).toBe(event.uid);
    expect(updatedEvent.sequence).toBe(1);
    expect(updatedEvent.start.getTime()).toBe(parisInstant(inDays(12), '14:30').getTime());

    const view = await work(lot.applicationId);
    expect(view.missions[0]!.appointment).toMatchObject({ invitedSlot: { date: inDays(12), window: 'range', startTime: '14:30', endTime: '16:00' }, response: null });
  });
});

describe('the site contact’s link', () => {
  async function invited(window: Record<string, unknown> = { visitWindow: 'morning' }, days = 10) {
    const lot = await makeLot(techId(), { count: 1 });
    const missionId = lot.missionIds[0]!;
    await plan(missionId, { plannedVisitDate: inDays(days), ...window });
    expect((await inform(missionId)).statusCode).toBe(200);
    const to = `accueil${lotCounter}-1@mairie.test`;
    return { lot, missionId, to, token: linkIn((await lastEmailTo(to)).text)! };
  }

  it('shows the visit with the technician’s first name and company only, and Confirmer tells the technician once', async () => {
    const { lot, token } = await invited();
    const response = await site(token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    const view = siteVisitSchema.parse(response.json());
    expect(view).toMatchObject({ state: 'open', canConfirm: true, canPropose: true });
    expect(view.visit).toMatchObject({
      slot: { date: inDays(10), window: 'morning', startTime: '08:00', endTime: '12:00' },
      siteName: `Mairie ${lotCounter}-1`,
      deviceModel: 'ZOLL - AED Plus',
      serialNumber: `SN-R-${lotCounter}-1`,
      technicianFirstName: 'Camille',
      companyName: 'Défib’Services',
    });
    // No other personal data of the technician.
    expect(response.body).not.toContain('Laurent');
    expect(response.body).not.toContain('06 11 22 33 44');
    expect(response.body).not.toContain(techA.technician.email);

    const before = (await emailsTo(techA.technician.email)).length;
    const confirmed = await site(token, 'confirm');
    expect(confirmed.statusCode).toBe(200);
    expect(siteVisitSchema.parse(confirmed.json())).toMatchObject({ state: 'used', usedAction: 'confirmed', canConfirm: false });
    const told = await lastEmailTo(techA.technician.email);
    expect((await emailsTo(techA.technician.email)).length).toBe(before + 1);
    expect(told.kind).toBe('technician-site-confirmed');
    expect(told.subject).toContain('Passage confirmé par le site');
    expect((await work(lot.applicationId)).missions[0]!.appointment).toMatchObject({ response: 'confirmed', decision: null });

    // Used: said so, and a second answer changes nothing.
    const reused = await site(token, 'confirm');
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(APPOINTMENT_MESSAGES.used);
    const proposeAfter = await site(token, 'propose', { date: inDays(15) });
    expect(proposeAfter.statusCode).toBe(409);
    expect((await emailsTo(techA.technician.email)).length).toBe(before + 1);
    expect((await site(token)).json()).toMatchObject({ state: 'used', usedAction: 'confirmed', visit: null });
  });

  it('Proposer une autre date: validated, the technician is told, then Accepter moves the visit and sends an updated invitation', async () => {
    const { lot, missionId, to, token } = await invited();
    const past = await site(token, 'propose', { date: inDays(-1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toMatchObject({ date: SITE_PROPOSAL_MESSAGES.pastDate });
    const same = await site(token, 'propose', { date: inDays(10), window: 'morning' });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(APPOINTMENT_MESSAGES.sameSlot);
    const noTimes = await site(token, 'propose', { date: inDays(14), window: 'range' });
    expect(noTimes.statusCode).toBe(400);
    const badDay = await site(token, 'propose', { date: '2026-02-30' });
    expect(badDay.json().fields).toMatchObject({ date: SITE_PROPOSAL_MESSAGES.dateRequired });
    expect((await site(token)).json().state).toBe('open');

    const firstInvitation = (await calendarOf((await lastEmailTo(to)).id)).calendar.events[0]!;
    const proposed = await site(token, 'propose', { date: inDays(14), window: 'afternoon', message: '  Le site est fermé le matin, accès par la cour.  ' });
    expect(proposed.statusCode).toBe(200);
    expect(proposed.json()).toMatchObject({
      state: 'used',
      usedAction: 'proposed',
      proposal: { slot: { date: inDays(14), window: 'afternoon', startTime: '14:00', endTime: '18:00' }, message: 'Le site est fermé le matin, accès par la cour.' },
    });
    const told = await lastEmailTo(techA.technician.email);
    expect(told.kind).toBe('technician-site-proposal');
    expect(told.text).toContain('Le site est fermé le matin, accès par la cour.');
    expect(told.text).toContain('https://maillon.example.org/technician/dashboard?tab=applications');
    const pending = (await work(lot.applicationId)).missions[0]!.appointment;
    expect(pending).toMatchObject({ response: 'proposed', decision: null, proposal: { slot: { date: inDays(14), window: 'afternoon' } } });

    // Another technician, and the admin, cannot answer it.
    expect((await answer(missionId, 'accept', cookieB)).statusCode).toBe(404);
    expect((await answer(missionId, 'accept', cookieAdmin)).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'POST', url: `/api/technician-mission-data/${missionId}/${techId()}/site-proposal/accept` })).statusCode).toBe(401);

    const accepted = await answer(missionId, 'accept');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().appointment).toMatchObject({ response: 'proposed', decision: 'accepted', invitedSlot: { date: inDays(14), window: 'afternoon' } });
    const [progress] = await ctx.db.select().from(technicianMissionData).where(eq(technicianMissionData.missionId, missionId));
    expect(parisDay(progress!.plannedVisitDate!)).toBe(inDays(14));
    expect(progress!.visitWindow).toBe('afternoon');
    const update = await lastEmailTo(to);
    expect(update.subject).toContain('Nouvelle date confirmée');
    const updated = (await calendarOf(update.id)).calendar;
    expect(updated.method).toBe('REQUEST');
    expect(updated.events[0]!.uid).toBe(firstInvitation.uid);
    expect(updated.events[0]!.sequence).toBe(firstInvitation.sequence + 1);
    expect(updated.events[0]!.start.getTime()).toBe(parisInstant(inDays(14), '14:00').getTime());
    // Answered once only.
    const again = await answer(missionId, 'accept');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(APPOINTMENT_MESSAGES.noProposal);
    // The updated invitation carries a fresh link.
    expect((await site(linkIn(update.text)!)).json().state).toBe('open');
  });

  it('Refuser keeps the planned visit and tells the site with a new link', async () => {
    const { lot, missionId, to, token } = await invited({ visitWindow: null });
    await site(token, 'propose', { date: inDays(16) });
    const refused = await answer(missionId, 'refuse');
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ message: 'Proposition refusée : le site a été prévenu', appointment: { decision: 'refused' } });
    const mail = await lastEmailTo(to);
    expect(mail.kind).toBe('client-proposal-refused');
    expect(mail.text).toContain('reste prévu le');
    const fresh = linkIn(mail.text)!;
    expect(fresh).not.toBe(token);
    expect((await site(fresh)).json()).toMatchObject({ state: 'open', visit: { slot: { date: inDays(10), window: null } } });
    const [progress] = await ctx.db.select().from(technicianMissionData).where(eq(technicianMissionData.missionId, missionId));
    expect(parisDay(progress!.plannedVisitDate!)).toBe(inDays(10));
    expect((await work(lot.applicationId)).missions[0]!.appointment).toMatchObject({ response: 'proposed', decision: 'refused' });
    // The site can then confirm the planned date with the new link.
    expect((await site(fresh, 'confirm')).statusCode).toBe(200);
    expect((await work(lot.applicationId)).missions[0]!.appointment).toMatchObject({ response: 'confirmed', decision: null });
  });

  it('an expired link says so and cannot be used; a visit whose window has passed cannot be confirmed', async () => {
    const { token } = await invited();
    await ctx.db.update(visitLinks).set({ expiresAt: sql`now() - interval '1 minute'` });
    expect((await site(token)).json()).toMatchObject({ state: 'expired', visit: null, canConfirm: false });
    const late = await site(token, 'confirm');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(APPOINTMENT_MESSAGES.expired);

    // The afternoon of the visit day: the morning window is over, the link still valid until midnight.
    const other = await invited({ visitWindow: 'morning' }, 3);
    const afternoon = parisInstant(inDays(3), '15:00');
    await expect(confirmSiteVisit(ctx.db, ctx.app.config, { token: other.token, ip: '203.0.113.77', now: afternoon })).rejects.toMatchObject({
      statusCode: 409,
      message: APPOINTMENT_MESSAGES.past,
    });
    // Proposing another date is still possible that afternoon.
    const proposal = await proposeSiteVisit(ctx.db, ctx.app.config, { token: other.token, ip: '203.0.113.77', proposal: { date: inDays(5) }, now: afternoon });
    expect(proposal.state).toBe('used');
  });

  it('a wrong token answers 404 revealing nothing: the same answer as any unknown or malformed token, and nothing written', async () => {
    await invited();
    const before = await countRows(ctx.db, 'email_outbox');
    const answers = await Promise.all(
      ['A'.repeat(43), 'x', 'ce-lien-n-existe-pas', '..%2F..%2Fetc%2Fpasswd', `${'z'.repeat(42)}-`].map((token) => site(encodeURIComponent(token))),
    );
    for (const response of answers) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: LINK_NOT_FOUND, code: 'NOT_FOUND', requestId: response.headers['x-request-id'] });
      expect(Object.keys(response.headers).sort()).toEqual(Object.keys(answers[0]!.headers).sort());
    }
    for (const action of ['confirm', 'propose'] as const) {
      const response = await site('A'.repeat(43), action, { date: inDays(20) });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: LINK_NOT_FOUND, code: 'NOT_FOUND', requestId: response.headers['x-request-id'] });
    }
    expect(await countRows(ctx.db, 'email_outbox')).toBe(before);
  });

  it('rate-limits the public link per address', async () => {
    let last = 0;
    for (let i = 0; i < 125 && last !== 429; i += 1) last = (await site('B'.repeat(43), undefined, undefined, '198.51.100.7')).statusCode;
    expect(last).toBe(429);
    // Another address is not affected.
    expect((await site('B'.repeat(43), undefined, undefined, '198.51.100.8')).statusCode).toBe(404);
  });
});

describe('cancellations: METHOD:CANCEL to the site', () => {
  async function invitedLot(count = 2) {
    const lot = await makeLot(techId(), { count });
    for (const missionId of lot.missionIds) {
      await plan(missionId, { plannedVisitDate: inDays(8), visitWindow: 'afternoon' });
      await inform(missionId);
    }
    const mails = lot.missionIds.map((_, k) => `accueil${lotCounter}-${k + 1}@mairie.test`);
    return { lot, mails };
  }

  async function expectCancel(to: string, requestUid: string, requestSequence: number) {
    const mail = await lastEmailTo(to);
    expect(mail.kind).toBe('client-visit-cancelled');
    const { calendar } = await calcOf(mail.id);
    expect(calendar.method).toBe('CANCEL');
    expect(calendar.events[0]!.uid).toBe(requestUid);
    expect(calendar.events[0]!.sequence).toBe(requestSequence + 1);
    expect(calendar.events[0]!.status).toBe('CANCELLED');
    return mail;
  }
  const calcOf = calendarOf;

  it('clearing the date cancels the invitation, closes the link, and the next invitation is a new event', async () => {
    const { lot, mails } = await invitedLot(1);
    const request = await lastEmailTo(mails[0]!);
    const token = linkIn(request.text)!;
    const event = (await calendarOf(request.id)).calendar.events[0]!;
    await plan(lot.missionIds[0]!, { plannedVisitDate: null });
    await expectCancel(mails[0]!, event.uid, event.sequence);
    expect((await site(token)).json().state).toBe('cancelled');
    expect((await work(lot.applicationId)).missions[0]!.appointment).toBeNull();
    await plan(lot.missionIds[0]!, { plannedVisitDate: inDays(9) });
    await inform(lot.missionIds[0]!);
    const next = (await calendarOf((await lastEmailTo(mails[0]!)).id)).calendar.events[0]!;
    expect(next.uid).not.toBe(event.uid);
    expect(next.sequence).toBe(0);
  });

  it('the technician’s Annuler cancels every invitation out for the lot', async () => {
    const { lot, mails } = await invitedLot(2);
    const events = await Promise.all(mails.map(async (to) => (await calendarOf((await lastEmailTo(to)).id)).calendar.events[0]!));
    const cancelled = await as(ctx.app, cookieA)({ method: 'PATCH', url: `/api/applications/${lot.applicationId}/cancel` });
    expect(cancelled.statusCode).toBe(200);
    for (const [k, to] of mails.entries()) await expectCancel(to, events[k]!.uid, events[k]!.sequence);
  });

  it('a lot finished without the device (admin) cancels its invitation; a done device keeps its own', async () => {
    const { lot, mails } = await invitedLot(2);
    const events = await Promise.all(mails.map(async (to) => (await calendarOf((await lastEmailTo(to)).id)).calendar.events[0]!));
    await plan(lot.missionIds[0]!, { isCompleted: true });
    const countDone = (await emailsTo(mails[0]!)).length;
    // The admin's lot completion (lifecycle finish) goes through the scheduled sweep.
    const finished = await as(ctx.app, cookieAdmin)({ method: 'PUT', url: `/api/mission-batches/${lot.lotId}/complete` });
    expect(finished.statusCode).toBe(200);
    expect(await sweepStaleInvitations(ctx.db, ctx.app.config)).toBe(1);
    await expectCancel(mails[1]!, events[1]!.uid, events[1]!.sequence);
    expect((await emailsTo(mails[0]!)).length).toBe(countDone);
    // A second sweep finds nothing left to cancel.
    expect(await sweepStaleInvitations(ctx.db, ctx.app.config)).toBe(0);
  });

  /** Each invitation of the lot's devices, in the devices' order, with its mark (migration 0045). */
  async function marks(missionIds: string[]) {
    const rows = await ctx.db
      .select({ missionId: visitAppointments.missionId, standingCheck: visitAppointments.standingCheck, invitedAt: visitAppointments.invitedAt })
      .from(visitAppointments)
      .where(sql`${visitAppointments.missionId} in ${missionIds}`);
    return missionIds.map((id) => rows.find((row) => row.missionId === id)!);
  }

  it('the writes that can end a visit mark its invitation; a device toggled or another write does not (decision 063)', async () => {
    const { lot } = await invitedLot(3);
    const [first, second, third] = lot.missionIds as [string, string, string];
    await plan(first, { isCompleted: true });
    await ctx.db.update(missions).set({ observations: 'Sous l’escalier' }).where(eq(missions.id, first));
    expect((await marks(lot.missionIds)).map((row) => row.standingCheck)).toEqual([false, false, false]);
    // The record's date cleared in the database (the API cancels at once; the mark is for any writer).
    await ctx.db.update(technicianMissionData).set({ plannedVisitDate: null }).where(eq(technicianMissionData.missionId, second));
    // A device moved out of the lot.
    await ctx.db.update(missions).set({ batchId: null }).where(eq(missions.id, third));
    expect((await marks(lot.missionIds)).map((row) => row.standingCheck)).toEqual([false, true, true]);
    // The recruit no longer one: every invitation of the lot still in it.
    await ctx.db.update(applications).set({ status: 'Refusé' }).where(eq(applications.id, lot.applicationId));
    expect((await marks(lot.missionIds)).map((row) => row.standingCheck)).toEqual([true, true, true]);
    // The minute's sweep cancels the three, and clears their marks.
    expect(await sweepStaleInvitations(ctx.db, ctx.app.config)).toBe(3);
    expect(await marks(lot.missionIds)).toEqual(lot.missionIds.map((missionId) => ({ missionId, standingCheck: false, invitedAt: null })));
  });

  it('the minute’s sweep cancels only the marked invitations whose visit no longer stands, and clears every mark it reads', async () => {
    const { lot, mails } = await invitedLot(2);
    const events = await Promise.all(mails.map(async (to) => (await calendarOf((await lastEmailTo(to)).id)).calendar.events[0]!));
    const before = await Promise.all(mails.map(async (to) => (await emailsTo(to)).length));
    // The first device leaves the lot (marked, no longer standing); the second is marked while its visit stands.
    await ctx.db.update(missions).set({ batchId: null }).where(eq(missions.id, lot.missionIds[0]!));
    await ctx.db.update(visitAppointments).set({ standingCheck: true }).where(eq(visitAppointments.missionId, lot.missionIds[1]!));
    expect(await sweepStaleInvitations(ctx.db, ctx.app.config)).toBe(1);
    await expectCancel(mails[0]!, events[0]!.uid, events[0]!.sequence);
    expect((await emailsTo(mails[1]!)).length).toBe(before[1]);
    const [cancelled, standing] = await marks(lot.missionIds);
    expect(cancelled).toMatchObject({ standingCheck: false, invitedAt: null });
    expect(standing!.standingCheck).toBe(false);
    expect(standing!.invitedAt).not.toBeNull();
    expect(await sweepStaleInvitations(ctx.db, ctx.app.config)).toBe(0);
  });

  it('the hour’s sweep cancels a stale invitation no write marked', async () => {
    const { lot, mails } = await invitedLot(1);
    const event = (await calendarOf((await lastEmailTo(mails[0]!)).id)).calendar.events[0]!;
    await ctx.db.update(missions).set({ batchId: null }).where(eq(missions.id, lot.missionIds[0]!));
    // As after a write no trigger sees: the visit no longer stands, and nothing is marked.
    await ctx.db.update(visitAppointments).set({ standingCheck: false }).where(eq(visitAppointments.missionId, lot.missionIds[0]!));
    expect(await sweepStaleInvitations(ctx.db, ctx.app.config)).toBe(0);
    expect(await sweepStaleInvitations(ctx.db, ctx.app.config, { everything: true })).toBe(1);
    await expectCancel(mails[0]!, event.uid, event.sequence);
  });

  it('the admin’s forced finish cancels at once', async () => {
    const { lot, mails } = await invitedLot(1);
    const event = (await calendarOf((await lastEmailTo(mails[0]!)).id)).calendar.events[0]!;
    const forced = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url: `/api/applications/${lot.applicationId}/complete` });
    expect(forced.statusCode).toBe(200);
    await expectCancel(mails[0]!, event.uid, event.sequence);
  });
});

describe('the technician’s private calendar feed', () => {
  const feedUrl = (id = techId()) => `/api/technicians/${id}/calendar-feed`;

  it('is created and regenerated from Mon compte; only its owner may; the old address stops at once', async () => {
    const lot = await makeLot(techId(), { count: 2 });
    await plan(lot.missionIds[0]!, { plannedVisitDate: inDays(6), visitWindow: 'range', visitStartTime: '10:00', visitEndTime: '11:30' });
    await plan(lot.missionIds[1]!, { plannedVisitDate: inDays(7) });
    await inform(lot.missionIds[0]!);

    expect((await as(ctx.app, cookieB)({ method: 'POST', url: feedUrl() })).statusCode).toBe(404);
    expect((await as(ctx.app, cookieAdmin)({ method: 'POST', url: feedUrl() })).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'GET', url: feedUrl() })).statusCode).toBe(401);
    const created = await as(ctx.app, cookieA)({ method: 'POST', url: feedUrl() });
    expect(created.statusCode).toBe(200);
    const feed = calendarFeedSchema.parse(created.json());
    expect(feed.url).toMatch(/^https:\/\/maillon\.example\.org\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const status = calendarFeedSchema.parse((await as(ctx.app, cookieA)({ method: 'GET', url: feedUrl() })).json());
    expect(status).toMatchObject({ active: true, url: null });

    const path = new URL(feed.url!).pathname;
    const response = await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '192.0.2.50' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const calendar = parseIcs(response.body);
    expect(calendar.method).toBe('PUBLISH');
    const mine = calendar.events.filter((e) => e.summary.includes(`Mairie ${lotCounter}-`));
    expect(mine).toHaveLength(2);
    const windowed = mine.find((e) => !e.allDay)!;
    expect(windowed.startZone).toBe('Europe/Paris');
    expect(windowed.start.getTime()).toBe(parisInstant(inDays(6), '10:00').getTime());
    expect(windowed.end!.getTime()).toBe(parisInstant(inDays(6), '11:30').getTime());
    expect(windowed.location).toBe(LONG_LOCATION);
    expect(windowed.description).toContain('Téléphone du site : 04 72 00 00 00');
    expect(windowed.description).toContain('Y ALLER : https://www.google.com/maps/dir/');
    expect(windowed.dtstampUtc).toBe(true);
    // The feed and the site's invitation name the visit with the same UID.
    const invitation = (await calendarOf((await lastEmailTo(`accueil${lotCounter}-1@mairie.test`)).id)).calendar.events[0]!;
    expect(windowed.uid).toBe(invitation.uid);
    const allDay = mine.find((e) => e.allDay)!;
    expect(allDay.startDay).toBe(inDays(7));
    expect(longestLineOctets(response.body)).toBeLessThanOrEqual(75);
    // Another technician's visits are not in it.
    expect(response.body).not.toContain('Bruno');

    // Conditional GET: 304 without a body while nothing changed; a change gives a new ETag.
    const same = await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '192.0.2.50', headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    await plan(lot.missionIds[1]!, { visitWindow: 'morning' });
    const changed = await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '192.0.2.50', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);

    // Régénérer: the old address answers 404 at once, the new one works.
    const regenerated = calendarFeedSchema.parse((await as(ctx.app, cookieA)({ method: 'POST', url: feedUrl() })).json());
    expect(regenerated.url).not.toBe(feed.url);
    const old = await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '192.0.2.50' });
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ message: 'Agenda introuvable', code: 'NOT_FOUND', requestId: old.headers['x-request-id'] });
    expect((await ctx.app.inject({ method: 'GET', url: new URL(regenerated.url!).pathname, remoteAddress: '192.0.2.50' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/calendar/inconnu.ics', remoteAddress: '192.0.2.50' })).statusCode).toBe(404);
  });

  it('stops answering for a deactivated account', async () => {
    const other = await createTechnician(ctx.db, { firstName: 'Chloé' });
    const cookie = await login(ctx.app, other.technician.email);
    const feed = calendarFeedSchema.parse((await as(ctx.app, cookie)({ method: 'POST', url: feedUrl(other.technician.id) })).json());
    const path = new URL(feed.url!).pathname;
    expect((await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '192.0.2.51' })).statusCode).toBe(200);
    await ctx.db.update(users).set({ isActive: false }).where(eq(users.id, other.user.id));
    expect((await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '192.0.2.51' })).statusCode).toBe(404);
  });
});

describe('admin outbox: one e-mail with its text', () => {
  it('shows the site e-mail’s text and attachments to the admin only; password-reset links are masked', async () => {
    const [mail] = await ctx.db.select({ id: emailOutbox.id }).from(emailOutbox).where(and(eq(emailOutbox.kind, 'client-notification'))).orderBy(desc(emailOutbox.createdAt)).limit(1);
    const url = `/api/admin/settings/emails/${mail!.id}`;
    expect((await as(ctx.app, cookieA)({ method: 'GET', url })).statusCode).toBe(403);
    const detail = await as(ctx.app, cookieAdmin)({ method: 'GET', url });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().text).toMatch(/\/rdv\/[A-Za-z0-9_-]{43}/);
    expect(detail.json().attachments).toEqual([{ fileName: 'visite.ics', contentType: 'text/calendar; charset=utf-8', disposition: 'calendar' }]);
    const [reset] = await ctx.db
      .insert(emailOutbox)
      .values({ kind: 'password-reset', to: 'x@exemple.fr', subject: 'Réinitialisation', text: 'Ouvrez https://maillon.example.org/technician/reset-password?token=secret123 vite' })
      .returning({ id: emailOutbox.id });
    const masked = await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/admin/settings/emails/${reset!.id}` });
    expect(masked.json().text).toBe('Ouvrez [lien masqué] vite');
    expect((await as(ctx.app, cookieAdmin)({ method: 'GET', url: `/api/admin/settings/emails/${crypto.randomUUID()}` })).statusCode).toBe(404);
  });
});

describe('appointments data', () => {
  it('keeps one appointment per device and technician', async () => {
    const rows = await ctx.db
      .select({ missionId: visitAppointments.missionId, n: sql<number>`count(*)::int` })
      .from(visitAppointments)
      .groupBy(visitAppointments.missionId, visitAppointments.technicianId);
    expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
  });
});
