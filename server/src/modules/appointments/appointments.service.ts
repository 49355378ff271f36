import crypto from 'node:crypto';
import { NO_SITE_EMAIL, VISIT_DATE_REQUIRED, visitDateToDate } from '@maillon/common/schemas/field-work';
import {
  SITE_PROPOSAL_MESSAGES,
  type CalendarFeed,
  type ProposalAnswerResponse,
  type SiteLinkState,
  type SiteProposalRequest,
  type SiteVisit,
  type VisitAppointment,
} from '@maillon/common/schemas/appointments';
import { sameVisitSlot, windowTimes, type VisitSlot, type VisitWindow } from '@maillon/common/visit-slot';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { etagOf } from '../../lib/http-cache';
import { enqueueEmail } from '../../lib/outbox';
import { hashToken, randomToken } from '../../lib/passwords';
import { enforceRateLimit } from '../../lib/rate-limit';
import { saveMissionProgress } from '../lifecycle/lifecycle.service';
import {
  proposalRefusedEmail,
  siteConfirmedEmail,
  siteProposedEmail,
  visitCancelledEmail,
  visitInvitationEmail,
  type VisitFacts,
} from './appointments.emails';
import * as repo from './appointments.repository';
import { buildTechnicianFeed, buildVisitInvitation, type CalendarVisit } from './calendar-file';
import { addDays, endOfParisDay, parisDay, slotOf, visitEnd } from './visit-time';

/**
 * Appointments (issue 19, decision 022): the invitation e-mailed to the site with its calendar file and personal link,
 * the site's answer through the link, the technician's answer to a proposal, cancellations, and the technician's
 * private calendar feed.
 */

export type MailConfig = Pick<Config, 'PRODUCT_NAME' | 'CHARITY_NAME' | 'MAIL_FROM' | 'PUBLIC_URL' | 'PORT'>;

export const LINK_NOT_FOUND = 'Ce lien n’existe pas ou n’est plus valable';
export const FEED_NOT_FOUND = 'Agenda introuvable';
export const APPOINTMENT_MESSAGES = {
  used: 'Ce lien a déjà été utilisé',
  expired: 'Ce lien a expiré : la date de la visite est passée',
  replaced: 'Ce lien a été remplacé par un plus récent : utilisez le dernier e-mail reçu',
  cancelled: 'Cette visite a été annulée',
  past: 'Cette visite est déjà passée : elle ne peut plus être confirmée',
  sameSlot: 'C’est déjà la date prévue : utilisez « Confirmer »',
  noProposal: 'Aucune proposition du site en attente pour ce défibrillateur',
  proposalPast: 'La date proposée par le site est passée : convenez d’une autre date avec lui',
  lotFinished: 'Cette mission est terminée : elle ne peut plus être modifiée',
  notFoundMission: 'Mission introuvable',
} as const;

/** Public links: per address, generous for a person, a wall for a script. */
const PUBLIC_LIMITS = { readPerIp: 120, writePerIp: 30, feedPerIp: 600, windowMs: 60 * 60_000 } as const;
/** How far back the feed lists visits. */
const FEED_HISTORY_DAYS = 90;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** The address links in e-mails start with: PUBLIC_URL, else the origin the request came to (registration does the same). */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL'>, requestOrigin: string): string {
  return (config.PUBLIC_URL ?? requestOrigin).replace(/\/+$/, '');
}

/** Background tasks have no request: PUBLIC_URL, else this server's local address. */
export function taskOrigin(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

export const siteLinkUrl = (origin: string, token: string) => `${origin}/rdv/${token}`;
export const dashboardUrl = (origin: string) => `${origin}/technician/dashboard?tab=applications`;

/** The organizer of the invitations: the sending address of MAIL_FROM ("Name <address>" or an address). */
export function organizerOf(config: Pick<Config, 'MAIL_FROM' | 'PRODUCT_NAME'>): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(config.MAIL_FROM);
  if (match) return { name: match[1]?.trim() || config.PRODUCT_NAME, email: match[2]!.trim() };
  return { name: config.PRODUCT_NAME, email: config.MAIL_FROM.trim() };
}

