import { sameVisitSlot } from '@maillon/common/visit-slot';
import type { Db } from '../../db/client';
import { enqueueEmail } from '../../lib/outbox';
import { hashToken, randomToken } from '../../lib/passwords';
import { deadlineDigestEmail, siteEveEmail, technicianEveEmail, type EveVisit } from './appointments.emails';
import * as repo from './appointments.repository';
import { addressOf, dashboardUrl, mapsDirectionsUrl, siteLinkUrl, taskOrigin, type MailConfig } from './appointments.service';
import { addDays, endOfParisDay, parisDay, parisInstant, slotOf } from './visit-time';

/**
 * Reminders (issue 19, decision 022), run by lib/scheduler: the eve of a visit (technician and site contact) and the
 * admin's digest of lots due within 7 days. Each e-mail is enqueued in the transaction that marks its items in
 * reminder_deliveries (unique per kind, recipient, item and day): a second worker, a run repeated after a crash or a
 * restart marks nothing new and sends nothing.
 */

/** Marks older than this are purged: the reminders they guard are long past. */
const KEEP_DELIVERIES_DAYS = 60;
/** Overdue lots stay in the digest this long. */
const OVERDUE_DAYS = 30;

export interface ReminderResult {
  emails: number;
}

function slotOfRow(row: repo.UpcomingVisitRow) {
  return slotOf({ date: row.plannedVisitDate, window: row.visitWindow, startTime: row.visitStartTime, endTime: row.visitEndTime })!;
}

function statusLine(row: repo.UpcomingVisitRow): string | null {
  if (row.response === 'confirmed' || (row.response === 'proposed' && row.decision === 'accepted')) return 'Confirmé par le site';
  if (row.response === 'proposed' && !row.decision) return 'Le site propose une autre date : répondez-lui dans vos missions';
  return null;
}

/** The eve of the visits: each technician gets tomorrow's list, each site contact with an e-mail its own reminder. */
export async function sendEveOfVisitReminders(db: Db, config: MailConfig, { now = new Date() }: { now?: Date } = {}): Promise<ReminderResult> {
  const tomorrow = addDays(parisDay(now), 1);
  const rows = await repo.listVisitsBetween(db, { from: parisInstant(tomorrow), to: endOfParisDay(tomorrow) });
  const origin = taskOrigin(config);
  let emails = 0;

  const byTechnician = new Map<string, repo.UpcomingVisitRow[]>();
  for (const row of rows) byTechnician.set(row.technicianId, [...(byTechnician.get(row.technicianId) ?? []), row]);
  for (const visits of byTechnician.values()) {
    const first = visits[0]!;
    emails += await db.transaction(async (tx) => {
      const key = { kind: 'technician-eve' as const, recipient: first.technicianEmail, day: tomorrow };
      const marked = new Set(await repo.markReminders(tx, { ...key, itemIds: visits.map((v) => v.tmdId) }));
      if (marked.size === 0) return 0;
      const list: EveVisit[] = visits
        .filter((v) => marked.has(v.tmdId))
        .map((v) => ({
          slot: slotOfRow(v),
          title: v.title,
          clientName: v.clientName,
          address: addressOf(v),
          telSite: v.telSite,
          device: [v.defibrillatorModel, v.serialNumber ? `n° de série ${v.serialNumber}` : null].filter(Boolean).join(', '),
          status: statusLine(v),
          mapsUrl: mapsDirectionsUrl(v),
        }));
      const emailId = await enqueueEmail(
        tx,
        technicianEveEmail({ to: first.technicianEmail, firstName: first.technicianFirstName, day: tomorrow, visits: list, dashboardUrl: dashboardUrl(origin), productName: config.PRODUCT_NAME }),
      );
      await repo.attachReminderEmail(tx, { ...key, itemIds: [...marked], emailId });
      return 1;
    });
  }

  for (const row of rows) {
    const to = row.emailSite?.trim();
    // A pending proposal: the technician answers it first (its own reminder says so).
    if (!to || (row.response === 'proposed' && !row.decision)) continue;
    emails += await db.transaction(async (tx) => {
      const key = { kind: 'site-eve' as const, recipient: to.toLowerCase(), day: tomorrow };
      const marked = await repo.markReminders(tx, { ...key, itemIds: [row.tmdId] });
      if (marked.length === 0) return 0;
      const slot = slotOfRow(row);
      const confirmed = row.response === 'confirmed' || row.decision === 'accepted';
      // A fresh link when the site was invited for this very slot and has not confirmed it.
      let linkUrl: string | null = null;
      const existing = confirmed ? null : await repo.findAppointment(tx, { missionId: row.missionId, technicianId: row.technicianId });
      const appointment = existing?.invitedAt ? await repo.lockAppointmentById(tx, existing.id) : null;
      const invited = appointment?.invitedAt
        ? slotOf({ date: appointment.invitedDate, window: appointment.invitedWindow, startTime: appointment.invitedStartTime, endTime: appointment.invitedEndTime })
        : null;
      if (appointment && sameVisitSlot(invited, slot)) {
        await repo.closeOpenLinks(tx, appointment.id, 'replaced');
        const token = randomToken();
        await repo.insertLink(tx, { tokenHash: hashToken(token), appointmentId: appointment.id, expiresAt: endOfParisDay(slot.date) });
        linkUrl = siteLinkUrl(origin, token);
      }
      const emailId = await enqueueEmail(
        tx,
        siteEveEmail({
          to,
          visit: {
            missionTitle: row.title,
            visitType: null,
            defibrillatorModel: row.defibrillatorModel,
            serialNumber: row.serialNumber,
            location: addressOf(row),
            technicianFirstName: row.technicianFirstName,
            technicianLastName: row.technicianLastName,
            technicianPhone: null,
            companyName: row.companyName,
          },
          slot,
          confirmed,
          linkUrl,
          productName: config.PRODUCT_NAME,
          charityName: config.CHARITY_NAME,
        }),
      );
      await repo.attachReminderEmail(tx, { ...key, itemIds: marked, emailId });
      return 1;
    });
  }

  await repo.purgeReminderDeliveries(db, addDays(parisDay(now), -KEEP_DELIVERIES_DAYS));
  return { emails };
}

