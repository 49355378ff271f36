import ICAL from 'ical.js';

/**
 * Reads an iCalendar document back with ical.js, an independent parser (not the writer we use): the calendar's
 * METHOD, and each event's UID, SEQUENCE, STATUS, DTSTAMP, start and end as instants (VTIMEZONE applied) or days.
 */
export interface ParsedEvent {
  uid: string;
  sequence: number;
  status: string | null;
  summary: string;
  location: string | null;
  description: string | null;
  /** Whether the parser read DTSTAMP as a UTC time (written with its Z). */
  dtstampUtc: boolean;
  dtstamp: Date;
  allDay: boolean;
  startZone: string | null;
  start: Date;
  end: Date | null;
  /** For all-day events, the DATE values ("YYYY-MM-DD"). */
  startDay: string | null;
  endDay: string | null;
}

export interface ParsedCalendar {
  method: string | null;
  name: string | null;
  timezones: string[];
  events: ParsedEvent[];
  rawLines: string[];
}

export function parseIcs(text: string): ParsedCalendar {
  const root = new ICAL.Component(ICAL.parse(text));
  const timezones = root.getAllSubcomponents('vtimezone').map((vtz) => {
    const zone = new ICAL.Timezone(vtz);
    ICAL.TimezoneService.register(zone);
    return zone.tzid;
  });
  const events = root.getAllSubcomponents('vevent').map((vevent): ParsedEvent => {
    const event = new ICAL.Event(vevent);
    const dtstamp = vevent.getFirstProperty('dtstamp');
    const stamp = dtstamp!.getFirstValue() as ICAL.Time;
    const startProp = vevent.getFirstProperty('dtstart');
    const startTime = event.startDate;
    const endTime = event.endDate;
    return {
      uid: event.uid,
      sequence: Number(vevent.getFirstPropertyValue('sequence') ?? 0),
      status: (vevent.getFirstPropertyValue('status') as string | null) ?? null,
      summary: event.summary,
      location: event.location ?? null,
      description: event.description ?? null,
      dtstampUtc: stamp.zone === ICAL.Timezone.utcTimezone,
      dtstamp: stamp.toJSDate(),
      allDay: startTime.isDate,
      startZone: (startProp?.getParameter('tzid') as string | undefined) ?? null,
      start: startTime.toJSDate(),
      end: endTime ? endTime.toJSDate() : null,
      startDay: startTime.isDate ? startTime.toString() : null,
      endDay: endTime?.isDate ? endTime.toString() : null,
    };
  });
  return {
    method: (root.getFirstPropertyValue('method') as string | null) ?? null,
    name: (root.getFirstPropertyValue('x-wr-calname') as string | null) ?? null,
    timezones,
    events,
    rawLines: text.split('\r\n').filter((line, i, all) => line !== '' || i < all.length - 1),
  };
}

/** The document with its folded lines joined back (RFC 5545 §3.1). */
export function unfold(text: string): string {
  return text.replace(/\r\n[ \t]/g, '');
}

/** The raw DTSTAMP lines of the document (unfolded). */
export function rawDtstamps(text: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter((line) => line.startsWith('DTSTAMP'));
}

/** Every raw line of the document is at most 75 octets (RFC 5545 §3.1), continuation lines included. */
export function longestLineOctets(text: string): number {
  return Math.max(...text.split('\r\n').map((line) => Buffer.byteLength(line, 'utf8')));
}
