import { describe, expect, it } from 'vitest';
import { longestLineOctets, parseIcs, rawDtstamps, unfold } from '../../../test/ics';
import { buildTechnicianFeed, buildVisitInvitation, type CalendarVisit } from './calendar-file';

const LONG_ADDRESS =
  'Résidence « Les Érables », bâtiment Œ, escalier C, 3ᵉ étage, 12 bis rue de l’Hôtel-de-Ville — accès par la cour intérieure, 69002 Lyon';

function visit(overrides: Partial<CalendarVisit> = {}): CalendarVisit {
  return {
    uid: 'visite-1@maillon',
    sequence: 0,
    stamp: new Date('2026-03-01T09:15:00Z'),
    slot: { date: '2026-03-12', window: 'morning', startTime: '08:00', endTime: '12:00' },
    summary: 'Visite du défibrillateur — Mairie de Lyon 2ᵉ',
    location: LONG_ADDRESS,
    description: 'Technicien : Jeanne (Défib’Service) — 06 12 34 56 78\nAppareil : Zoll AED Plus, n° de série SN-1',
    ...overrides,
  };
}

const invitation = (method: 'REQUEST' | 'CANCEL', overrides: Partial<CalendarVisit> = {}) =>
  new TextDecoder().decode(
    buildVisitInvitation({
      method,
      productName: 'Maillon',
      organizer: { name: 'Maillon', email: 'no-reply@maillon.local' },
      attendee: { email: 'accueil@mairie-lyon2.fr', name: 'Mairie' },
      visit: visit(overrides),
    }),
  );

describe('visit invitation (RFC 5545, read back with ical.js)', () => {
  it('a morning visit: METHOD:REQUEST, DTSTART/DTEND in Europe/Paris with its VTIMEZONE, DTSTAMP in UTC', () => {
    const text = invitation('REQUEST');
    const calendar = parseIcs(text);
    expect(calendar.method).toBe('REQUEST');
    expect(calendar.timezones).toEqual(['Europe/Paris']);
    const [event] = calendar.events;
    expect(event!.uid).toBe('visite-1@maillon');
    expect(event!.sequence).toBe(0);
    expect(event!.allDay).toBe(false);
    expect(event!.startZone).toBe('Europe/Paris');
    // 12 March 2026 is winter time (UTC+1): 8 h in Paris is 7 h UTC.
    expect(event!.start.toISOString()).toBe('2026-03-12T07:00:00.000Z');
    expect(event!.end!.toISOString()).toBe('2026-03-12T11:00:00.000Z');
    expect(event!.dtstampUtc).toBe(true);
    expect(event!.dtstamp.toISOString()).toBe('2026-03-01T09:15:00.000Z');
    expect(rawDtstamps(text)).toEqual(['DTSTAMP:20260301T091500Z']);
    expect(unfold(text)).toMatch(/^ORGANIZER;CN="Maillon":mailto:no-reply@maillon\.local\r$/m);
    expect(unfold(text)).toMatch(/^ATTENDEE;[^\r\n]*RSVP=FALSE[^\r\n]*MAILTO:accueil@mairie-lyon2\.fr\r$/im);
  });

  it('summer time: an afternoon in July is 12 h – 16 h UTC', () => {
    const [event] = parseIcs(invitation('REQUEST', { slot: { date: '2026-07-09', window: 'afternoon', startTime: '14:00', endTime: '18:00' } })).events;
    expect(event!.start.toISOString()).toBe('2026-07-09T12:00:00.000Z');
    expect(event!.end!.toISOString()).toBe('2026-07-09T16:00:00.000Z');
  });

  it('a day without window is an all-day event (DATE values), without VTIMEZONE need', () => {
    const text = invitation('REQUEST', { slot: { date: '2026-03-12', window: null, startTime: null, endTime: null } });
    const [event] = parseIcs(text).events;
    expect(event!.allDay).toBe(true);
    expect(event!.startDay).toBe('2026-03-12');
    expect(event!.endDay).toBe('2026-03-13');
    expect(text).toContain('DTSTART;VALUE=DATE:20260312');
  });

  it('METHOD:CANCEL keeps the UID, carries the higher SEQUENCE and STATUS:CANCELLED', () => {
    const request = parseIcs(invitation('REQUEST', { sequence: 2 })).events[0]!;
    const cancel = parseIcs(invitation('CANCEL', { sequence: 3 }));
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.events[0]!.uid).toBe(request.uid);
    expect(cancel.events[0]!.sequence).toBeGreaterThan(request.sequence);
    expect(cancel.events[0]!.status).toBe('CANCELLED');
  });

  it('folds lines at 75 octets without cutting a character, and a long French address unfolds intact', () => {
    const text = invitation('REQUEST');
    expect(longestLineOctets(text)).toBeLessThanOrEqual(75);
    // The address is long enough to be folded at least once.
    expect(text.split('\r\n').filter((line) => line.startsWith(' ')).length).toBeGreaterThan(0);
    expect(text).not.toContain('\uFFFD');
    const [event] = parseIcs(text).events;
    expect(event!.location).toBe(LONG_ADDRESS);
    expect(event!.description).toContain('Technicien : Jeanne (Défib’Service)');
  });
});

describe('technician feed', () => {
  it('METHOD:PUBLISH with one event per visit, each with its own UID, and every line ≤ 75 octets', () => {
    const text = buildTechnicianFeed({
      productName: 'Maillon',
      calendarName: 'Maillon — mes visites',
      visits: [
        visit(),
        visit({ uid: 'visite-2@maillon', slot: { date: '2026-03-13', window: 'range', startTime: '09:30', endTime: '11:00' }, status: 'TENTATIVE' }),
        visit({ uid: 'visite-3@maillon', slot: { date: '2026-03-14', window: null, startTime: null, endTime: null }, status: 'CONFIRMED' }),
      ],
    });
    const calendar = parseIcs(text);
    expect(calendar.method).toBe('PUBLISH');
    expect(calendar.name).toBe('Maillon — mes visites');
    expect(calendar.events.map((e) => e.uid)).toEqual(['visite-1@maillon', 'visite-2@maillon', 'visite-3@maillon']);
    expect(calendar.events[1]!.start.toISOString()).toBe('2026-03-13T08:30:00.000Z');
    expect(calendar.events[1]!.status).toBe('TENTATIVE');
    expect(calendar.events[2]!.allDay).toBe(true);
    expect(calendar.events.every((e) => e.dtstampUtc)).toBe(true);
    expect(rawDtstamps(text).every((line) => line.endsWith('Z'))).toBe(true);
    expect(longestLineOctets(text)).toBeLessThanOrEqual(75);
  });
});
