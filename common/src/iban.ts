import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';

/**
 * IBAN and BIC checks for the whole product (forms, server, SEPA files), on ibantools: each country's length and BBAN
 * structure, its national check digits (the French RIB key) and the ISO 13616 mod-97 checksum, plus the SEPA country
 * list. One library everywhere, so a value the profile form accepts is one the payout file accepts (decision 021).
 */

/** Upper case, without spaces or dashes: the form every IBAN is stored and compared in. */
export function compactIban(value: string): string {
  return electronicFormatIBAN(value) ?? value.replace(/[\s-]+/g, '').toUpperCase();
}

/** A real IBAN: country structure, national key and checksum. */
export function isValidIban(value: string): boolean {
  return isValidIBAN(compactIban(value));
}

/** A valid IBAN of a country of the SEPA scheme (a SEPA credit transfer can reach it). */
export function isSepaIban(value: string): boolean {
  const iban = compactIban(value);
  return isValidIBAN(iban) && isSEPACountry(iban.slice(0, 2));
}

/** A BIC (ISO 9362): 8 or 11 characters, a real country code. */
export function isValidBic(value: string): boolean {
  return isValidBIC(value.replace(/\s+/g, '').toUpperCase());
}

export const IBAN_MESSAGES = {
  invalid: 'IBAN invalide : vérifiez sa saisie (clé de contrôle incorrecte)',
  outsideSepa: 'Cet IBAN n’est pas d’un pays de la zone SEPA : l’association ne peut pas y faire de virement',
} as const;

/** Why this IBAN cannot be paid, or null when it can (valid and in the SEPA zone). */
export function ibanProblem(value: string): string | null {
  if (!isValidIban(value)) return IBAN_MESSAGES.invalid;
  if (!isSepaIban(value)) return IBAN_MESSAGES.outsideSepa;
  return null;
}
