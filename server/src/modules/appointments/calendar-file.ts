import ical, { ICalCalendarMethod, ICalEventStatus, type ICalCalendar } from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { windowTimes, type VisitSlot } from '@maillon/common/visit-slot';

/**
 * iCalendar documents of the visits (RFC 5545, decision 022), written with ical-generator: the invitation e-mailed to
 * the site (METHOD:REQUEST, or METHOD:CANCEL) and the technician's subscription feed. Pure functions: data in, text
 * out; tests read them back with ical.js.
 *
 * Times: a visit with a window has DTSTART/DTEND in Europe/Paris (wall-clock times with TZID, and the VTIMEZONE);
 * a visit without one is an all-day event (DATE values). The time zone is set per event: set on the calendar,
 * ical-generator writes DTSTAMP without its Z (local time), which RFC 5545 forbids.
 */

export const VISIT_TIME_ZONE = 'Europe/Paris';

export interface CalendarVisit {
  /** Stable per visit: the same in every invitation, update and cancellation of that visit. */
  uid: string;
  sequence: number;
  /** When this version of the event was made (UTC). */
  stamp: Date;
  slot: VisitSlot;
  summary: string;
  location: string | null;
  description: string;
  status?: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  url?: string | null;
}

function nextDay(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

const STATUS: Record<NonNullable<CalendarVisit['status']>, ICalEventStatus> = {
  CONFIRMED: ICalEventStatus.CONFIRMED,
  TENTATIVE: ICalEventStatus.TENTATIVE,
  CANCELLED: ICalEventStatus.CANCELLED,
};

function newCalendar(productName: string, method: ICalCalendarMethod | null, name?: string): ICalCalendar {
  const calendar = ical({
    prodId: { company: productName, product: 'Visites', language: 'FR' },
    ...(method ? { method } : {}),
    ...(name ? { name } : {}),
  });
  // VTIMEZONE for the zones the events name, without a calendar-level zone (see above).
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  return calendar;
}

function addVisit(calendar: ICalCalendar, visit: CalendarVisit) {
  const times = windowTimes(visit.slot.window, visit.slot.startTime, visit.slot.endTime);
  const when = times
    ? { start: `${visit.slot.date}T${times.start}:00`, end: `${visit.slot.date}T${times.end}:00`, timezone: VISIT_TIME_ZONE }
    : { start: visit.slot.date, end: nextDay(visit.slot.date), allDay: true };
  return calendar.createEvent({
    id: visit.uid,
    sequence: visit.sequence,
    stamp: visit.stamp,
    ...when,
    summary: visit.summary,
    location: visit.location,
    description: visit.description,
    ...(visit.url ? { url: visit.url } : {}),
    ...(visit.status ? { status: STATUS[visit.status] } : {}),
  });
}

export interface VisitInvitationData {
  method: 'REQUEST' | 'CANCEL';
  productName: string;
  organizer: { name: string; email: string };
  attendee: { email: string; name?: string | null };
  visit: CalendarVisit;
}

/** The invitation (or its cancellation) attached to the site's e-mail, as UTF-8 bytes. */
export function buildVisitInvitation(data: VisitInvitationData): Uint8Array {
  const calendar = newCalendar(data.productName, data.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST);
  const event = addVisit(calendar, { ...data.visit, status: data.method === 'CANCEL' ? 'CANCELLED' : (data.visit.status ?? 'CONFIRMED') });
  event.organizer({ name: data.organizer.name, email: data.organizer.email });
  // The answer travels through the link in the e-mail: calendar replies are not asked for.
  event.createAttendee({ email: data.attendee.email, ...(data.attendee.name ? { name: data.attendee.name } : {}), rsvp: false });
  return new TextEncoder().encode(calendar.toString());
}

export interface TechnicianFeedData {
  productName: string;
  calendarName: string;
  visits: CalendarVisit[];
}

/** The technician's subscription feed (METHOD:PUBLISH): every planned visit, refreshed hourly by calendar apps. */
export function buildTechnicianFeed(data: TechnicianFeedData): string {
  const calendar = newCalendar(data.productName, ICalCalendarMethod.PUBLISH, data.calendarName);
  calendar.ttl(60 * 60);
  for (const visit of data.visits) addVisit(calendar, visit);
  return calendar.toString();
}
