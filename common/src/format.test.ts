import { describe, expect, it } from 'vitest';
import { centsToEuros, eurosToCents, formatDate, formatDistance, formatDuration, formatEuros, formatEurosForPrint, formatEurosShort, formatKilometres, formatCount, formatTotal, formatTotalOf, maskIban } from './format';
import { formatDepartment, getDepartmentName, DEPARTMENTS } from './departments';

describe('fr-FR formatting', () => {
  it('formats dates as dd/mm/yyyy in Paris time', () => {
    expect(formatDate('2026-03-05T10:00:00Z')).toBe('05/03/2026');
    expect(formatDate(new Date('2026-12-31T23:30:00Z'))).toBe('01/01/2027');
    expect(formatDate(null)).toBe('');
    expect(formatDate('pas une date')).toBe('');
  });

  it('formats euros with 2 decimals and French separators', () => {
    expect(formatEuros(1234.5)).toBe('1 234,50 €');
    expect(formatEuros(0)).toBe('0,00 €');
    expect(formatEurosForPrint(12345.67)).toBe('12\u202f345,67\u00a0€');
    expect(formatEuros(666.67)).toBe('666,67 €');
    expect(formatEurosShort(1200)).toBe('1 200 €');
    expect(formatEurosShort(12.5)).toBe('12,50 €');
  });

  it('formats distances and durations per spec §9', () => {
    expect(formatDistance(850)).toBe('850 m');
    expect(formatDistance(1000)).toBe('1,0 km');
    expect(formatDistance(12_345)).toBe('12,3 km');
    expect(formatDistance(null)).toBe('Distance inconnue');
    expect(formatDuration(45 * 60)).toBe('45 min');
    expect(formatDuration(60 * 60)).toBe('1 h');
    expect(formatDuration(95 * 60)).toBe('1 h 35');
  });

  it('converts money between euros and cents without float drift', () => {
    expect(eurosToCents(666.67)).toBe(66667);
    expect(eurosToCents(0.1 + 0.2)).toBe(30);
    expect(centsToEuros(66667)).toBe(666.67);
  });

  it('masks an IBAN to its last 4 characters', () => {
    expect(maskIban('FR76 3000 6000 0112 3456 7890 189')).toBe('•••• 0189');
    expect(maskIban(null)).toBe('');
  });
});

describe('departments', () => {
  it('has 01–95 with 2A/2B and the five overseas departments', () => {
    expect(DEPARTMENTS).toHaveLength(101);
    expect(getDepartmentName('2A')).toBe('Corse-du-Sud');
    expect(getDepartmentName('976')).toBe('Mayotte');
    expect(DEPARTMENTS.some((d) => d.code === '20')).toBe(false);
  });

  it('shows an unknown code unchanged', () => {
    expect(getDepartmentName('99')).toBe('99');
    expect(formatDepartment('75')).toBe('Paris (75)');
    expect(formatDepartment('XX')).toBe('XX');
  });
});

describe('formatCount', () => {
  it('groups the digits of a whole count as in French', () => {
    expect(formatCount(7)).toBe('7');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(3001)).toBe('3\u202f001');
    expect(formatCount(80_000)).toBe('80\u202f000');
  });
});

describe('formatKilometres', () => {
  it('reads at a glance: < 1 km, one decimal under 10 km, whole km above, French separators', () => {
    expect(formatKilometres(400)).toBe('< 1 km');
    expect(formatKilometres(4698)).toBe('4,7 km');
    expect(formatKilometres(12_400)).toBe('12 km');
    expect(formatKilometres(1_204_600)).toBe('1\u202f205 km');
    expect(formatKilometres(null)).toBe('Distance inconnue');
  });
});

describe('formatTotal / formatTotalOf', () => {
  it('says « plus de » only for a capped total, with French digit groups', () => {
    expect(formatTotal(1000)).toBe('1\u202f000');
    expect(formatTotal(1000, true)).toBe('plus de 1\u202f000');
    expect(formatTotalOf(1, false, 'facture', 'factures')).toBe('1 facture');
    expect(formatTotalOf(0, false, 'facture', 'factures')).toBe('0 facture');
    expect(formatTotalOf(3, false, 'expédition', 'expéditions')).toBe('3 expéditions');
    expect(formatTotalOf(1000, true, 'défibrillateur', 'défibrillateurs')).toBe('Plus de 1\u202f000 défibrillateurs');
  });
});