function facts(details: repo.VisitDetails): VisitFacts {
  return {
    missionTitle: details.missionTitle,
    visitType: details.visitType,
    defibrillatorModel: details.defibrillatorModel,
    serialNumber: details.serialNumber,
    location: details.location,
    technicianFirstName: details.technicianFirstName,
    technicianLastName: details.technicianLastName,
    technicianPhone: details.technicianPhone,
    companyName: details.companyName,
  };
}

/** The site's address as one line: the mission's location, completed with its postal code and city when missing. */
export function addressOf(row: { location: string | null; postalCode: string | null; city: string | null }): string | null {
  const location = row.location?.trim() ?? '';
  const place = [row.postalCode?.trim(), row.city?.trim()].filter(Boolean).join(' ');
  if (!location) return place || null;
  if (place && !location.toLowerCase().includes((row.city ?? '').trim().toLowerCase())) return `${location}, ${place}`;
  return location;
}

export function mapsDirectionsUrl(row: { location: string | null; postalCode: string | null; city: string | null; title: string }): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(addressOf(row) || row.title)}`;
}

const plannedSlot = (details: { plannedVisitDate: Date | null; visitWindow: string | null; visitStartTime: string | null; visitEndTime: string | null }) =>
  slotOf({ date: details.plannedVisitDate, window: details.visitWindow, startTime: details.visitStartTime, endTime: details.visitEndTime });

const invitedSlot = (row: repo.AppointmentRow) =>
  row.invitedAt ? slotOf({ date: row.invitedDate, window: row.invitedWindow, startTime: row.invitedStartTime, endTime: row.invitedEndTime }) : null;

const proposedSlot = (row: Pick<repo.AppointmentRow, 'proposedDate' | 'proposedWindow' | 'proposedStartTime' | 'proposedEndTime'>) =>
  slotOf({ date: row.proposedDate, window: row.proposedWindow, startTime: row.proposedStartTime, endTime: row.proposedEndTime });

function slotColumns(prefix: 'invited' | 'proposed', slot: VisitSlot | null) {
  return {
    [`${prefix}Date`]: slot?.date ?? null,
    [`${prefix}Window`]: slot?.window ?? null,
    [`${prefix}StartTime`]: slot?.window ? slot.startTime : null,
    [`${prefix}EndTime`]: slot?.window ? slot.endTime : null,
  };
}

const NO_ANSWER = {
  response: null,
  respondedAt: null,
  proposedDate: null,
  proposedWindow: null,
  proposedStartTime: null,
  proposedEndTime: null,
  proposedMessage: null,
  decision: null,
  decidedAt: null,
};

/** What the technician's Recruté view shows of the site's side. */
export function toAppointmentDto(row: repo.AppointmentRow | null): VisitAppointment | null {
  if (!row || (!row.invitedAt && !row.response)) return null;
  const proposal = proposedSlot(row);
  return {
    invitedAt: iso(row.invitedAt),
    invitedSlot: invitedSlot(row),
    response: (row.response as VisitAppointment['response']) ?? null,
    respondedAt: iso(row.respondedAt),
    proposal: proposal ? { slot: proposal, message: row.proposedMessage } : null,
    decision: (row.decision as VisitAppointment['decision']) ?? null,
    decidedAt: iso(row.decidedAt),
  };
}

/** The appointments of some visits of one technician (a page of its devices), in one statement whatever their lots. */
export async function listAppointmentsOfVisits(db: DbOrTx, ids: { missionIds: string[]; technicianId: string }): Promise<Map<string, VisitAppointment | null>> {
  if (ids.missionIds.length === 0) return new Map();
  const rows = await repo.listVisitsAppointments(db, ids);
  return new Map(rows.map((row) => [row.missionId, toAppointmentDto(row)]));
}

/** The calendar event of a visit as the site sees it (no surname, no personal data beyond the contact phone). */
function siteCalendarVisit(details: repo.VisitDetails, row: { uid: string; sequence: number }, slot: VisitSlot, linkUrl: string | null, stamp: Date): CalendarVisit {
  const who = `${details.technicianFirstName}${details.companyName ? ` (${details.companyName})` : ''}`;
  const device = [details.defibrillatorModel, details.serialNumber ? `n° de série ${details.serialNumber}` : null].filter(Boolean).join(', ');
  return {
    uid: `${row.uid}@maillon`,
    sequence: row.sequence,
    stamp,
    slot,
    summary: `Visite du défibrillateur — ${details.missionTitle}`,
    location: addressOf(details),
    description: [
      `Technicien : ${who}${details.technicianPhone?.trim() ? ` — ${details.technicianPhone.trim()}` : ''}`,
      device ? `Appareil : ${device}` : null,
      linkUrl ? `Confirmer ou proposer une autre date : ${linkUrl}` : null,
    ]
      .filter(Boolean)
      .join('\n'),
    url: linkUrl,
  };
}

/** A new single-use link for the appointment (its open links are closed): the token, of which only the hash is kept. */
async function issueLink(tx: DbOrTx, appointmentId: string, slot: VisitSlot): Promise<string> {
  await repo.closeOpenLinks(tx, appointmentId, 'replaced');
  const token = randomToken();
  await repo.insertLink(tx, { tokenHash: hashToken(token), appointmentId, expiresAt: endOfParisDay(slot.date) });
  return token;
}

/**
 * Sends the site the visit as planned now: e-mail with the personal link and the calendar invitation (METHOD:REQUEST).
 * The same visit keeps its UID; SEQUENCE grows when the slot differs from the last one sent. Runs in the caller's
 * transaction: the e-mail leaves if and only if the change commits.
 */
export async function sendVisitInvitation(
  tx: DbOrTx,
  config: MailConfig,
  { missionId, technicianId, origin, reason, now = new Date() }: { missionId: string; technicianId: string; origin: string; reason: 'informed' | 'accepted'; now?: Date },
): Promise<VisitAppointment> {
  const details = await repo.findVisitDetails(tx, { missionId, technicianId });
  if (!details?.tmdId) throw new AppError('BAD_REQUEST', VISIT_DATE_REQUIRED);
  const slot = plannedSlot(details);
  if (!slot) throw new AppError('BAD_REQUEST', VISIT_DATE_REQUIRED);
  const to = details.emailSite?.trim();
  if (!to) throw new AppError('BAD_REQUEST', NO_SITE_EMAIL);
  const appointment = await repo.lockAppointment(tx, { missionId, technicianId, firstUid: details.tmdId });
  const previous = invitedSlot(appointment);
  const changed = !sameVisitSlot(previous, slot);
  const sequence = previous && changed ? appointment.sequence + 1 : appointment.sequence;
  const token = await issueLink(tx, appointment.id, slot);
  const linkUrl = siteLinkUrl(origin, token);
  const invitation = buildVisitInvitation({
    method: 'REQUEST',
    productName: config.PRODUCT_NAME,
    organizer: organizerOf(config),
    attendee: { email: to, name: details.clientName },
    visit: siteCalendarVisit(details, { uid: appointment.uid, sequence }, slot, linkUrl, now),
  });
  await enqueueEmail(
    tx,
    visitInvitationEmail({
      to,
      visit: facts(details),
      slot,
      reason: reason === 'accepted' ? 'accepted' : previous && changed ? 'updated' : 'informed',
      linkUrl,
      invitation,
      productName: config.PRODUCT_NAME,
      charityName: config.CHARITY_NAME,
    }),
  );
  const values = {
    sequence,
    siteEmail: to,
    invitedAt: now,
    ...slotColumns('invited', slot),
    // An answer was about the slot it answered: a new slot starts without one (an accepted proposal keeps its story).
    ...(changed && reason !== 'accepted' ? NO_ANSWER : {}),
  };
  await repo.updateAppointment(tx, appointment.id, values);
  return toAppointmentDto({ ...appointment, ...values } as repo.AppointmentRow)!;
}

/**
 * Cancels the invitation out for this appointment: the site gets METHOD:CANCEL (same UID, SEQUENCE + 1) and an e-mail;
 * its links close; the next invitation of the device will be a new calendar event (new UID).
 */
async function cancelInvitation(tx: DbOrTx, config: MailConfig, appointment: repo.AppointmentRow, now: Date): Promise<void> {
  const slot = invitedSlot(appointment);
  if (!slot || !appointment.siteEmail) return;
  const details = await repo.findVisitDetails(tx, { missionId: appointment.missionId, technicianId: appointment.technicianId });
  if (details) {
    const cancellation = buildVisitInvitation({
      method: 'CANCEL',
      productName: config.PRODUCT_NAME,
      organizer: organizerOf(config),
      attendee: { email: appointment.siteEmail, name: details.clientName },
      visit: siteCalendarVisit(details, { uid: appointment.uid, sequence: appointment.sequence + 1 }, slot, null, now),
    });
    await enqueueEmail(
      tx,
      visitCancelledEmail({ to: appointment.siteEmail, visit: facts(details), slot, cancellation, productName: config.PRODUCT_NAME, charityName: config.CHARITY_NAME }),
    );
  }
  await repo.closeOpenLinks(tx, appointment.id, 'cancelled');
  await repo.updateAppointment(tx, appointment.id, {
    uid: crypto.randomUUID(),
    sequence: 0,
    siteEmail: null,
    invitedAt: null,
    ...slotColumns('invited', null),
    ...NO_ANSWER,
    lastCancelledAt: now,
    standingCheck: false,
  });
}

/**
 * After the technician saved a device's slot (field-work): a cleared date cancels the invitation out (unless its visit
 * is over); another slot closes the site's open link and forgets its answer, which was about the old slot; the
 * technician then informs the site again ("Informer client").
 */
export async function applyPlannedSlotChange(
  tx: DbOrTx,
  config: MailConfig,
  { missionId, technicianId, slot, now = new Date() }: { missionId: string; technicianId: string; slot: VisitSlot | null; now?: Date },
): Promise<void> {
  const existing = await repo.findAppointment(tx, { missionId, technicianId });
  if (!existing?.invitedAt) return;
  const appointment = (await repo.lockAppointmentById(tx, existing.id))!;
  const invited = invitedSlot(appointment);
  if (!invited || sameVisitSlot(invited, slot)) return;
  if (!slot) {
    if (invited.date >= parisDay(now)) await cancelInvitation(tx, config, appointment, now);
    return;
  }
  await repo.closeOpenLinks(tx, appointment.id, 'replaced');
  if (appointment.response) await repo.updateAppointment(tx, appointment.id, NO_ANSWER);
}

/**
 * Invitations still out for visits that no longer stand (date cleared, application cancelled, lot finished without the
 * device): each gets its cancellation. Called in the transaction of a change (scoped to a technician) and by the
 * scheduled sweep, which catches every other path (an admin finishing a lot, moving devices).
 */
export async function cancelStaleInvitations(
  tx: DbOrTx,
  config: MailConfig,
  { technicianId, now = new Date(), limit = 200 }: { technicianId?: string; now?: Date; limit?: number },
): Promise<number> {
  const stale = await repo.findStaleInvitations(tx, { fromDay: parisDay(now), limit, ...(technicianId ? { technicianId } : {}) });
  let cancelled = 0;
  for (const { id } of stale) if (await cancelIfStale(tx, config, id, now)) cancelled += 1;
  return cancelled;
}

/**
 * Cancels the invitation `id` if it is still out, for a visit not yet past that no longer stands; true when it did.
 * Checked under the row's lock, in a statement that sees every write committed before it: a write that ends the visit
 * afterwards waits for the caller's transaction (and marks the invitation again, migration 0045).
 */
async function cancelIfStale(tx: DbOrTx, config: MailConfig, id: string, now: Date): Promise<boolean> {
  const appointment = await repo.lockAppointmentById(tx, id);
  if (!appointment?.invitedAt || appointment.invitedDate === null || appointment.invitedDate < parisDay(now)) return false;
  if (await repo.isVisitStanding(tx, { missionId: appointment.missionId, technicianId: appointment.technicianId })) return false;
  await cancelInvitation(tx, config, appointment, now);
  return true;
}

/**
 * The scheduled sweeps, one transaction per invitation so that one failure does not hold back the others. Each minute
 * the invitations the writes' triggers marked (migration 0045): each is cancelled if its visit no longer stands, and its
 * mark cleared either way. Each hour (`everything`) every invitation still out whose visit no longer stands, for a write
 * no trigger sees (decision 063).
 */
export async function sweepStaleInvitations(
  db: Db,
  config: MailConfig,
  { now = new Date(), everything = false }: { now?: Date; everything?: boolean } = {},
): Promise<number> {
  const found = everything ? await repo.findStaleInvitations(db, { fromDay: parisDay(now), limit: 500 }) : await repo.findInvitationsToCheck(db, { limit: 500 });
  let cancelled = 0;
  for (const { id } of found) {
    cancelled += await db.transaction(async (tx) => {
      if (await cancelIfStale(tx, config, id, now)) return 1;
      // Checked and standing (or past, or already cancelled): the mark goes, under the same lock.
      await repo.clearStandingCheck(tx, id);
      return 0;
    });
  }
  return cancelled;
}

// --- The site contact's link ---

function linkState(link: repo.LinkRow, now: Date): SiteLinkState {
  if (link.usedAt) return 'used';
  if (link.closedReason === 'cancelled') return 'cancelled';
  if (link.closedAt) return 'replaced';
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/**
 * The link behind a token. An unknown or malformed token costs the same work (hash, one indexed read) and gets the
 * same 404 as any other: nothing tells a guess from a link that never existed.
 */
async function resolveLink(db: DbOrTx, token: string): Promise<repo.LinkRow> {
  const link = await repo.findLink(db, hashToken(token));
  if (!link) throw new AppError('NOT_FOUND', LINK_NOT_FOUND);
  return link;
}

async function siteView(db: DbOrTx, link: repo.LinkRow, now: Date, full: boolean): Promise<SiteVisit> {
  const state = linkState(link, now);
  const base: SiteVisit = {
    state,
    canConfirm: false,
    canPropose: false,
    usedAction: (link.usedAction as SiteVisit['usedAction']) ?? null,
    usedAt: iso(link.usedAt),
    visit: null,
    proposal: null,
  };
  if (state !== 'open' && !full) return base;
  const appointment = await repo.findAppointmentById(db, link.appointmentId);
  const slot = appointment ? invitedSlot(appointment) : null;
  if (!appointment || !slot) return state === 'open' ? { ...base, state: 'cancelled' } : base;
  const details = await repo.findVisitDetails(db, { missionId: appointment.missionId, technicianId: appointment.technicianId });
  if (!details) return { ...base, state: 'cancelled' };
  const proposal = proposedSlot(appointment);
  return {
    ...base,
    canConfirm: state === 'open' && visitEnd(slot).getTime() > now.getTime(),
    canPropose: state === 'open',
    visit: {
      slot,
      siteName: details.missionTitle,
      address: addressOf(details),
      deviceModel: details.defibrillatorModel,
      serialNumber: details.serialNumber,
      technicianFirstName: details.technicianFirstName,
      companyName: details.companyName,
    },
    proposal: link.usedAction === 'proposed' && proposal ? { slot: proposal, message: appointment.proposedMessage } : null,
  };
}

export async function getSiteVisit(db: Db, { token, ip, now = new Date() }: { token: string; ip: string; now?: Date }): Promise<SiteVisit> {
  await enforceRateLimit(db, `site-visit-read:${ip}`, PUBLIC_LIMITS.readPerIp, PUBLIC_LIMITS.windowMs);
  const link = await resolveLink(db, token);
  return siteView(db, link, now, false);
}

/** An answer through a link: one transaction, the link claimed once; the technician is told by e-mail. */
async function answerThroughLink(
  db: Db,
  { token, ip, now }: { token: string; ip: string; now: Date },
  act: (tx: DbOrTx, context: { link: repo.LinkRow; appointment: repo.AppointmentRow; slot: VisitSlot; details: repo.VisitDetails }) => Promise<void>,
  action: 'confirmed' | 'proposed',
): Promise<SiteVisit> {
  await enforceRateLimit(db, `site-visit-write:${ip}`, PUBLIC_LIMITS.writePerIp, PUBLIC_LIMITS.windowMs);
  return db.transaction(async (tx) => {
    const link = await resolveLink(tx, token);
    const appointment = await repo.lockAppointmentById(tx, link.appointmentId);
    const state = linkState(link, now);
    if (state !== 'open') throw new AppError('INVALID_TRANSITION', APPOINTMENT_MESSAGES[state]);
    const slot = appointment ? invitedSlot(appointment) : null;
    const details = appointment ? await repo.findVisitDetails(tx, { missionId: appointment.missionId, technicianId: appointment.technicianId }) : null;
    if (!appointment || !slot || !details) throw new AppError('INVALID_TRANSITION', APPOINTMENT_MESSAGES.cancelled);
    await act(tx, { link, appointment, slot, details });
    if (!(await repo.claimLink(tx, link.tokenHash, action))) throw new AppError('INVALID_TRANSITION', APPOINTMENT_MESSAGES.used);
    const used = await repo.findLink(tx, link.tokenHash);
    return siteView(tx, used!, now, true);
  });
}

export async function confirmSiteVisit(db: Db, config: MailConfig, { token, ip, now = new Date() }: { token: string; ip: string; now?: Date }): Promise<SiteVisit> {
  return answerThroughLink(
    db,
    { token, ip, now },
    async (tx, { appointment, slot, details }) => {
      if (visitEnd(slot).getTime() <= now.getTime()) throw new AppError('INVALID_TRANSITION', APPOINTMENT_MESSAGES.past);
      await repo.updateAppointment(tx, appointment.id, { ...NO_ANSWER, response: 'confirmed', respondedAt: now });
      await enqueueEmail(
        tx,
        siteConfirmedEmail({ to: details.technicianEmail, visit: facts(details), slot, dashboardUrl: dashboardUrl(taskOrigin(config)), productName: config.PRODUCT_NAME }),
      );
    },
    'confirmed',
  );
}

/** The proposal as a slot: morning and afternoon get their fixed hours. */
function proposalSlot(proposal: SiteProposalRequest): VisitSlot {
  const window = (proposal.window ?? null) as VisitWindow | null;
  const times = windowTimes(window, proposal.startTime, proposal.endTime);
  return { date: proposal.date, window, startTime: times?.start ?? null, endTime: times?.end ?? null };
}

export async function proposeSiteVisit(
  db: Db,
  config: MailConfig,
  { token, ip, proposal, now = new Date() }: { token: string; ip: string; proposal: SiteProposalRequest; now?: Date },
): Promise<SiteVisit> {
  const slot = proposalSlot(proposal);
  const today = parisDay(now);
  if (slot.date < today || visitEnd(slot).getTime() <= now.getTime()) {
    throw new AppError('VALIDATION_ERROR', SITE_PROPOSAL_MESSAGES.pastDate, { date: SITE_PROPOSAL_MESSAGES.pastDate });
  }
  if (slot.date > addDays(today, 365)) throw new AppError('VALIDATION_ERROR', SITE_PROPOSAL_MESSAGES.tooFar, { date: SITE_PROPOSAL_MESSAGES.tooFar });
  const message = proposal.message?.trim() || null;
  return answerThroughLink(
    db,
    { token, ip, now },
    async (tx, { appointment, slot: planned, details }) => {
      if (sameVisitSlot(planned, slot)) throw new AppError('VALIDATION_ERROR', APPOINTMENT_MESSAGES.sameSlot, { date: APPOINTMENT_MESSAGES.sameSlot });
      await repo.updateAppointment(tx, appointment.id, {
        ...NO_ANSWER,
        response: 'proposed',
        respondedAt: now,
        ...slotColumns('proposed', slot),
        proposedMessage: message,
      });
      await enqueueEmail(
        tx,
        siteProposedEmail({
          to: details.technicianEmail,
          visit: facts(details),
          slot: planned,
          proposal: slot,
          message,
          dashboardUrl: dashboardUrl(taskOrigin(config)),
          productName: config.PRODUCT_NAME,
        }),
      );
    },
    'proposed',
  );
}

// --- The technician's answer to a proposal ---

export async function answerProposal(
  db: Db,
  config: MailConfig,
  {
    missionId,
    technicianId,
    decision,
    origin,
    now = new Date(),
  }: { missionId: string; technicianId: string; decision: 'accepted' | 'refused'; origin: string; now?: Date },
): Promise<ProposalAnswerResponse> {
  return db.transaction(async (tx) => {
    const recruitment = await repo.findActiveRecruitment(tx, { missionId, technicianId });
    if (!recruitment) throw new AppError('NOT_FOUND', APPOINTMENT_MESSAGES.notFoundMission);
    if (recruitment.applicationStatus !== 'Recruté' || recruitment.lotStatus === 'completed') throw new AppError('INVALID_TRANSITION', APPOINTMENT_MESSAGES.lotFinished);
    const existing = await repo.findAppointment(tx, { missionId, technicianId });
    const appointment = existing ? await repo.lockAppointmentById(tx, existing.id) : null;
    const proposal = appointment ? proposedSlot(appointment) : null;
    const planned = appointment ? invitedSlot(appointment) : null;
    if (!appointment || appointment.response !== 'proposed' || appointment.decision || !proposal || !planned || !appointment.siteEmail) {
      throw new AppError('INVALID_TRANSITION', APPOINTMENT_MESSAGES.noProposal);
    }
    if (decision === 'accepted') {
      if (visitEnd(proposal).getTime() <= now.getTime()) throw new AppError('INVALID_TRANSITION', APPOINTMENT_MESSAGES.proposalPast);
      await saveMissionProgress(tx, {
        missionId,
        technicianId,
        patch: {
          plannedVisitDate: visitDateToDate(proposal.date),
          visitWindow: proposal.window,
          visitStartTime: proposal.window ? proposal.startTime : null,
          visitEndTime: proposal.window ? proposal.endTime : null,
        },
      });
      await repo.updateAppointment(tx, appointment.id, { decision: 'accepted', decidedAt: now });
      const updated = await sendVisitInvitation(tx, config, { missionId, technicianId, origin, reason: 'accepted', now });
      return { message: 'Proposition acceptée : le site a reçu la nouvelle date', appointment: updated };
    }
    const details = await repo.findVisitDetails(tx, { missionId, technicianId });
    const token = await issueLink(tx, appointment.id, planned);
    await enqueueEmail(
      tx,
      proposalRefusedEmail({
        to: appointment.siteEmail,
        visit: facts(details!),
        proposal,
        slot: planned,
        linkUrl: siteLinkUrl(origin, token),
        productName: config.PRODUCT_NAME,
        charityName: config.CHARITY_NAME,
      }),
    );
    await repo.updateAppointment(tx, appointment.id, { decision: 'refused', decidedAt: now });
    return { message: 'Proposition refusée : le site a été prévenu', appointment: toAppointmentDto({ ...appointment, decision: 'refused', decidedAt: now })! };
  });
}

// --- The technician's calendar feed ---

export async function getCalendarFeed(db: Db, { technicianId }: { technicianId: string }): Promise<CalendarFeed> {
  const feed = await repo.findFeedByTechnician(db, technicianId);
  return { active: Boolean(feed), createdAt: iso(feed?.createdAt), url: null };
}

/** A new private address; the previous one stops working when this commits. The address is given once. */
export async function regenerateCalendarFeed(db: Db, { technicianId, origin }: { technicianId: string; origin: string }): Promise<CalendarFeed> {
  const token = randomToken();
  const row = await db.transaction((tx) => repo.replaceFeedToken(tx, { technicianId, tokenHash: hashToken(token) }));
  return { active: true, createdAt: row.createdAt.toISOString(), url: `${origin}/api/calendar/${token}.ics` };
}

function feedVisit(row: repo.FeedVisitRow): CalendarVisit | null {
  const slot = slotOf({ date: row.plannedVisitDate, window: row.visitWindow, startTime: row.visitStartTime, endTime: row.visitEndTime });
  if (!slot) return null;
  const confirmed = row.response === 'confirmed';
  const device = [row.defibrillatorModel, row.serialNumber ? `n° de série ${row.serialNumber}` : null].filter(Boolean).join(', ');
  const maps = mapsDirectionsUrl(row);
  const stamps = [row.tmdUpdatedAt, row.appointmentUpdatedAt].filter((d): d is Date => d instanceof Date);
  return {
    uid: `${row.uid ?? row.tmdId}@maillon`,
    sequence: row.sequence ?? 0,
    stamp: new Date(Math.max(...stamps.map((d) => d.getTime()))),
    slot,
    summary: `${row.isCompleted ? 'Visite effectuée' : 'Visite DAE'} — ${row.title}`,
    location: addressOf(row),
    description: [
      `Lot : ${row.lotTitle}`,
      row.clientName ? `Client : ${row.clientName}` : null,
      device ? `Appareil : ${device}` : null,
      row.visitType ? `Type de visite : ${row.visitType}` : null,
      `Téléphone du site : ${row.telSite?.trim() || 'non renseigné'}`,
      confirmed ? 'Confirmé par le site' : row.response === 'proposed' ? 'Le site propose une autre date : répondez dans Maillon' : null,
      row.observations ? `Commentaire : ${row.observations}` : null,
      `Y ALLER : ${maps}`,
      row.completionLink ? `Compléter : ${row.completionLink}` : null,
    ]
      .filter(Boolean)
      .join('\n'),
    status: row.isCompleted || confirmed ? 'CONFIRMED' : 'TENTATIVE',
    url: maps,
  };
}

/**
 * GET /api/calendar/{token}.ics: the technician's visits of the last 90 days and to come, with addresses and site
 * phones (its own data). Answered with a strong ETag; the same token always gets the same bytes until a visit changes.
 */
export async function renderCalendarFeed(
  db: Db,
  config: Pick<Config, 'PRODUCT_NAME'>,
  { token, ip, now = new Date() }: { token: string; ip: string; now?: Date },
): Promise<{ body: string; etag: string }> {
  await enforceRateLimit(db, `calendar-feed:${ip}`, PUBLIC_LIMITS.feedPerIp, PUBLIC_LIMITS.windowMs);
  const feed = await repo.findFeedByTokenHash(db, hashToken(token));
  if (!feed || !feed.isActive || feed.status === 'inactive' || feed.status === 'rejected') throw new AppError('NOT_FOUND', FEED_NOT_FOUND);
  const rows = await repo.listFeedVisits(db, { technicianId: feed.technicianId, since: new Date(now.getTime() - FEED_HISTORY_DAYS * 86_400_000) });
  const body = buildTechnicianFeed({
    productName: config.PRODUCT_NAME,
    calendarName: `${config.PRODUCT_NAME} — mes visites`,
    visits: rows.map(feedVisit).filter((v): v is CalendarVisit => v !== null),
  });
  return { body, etag: etagOf(body, { weak: false }) };
}
