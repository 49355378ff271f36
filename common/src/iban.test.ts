import { describe, expect, it } from 'vitest';
import { IBAN_MESSAGES, compactIban, ibanProblem, isSepaIban, isValidBic, isValidIban } from './iban';
import { updateBankingSchema } from './schemas/profile';

describe('IBAN (ibantools)', () => {
  it('compacts and validates the country structure, the national key and the checksum', () => {
    expect(compactIban('fr76 3000-6000 0112 3456 7890 189')).toBe('FR7630006000011234567890189');
    expect(isValidIban('FR76 3000 6000 0112 3456 7890 189')).toBe(true);
    // Right mod-97 checksum, wrong French RIB key: the old hand-written check let it through.
    expect(isValidIban('FR7630006000011234567890100')).toBe(false);
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
  });
  it('tells a SEPA IBAN from one outside the scheme', () => {
    expect(isSepaIban('CH9300762011623852957')).toBe(true);
    expect(isSepaIban('XK051212012345678906')).toBe(false);
    expect(ibanProblem('XK051212012345678906')).toBe(IBAN_MESSAGES.outsideSepa);
    expect(ibanProblem('FR7630006000011234567890188')).toBe(IBAN_MESSAGES.invalid);
    expect(ibanProblem('FR7630006000011234568850101')).toBeNull();
  });
  it('checks BICs', () => {
    expect(isValidBic('BNPAFRPPXXX')).toBe(true);
    expect(isValidBic('AGRIFRPP')).toBe(true);
    expect(isValidBic('BNPA FR')).toBe(false);
  });
  it('keeps the French messages of the banking form', () => {
    const outside = updateBankingSchema.safeParse({ iban: 'XK051212012345678906' });
    expect(outside.success ? null : outside.error.issues[0]?.message).toBe(IBAN_MESSAGES.outsideSepa);
    const wrong = updateBankingSchema.safeParse({ iban: 'FR7630006000011234567890188' });
    expect(wrong.success ? null : wrong.error.issues[0]?.message).toBe('IBAN invalide : vérifiez sa saisie (clé de contrôle incorrecte)');
  });
});
