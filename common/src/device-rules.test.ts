import { describe, expect, it } from 'vitest';
import {
  addDaysToDay,
  addMonthsToDay,
  checkCompleteReport,
  checkOpeningHours,
  describeOpeningHours,
  deviceSerialKey,
  isValidSiren,
  normalizeOpeningHours,
  normalizeSerial,
  parisDay,
  REPORT_MESSAGES,
  toInternationalPhone,
  type ReportFormValues,
} from './device-rules';

describe('normalizeSerial', () => {
  it('folds case, spaces, dashes, dots, slashes and full-width characters into one key', () => {
    for (const typed of ['sn-75 1001', 'SN75/1001', ' SN 75.1001 ', 'sn_75-1001', 'ＳＮ７５１００１']) expect(normalizeSerial(typed)).toBe('SN751001');
  });
  it('refuses placeholders without a digit or too short', () => {
    expect(deviceSerialKey('N/A')).toBeNull();
    expect(deviceSerialKey('inconnu')).toBeNull();
    expect(deviceSerialKey('1-2')).toBeNull();
    expect(deviceSerialKey('')).toBeNull();
    expect(deviceSerialKey(null)).toBeNull();
    expect(deviceSerialKey('X09E409930')).toBe('X09E409930');
  });
});

describe('isValidSiren', () => {
  it('checks the Luhn key', () => {
    expect(isValidSiren('356000000')).toBe(true); // La Poste
    expect(isValidSiren('732 829 320')).toBe(true);
    expect(isValidSiren('732829321')).toBe(false);
    expect(isValidSiren('12345678')).toBe(false);
    expect(isValidSiren('abcdefghi')).toBe(false);
  });
});

describe('toInternationalPhone', () => {
  it('writes French numbers as +33 and overseas ones with their code', () => {
    expect(toInternationalPhone('01 23 45 67 89')).toBe('+33123456789');
    expect(toInternationalPhone('01.23.45.67.89')).toBe('+33123456789');
    expect(toInternationalPhone('+33 (0)1 23 45 67 89')).toBe('+33123456789');
    expect(toInternationalPhone('0033 6 12 34 56 78')).toBe('+33612345678');
    expect(toInternationalPhone('0262 12 34 56')).toBe('+262262123456');
    expect(toInternationalPhone('+33 0 12 34 56 78')).toBeNull();
    expect(toInternationalPhone('06 92 12 34 56')).toBe('+262692123456');
    expect(toInternationalPhone('12')).toBeNull();
    expect(toInternationalPhone('bonjour')).toBeNull();
  });
});

describe('opening hours', () => {
  it('accepts 24/7 and weekday rules', () => {
    for (const value of ['24/7', 'Mo-Fr 08:00-18:00', 'Mo-Fr 08:00-12:00,14:00-18:00; Sa 09:00-12:00; Su,PH off', 'Mo,We,Fr 09:00-17:00', '08:00-20:00', 'Mo-Su 00:00-24:00']) {
      expect(checkOpeningHours(value), value).toBeNull();
    }
  });
  it('explains what is wrong, in French', () => {
    expect(checkOpeningHours('Lu-Ve 08:00-18:00')).toMatch(/Jour « Lu » inconnu/);
    expect(checkOpeningHours('Mo-Fr 8h-18h')).toMatch(/attendu HH:MM-HH:MM/);
    expect(checkOpeningHours('Mo-Fr 18:00-08:00')).toMatch(/l’heure de fin doit suivre/);
    expect(checkOpeningHours('Mo-Fr')).toMatch(/ajoutez des horaires/);
    expect(checkOpeningHours('off')).toMatch(/« off » doit suivre des jours/);
    expect(checkOpeningHours('24/7; Mo 08:00-10:00')).toMatch(/24\/7/);
    expect(checkOpeningHours('Mo 08:00-10:00;')).toMatch(/Règle vide/);
    expect(checkOpeningHours('')).toMatch(/Indiquez les horaires/);
  });
  it('normalises spacing and reads in French', () => {
    expect(normalizeOpeningHours(' Mo-Fr  08:00-18:00 ;Sa 09:00-12:00')).toBe('Mo-Fr 08:00-18:00; Sa 09:00-12:00');
    expect(describeOpeningHours('Mo-Fr 08:00-12:00,14:00-18:00; PH off')).toBe('lun.–ven. 08:00–12:00, 14:00–18:00 ; jours fériés fermé');
    expect(describeOpeningHours('24/7')).toBe('24 h/24, 7 j/7');
  });
});

