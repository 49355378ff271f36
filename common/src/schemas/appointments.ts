import { z } from 'zod';
import { SITE_MESSAGE_MAX, SITE_PROPOSAL_MESSAGES, TIME_PATTERN, VISIT_SLOT_MESSAGES, VISIT_WINDOWS, type VisitWindow } from '../visit-slot';

export { SITE_PROPOSAL_MESSAGES };

/** Appointments (issue 19): the site contact's link, the technician's answer, the calendar feed. */

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
function isCalendarDay(value: string): boolean {
  if (!isoDay.test(value)) return false;
  const date = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const dayField = (message: string) => z.string({ error: message }).trim().refine(isCalendarDay, message);
export const visitWindowField = z.enum(VISIT_WINDOWS, { error: VISIT_SLOT_MESSAGES.badWindow });
export const timeField = z.string({ error: VISIT_SLOT_MESSAGES.badTime }).trim().regex(TIME_PATTERN, VISIT_SLOT_MESSAGES.badTime);

/**
 * The window rules shared by the technician's slot and the site's proposal: a range needs both times, its end after
 * its start. Messages go on the field they concern.
 */
export function checkWindowTimes(
  body: { window?: VisitWindow | null | undefined; startTime?: string | null | undefined; endTime?: string | null | undefined },
  context: z.RefinementCtx,
  names: { window: string; startTime: string; endTime: string },
): void {
  if (body.window !== 'range') return;
  if (!body.startTime) context.addIssue({ code: 'custom', path: [names.startTime], message: VISIT_SLOT_MESSAGES.rangeTimesRequired });
  if (!body.endTime) context.addIssue({ code: 'custom', path: [names.endTime], message: VISIT_SLOT_MESSAGES.rangeTimesRequired });
  if (body.startTime && body.endTime && body.endTime <= body.startTime) {
    context.addIssue({ code: 'custom', path: [names.endTime], message: VISIT_SLOT_MESSAGES.endBeforeStart });
  }
}

export const visitSlotSchema = z.object({
  date: z.string(),
  window: z.enum(VISIT_WINDOWS).nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
});
export type VisitSlotDto = z.infer<typeof visitSlotSchema>;

export const SITE_RESPONSES = ['confirmed', 'proposed'] as const;
export const PROPOSAL_DECISIONS = ['accepted', 'refused'] as const;

/** What the technician's Recruté view knows of the site's side of a visit. */
export const visitAppointmentSchema = z.object({
  /** The last invitation sent to the site (Informer client, or an accepted proposal); null: the site was not invited. */
  invitedAt: z.string().nullable(),
  invitedSlot: visitSlotSchema.nullable(),
  response: z.enum(SITE_RESPONSES).nullable(),
  respondedAt: z.string().nullable(),
  proposal: z.object({ slot: visitSlotSchema, message: z.string().nullable() }).nullable(),
  decision: z.enum(PROPOSAL_DECISIONS).nullable(),
  decidedAt: z.string().nullable(),
});
export type VisitAppointment = z.infer<typeof visitAppointmentSchema>;

// --- The site contact's public page (/rdv/:token) ---

export const SITE_LINK_STATES = ['open', 'used', 'expired', 'replaced', 'cancelled'] as const;
export type SiteLinkState = (typeof SITE_LINK_STATES)[number];

/** Only what the site contact needs: no technician's surname, phone or e-mail. */
export const siteVisitSchema = z.object({
  state: z.enum(SITE_LINK_STATES),
  /** Whether Confirmer is offered: an open link whose visit has not passed. */
  canConfirm: z.boolean(),
  canPropose: z.boolean(),
  usedAction: z.enum(SITE_RESPONSES).nullable(),
  usedAt: z.string().nullable(),
  visit: z
    .object({
      slot: visitSlotSchema,
      siteName: z.string(),
      address: z.string().nullable(),
      deviceModel: z.string().nullable(),
      serialNumber: z.string().nullable(),
      technicianFirstName: z.string(),
      companyName: z.string().nullable(),
    })
    .nullable(),
  proposal: z.object({ slot: visitSlotSchema, message: z.string().nullable() }).nullable(),
});
export type SiteVisit = z.infer<typeof siteVisitSchema>;

export const siteProposalRequestSchema = z
  .object({
    date: dayField(SITE_PROPOSAL_MESSAGES.dateRequired),
    window: visitWindowField.nullable().optional(),
    startTime: timeField.nullable().optional(),
    endTime: timeField.nullable().optional(),
    message: z.string({ error: 'Message invalide' }).trim().max(SITE_MESSAGE_MAX, SITE_PROPOSAL_MESSAGES.messageTooLong).nullable().optional(),
  })
  .superRefine((body, context) => checkWindowTimes(body, context, { window: 'window', startTime: 'startTime', endTime: 'endTime' }));
export type SiteProposalRequest = z.infer<typeof siteProposalRequestSchema>;

// --- The technician's answer to a proposal ---

export const proposalAnswerResponseSchema = z.object({
  message: z.string(),
  appointment: visitAppointmentSchema,
});
export type ProposalAnswerResponse = z.infer<typeof proposalAnswerResponseSchema>;

// --- The technician's private calendar feed ---

export const calendarFeedSchema = z.object({
  active: z.boolean(),
  createdAt: z.string().nullable(),
  /** Only in the answer that created it: the address is never stored, only its token's hash. */
  url: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;