/** The admin's digest: lots due within 7 days (or overdue) with undone devices, once per lot and day. */
export async function sendDeadlineDigest(db: Db, config: MailConfig, { now = new Date() }: { now?: Date } = {}): Promise<ReminderResult> {
  const today = parisDay(now);
  const lots = await repo.listLotsDueBetween(db, { from: parisInstant(addDays(today, -OVERDUE_DAYS)), to: endOfParisDay(addDays(today, 7)) });
  if (lots.length === 0) return { emails: 0 };
  const admins = await repo.listAdminEmails(db);
  const origin = taskOrigin(config);
  let emails = 0;
  for (const admin of admins) {
    emails += await db.transaction(async (tx) => {
      const key = { kind: 'deadline-digest' as const, recipient: admin, day: today };
      const marked = new Set(await repo.markReminders(tx, { ...key, itemIds: lots.map((lot) => lot.id) }));
      if (marked.size === 0) return 0;
      const emailId = await enqueueEmail(
        tx,
        deadlineDigestEmail({
          to: admin,
          lots: lots
            .filter((lot) => marked.has(lot.id))
            .map((lot) => ({
              title: lot.title,
              deadline: lot.deadline,
              done: lot.defibrillatorsDone,
              total: lot.defibrillatorsSum,
              technician: lot.technicianFirstName ? `${lot.technicianFirstName} ${lot.technicianLastName ?? ''}`.trim() : null,
              overdue: Boolean(lot.deadline && lot.deadline.getTime() < parisInstant(today).getTime()),
            })),
          adminUrl: `${origin}/admin/dashboard?tab=missions-active`,
          productName: config.PRODUCT_NAME,
        }),
      );
      await repo.attachReminderEmail(tx, { ...key, itemIds: [...marked], emailId });
      return 1;
    });
  }
  return { emails };
}
