import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './_columns';
import { technicians } from './accounts';
import { missions } from './missions';
import { emailOutbox } from './money';

const windowCheck = (window: string, start: string, end: string) =>
  sql.raw(
    `(${window} is null and ${start} is null and ${end} is null) or (${window} in ('morning', 'afternoon', 'range') and ${start} is not null and ${end} is not null and ${start} < ${end})`,
  );

/**
 * The site's side of a planned visit (issue 19, decision 022): one row per device and technician, created when the
 * site is first invited. `uid` names the calendar event (a new one after a cancellation), `sequence` grows with each
 * invitation or cancellation sent. The invited slot is what the site last received; the response, proposal and
 * decision are the site's answer through its link and the technician's answer to a proposal.
 */
export const visitAppointments = pgTable(
  'visit_appointments',
  {
    id: id(),
    missionId: uuid()
      .notNull()
      .references(() => missions.id, { onDelete: 'cascade' }),
    technicianId: uuid()
      .notNull()
      .references(() => technicians.id, { onDelete: 'cascade' }),
    uid: text().notNull(),
    sequence: integer().notNull().default(0),
    /** The address the invitation went to: a cancellation goes to the same one. */
    siteEmail: text(),
    invitedAt: timestamp({ withTimezone: true }),
    invitedDate: date({ mode: 'string' }),
    invitedWindow: text(),
    invitedStartTime: text(),
    invitedEndTime: text(),
    lastCancelledAt: timestamp({ withTimezone: true }),
    response: text(),
    respondedAt: timestamp({ withTimezone: true }),
    proposedDate: date({ mode: 'string' }),
    proposedWindow: text(),
    proposedStartTime: text(),
    proposedEndTime: text(),
    proposedMessage: text(),
    decision: text(),
    decidedAt: timestamp({ withTimezone: true }),
    /**
     * Set by the triggers of the writes that can end the visit's standing (its date cleared, the technician no longer
     * recruited, the device moved to another lot: migration 0045); the minute's sweep reads only these (decision 063).
     */
    standingCheck: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('visit_appointments_visit_unique').on(t.missionId, t.technicianId),
    index('visit_appointments_technician_idx').on(t.technicianId),
    // The cancellation sweep reads the invitations still out.
    index('visit_appointments_invited_idx').on(t.invitedDate).where(sql`${t.invitedAt} is not null`),
    index('visit_appointments_standing_check_idx').on(t.invitedDate).where(sql`${t.standingCheck}`),
    check('visit_appointments_response_check', sql`${t.response} is null or ${t.response} in ('confirmed', 'proposed')`),
    check('visit_appointments_decision_check', sql`${t.decision} is null or ${t.decision} in ('accepted', 'refused')`),
    check('visit_appointments_invited_window_check', windowCheck('invited_window', 'invited_start_time', 'invited_end_time')),
    check('visit_appointments_proposed_window_check', windowCheck('proposed_window', 'proposed_start_time', 'proposed_end_time')),
  ],
);

/**
 * The site contact's links: a random token e-mailed once, only its SHA-256 stored. Single use (confirm or propose),
 * valid until the end of the visit day (Europe/Paris); a newer link or a cancellation closes the open one.
 */
export const visitLinks = pgTable(
  'visit_links',
  {
    tokenHash: text().primaryKey(),
    appointmentId: uuid()
      .notNull()
      .references(() => visitAppointments.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    usedAction: text(),
    closedAt: timestamp({ withTimezone: true }),
    closedReason: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('visit_links_appointment_idx').on(t.appointmentId),
    check('visit_links_used_action_check', sql`${t.usedAction} is null or ${t.usedAction} in ('confirmed', 'proposed')`),
    check('visit_links_closed_reason_check', sql`${t.closedReason} is null or ${t.closedReason} in ('replaced', 'cancelled')`),
  ],
);

/** A technician's private calendar feed: only the hash of its token; regenerating replaces it (the old URL dies). */
export const calendarFeeds = pgTable('calendar_feeds', {
  technicianId: uuid()
    .primaryKey()
    .references(() => technicians.id, { onDelete: 'cascade' }),
  tokenHash: text().notNull().unique(),
  createdAt: createdAt(),
});

/**
 * Reminders sent, one row per (kind, recipient, item, day), inserted in the transaction that enqueues the e-mail: a
 * second worker, a repeated run after a crash or a restart finds the row and sends nothing.
 */
export const reminderDeliveries = pgTable(
  'reminder_deliveries',
  {
    id: id(),
    kind: text().notNull(),
    recipient: text().notNull(),
    /** The visit (technician_mission_data id) or the lot the reminder is about. */
    itemId: uuid().notNull(),
    day: date({ mode: 'string' }).notNull(),
    emailId: uuid().references(() => emailOutbox.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('reminder_deliveries_once').on(t.kind, t.recipient, t.itemId, t.day),
    index('reminder_deliveries_day_idx').on(t.day),
    check('reminder_deliveries_kind_check', sql`${t.kind} in ('technician-eve', 'site-eve', 'deadline-digest')`),
  ],
);