describe('parisDay and addDaysToDay', () => {
  it('gives the day in France at midnight and across both changes of time, whatever was asked before', () => {
    // Winter (UTC+1) the eve of the spring change, summer (UTC+2) the eve of the autumn change, asked out of order and
    // twice within the same minute: the kept day is the asked instant's.
    const asked: Array<[string, string]> = [
      ['2026-03-28T22:59:00Z', '2026-03-28'],
      ['2026-03-28T22:59:59Z', '2026-03-28'],
      ['2026-03-28T23:00:00Z', '2026-03-29'],
      ['2026-03-28T22:59:30Z', '2026-03-28'],
      ['2026-10-24T21:59:59Z', '2026-10-24'],
      ['2026-10-24T22:00:00Z', '2026-10-25'],
      ['2026-10-25T22:59:59Z', '2026-10-25'],
      ['2026-10-25T23:00:00Z', '2026-10-26'],
      ['2026-03-28T23:00:01Z', '2026-03-29'],
    ];
    for (const [instant, day] of asked) expect(parisDay(new Date(instant)), instant).toBe(day);
    expect(() => parisDay(new Date('pas une date'))).toThrow(RangeError);
  });

  it('adds days across months, years and leap days, and refuses what is not a day', () => {
    expect(addDaysToDay('2026-12-27', 30)).toBe('2027-01-26');
    expect(addDaysToDay('2026-12-27', 30)).toBe('2027-01-26');
    expect(addDaysToDay('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDaysToDay('2026-12-27', -1)).toBe('2026-12-26');
    expect(addDaysToDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(() => addDaysToDay('2026-13-45', 1)).toThrow(RangeError);
  });
});

describe('addMonthsToDay', () => {
  it('keeps the day within the target month', () => {
    expect(addMonthsToDay('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonthsToDay('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonthsToDay('2026-03-15', 12)).toBe('2027-03-15');
    expect(addMonthsToDay('2026-11-30', 3)).toBe('2027-02-28');
  });
});

describe('checkCompleteReport', () => {
  const complete: ReportFormValues = {
    outcome: 'En fonctionnement',
    checklist: { generalCondition: 'ok', statusIndicator: 'ok', battery: 'ok', adultPads: 'ok', pediatricPads: 'na', signage: 'issue', cabinet: 'ok' },
    batteryExpiry: '2030-01-01',
    adultPadsExpiry: '2029-06-30',
    pediatricPadsPresent: false,
    pediatricPadsExpiry: null,
    observations: null,
    signerName: 'Mme Durand',
    hasSignature: true,
    unsignedReason: null,
  };
  it('accepts a complete report', () => {
    expect(checkCompleteReport(complete, '2026-05-01')).toEqual({});
  });
  it('needs an outcome', () => {
    expect(checkCompleteReport({ ...complete, outcome: null }, '2026-05-01')).toEqual({ outcome: REPORT_MESSAGES.outcomeRequired });
  });
  it('refuses an expiry date in the past', () => {
    const errors = checkCompleteReport({ ...complete, batteryExpiry: '2026-04-30' }, '2026-05-01');
    expect(errors.batteryExpiry).toMatch(/Péremption de la batterie : la date est dépassée/);
  });
  it('asks for the signature or its reason, and observations for a device out of order', () => {
    const errors = checkCompleteReport({ ...complete, outcome: 'Hors service', hasSignature: false }, '2026-05-01');
    expect(Object.keys(errors).sort()).toEqual(['observations', 'signature']);
    expect(checkCompleteReport({ ...complete, hasSignature: false, unsignedReason: 'Site fermé' }, '2026-05-01')).toEqual({});
  });
  it('asks nothing more when the site could not be reached', () => {
    expect(checkCompleteReport({ ...complete, outcome: 'Site inaccessible', checklist: {}, batteryExpiry: null, adultPadsExpiry: null, hasSignature: false, signerName: null }, '2026-05-01')).toEqual({});
  });
});
