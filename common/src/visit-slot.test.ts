import { describe, expect, it } from 'vitest';
import { formatDateTime, formatLongDate } from './format';
import { formatTime, formatVisitSlot, formatVisitSlotLong, formatVisitWindow, sameVisitSlot, windowTimes } from './visit-slot';

describe('visit slots in French', () => {
  it('formats hours, windows and slots', () => {
    expect(formatTime('08:00')).toBe('8 h');
    expect(formatTime('14:30')).toBe('14 h 30');
    expect(formatVisitWindow({ window: 'morning', startTime: '08:00', endTime: '12:00' })).toBe('le matin (8 h – 12 h)');
    expect(formatVisitWindow({ window: 'afternoon', startTime: null, endTime: null })).toBe('l’après-midi (14 h – 18 h)');
    expect(formatVisitWindow({ window: 'range', startTime: '09:30', endTime: '11:00' })).toBe('de 9 h 30 à 11 h');
    expect(formatVisitWindow({ window: null, startTime: null, endTime: null })).toBe('dans la journée');
    expect(formatVisitSlot({ date: '2026-03-12', window: 'morning', startTime: '08:00', endTime: '12:00' })).toBe('12/03/2026, le matin (8 h – 12 h)');
    expect(formatVisitSlotLong({ date: '2026-03-12', window: null, startTime: null, endTime: null })).toBe('jeudi 12 mars 2026, dans la journée');
  });

  it('gives a window its hours and compares slots by day and hours', () => {
    expect(windowTimes('afternoon')).toEqual({ start: '14:00', end: '18:00' });
    expect(windowTimes('range', '10:00', null)).toBeNull();
    expect(windowTimes(null)).toBeNull();
    const morning = { date: '2026-03-12', window: 'morning' as const, startTime: null, endTime: null };
    expect(sameVisitSlot(morning, { ...morning, startTime: '08:00', endTime: '12:00' })).toBe(true);
    expect(sameVisitSlot(morning, { ...morning, window: 'afternoon' })).toBe(false);
    expect(sameVisitSlot(morning, null)).toBe(false);
    expect(sameVisitSlot(null, null)).toBe(true);
  });

  it('formats long dates and date-times in Paris time', () => {
    expect(formatLongDate('2026-03-12T12:00:00Z')).toBe('jeudi 12 mars 2026');
    expect(formatDateTime('2026-03-12T13:05:00Z')).toBe('12/03/2026 à 14:05');
    expect(formatDateTime('2026-07-01T22:30:00Z')).toBe('02/07/2026 à 00:30');
    expect(formatLongDate(null)).toBe('');
  });
});
