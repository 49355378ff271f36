import { windowTimes, type VisitSlot, type VisitWindow } from '@maillon/common/visit-slot';
import { zonedDate, zonedTimeToInstant } from '../../lib/scheduler/time';

/** Days and instants of visits, in France's time (Europe/Paris), whatever the server's zone. */

export const PARIS = 'Europe/Paris';

/** The calendar day ("YYYY-MM-DD") of an instant in Paris. */
export function parisDay(instant: Date): string {
  const { year, month, day } = zonedDate(instant, PARIS);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function parts(day: string) {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { year, month, day: date };
}

/** The instant Paris's wall clock shows HH:MM on that day. */
export function parisInstant(day: string, time = '00:00'): Date {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return zonedTimeToInstant(parts(day), hour, minute, PARIS);
}

/** Midnight at the end of that day in Paris: a link for a visit that day is valid until then. */
export function endOfParisDay(day: string): Date {
  return parisInstant(addDays(day, 1));
}

/** When the visit is over: the end of its window, or the end of its day. */
export function visitEnd(slot: VisitSlot): Date {
  const times = windowTimes(slot.window, slot.startTime, slot.endTime);
  return times ? parisInstant(slot.date, times.end) : endOfParisDay(slot.date);
}

/** A stored slot (planned date at noon UTC, window and times) as the API's slot; null without a date. */
export function slotOf(row: {
  date: Date | string | null;
  window: string | null;
  startTime: string | null;
  endTime: string | null;
}): VisitSlot | null {
  if (!row.date) return null;
  const date = typeof row.date === 'string' ? row.date : parisDay(row.date);
  const window = (row.window as VisitWindow | null) ?? null;
  return { date, window, startTime: window ? row.startTime : null, endTime: window ? row.endTime : null };
}
