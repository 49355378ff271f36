import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema, isValidIban, isValidSiret, updateBankingSchema, updateDepartmentsSchema, updateProfessionalSchema } from './profile';
import { registrationSchema } from './registration';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('IBAN checksum', () => {
  it('accepts valid IBANs with or without spaces', () => {
    expect(isValidIban('FR76 3000 6000 0112 3456 7890 189')).toBe(true);
    expect(isValidIban('fr1420041010050500013m02606')).toBe(true);
    expect(isValidIban('BE68539007547034')).toBe(true);
    expect(isValidIban('CH9300762011623852957')).toBe(true);
  });
  it('refuses a wrong key, a wrong length or garbage', () => {
    expect(isValidIban('FR76 3000 6000 0112 3456 7890 188')).toBe(false);
    expect(isValidIban('FR7630006000011234567890')).toBe(false);
    expect(isValidIban('pas un iban')).toBe(false);
  });
});

describe('SIRET Luhn key', () => {
  it('accepts valid SIRETs, including La Poste establishments', () => {
    expect(isValidSiret('732 829 320 00074')).toBe(true);
    expect(isValidSiret('35600000000048')).toBe(true);
    expect(isValidSiret('35600000049837')).toBe(true);
  });
  it('refuses a wrong key or a wrong length', () => {
    expect(isValidSiret('73282932000075')).toBe(false);
    expect(isValidSiret('7328293200007')).toBe(false);
  });
  it('gives the length message before the key message', () => {
    expect(firstMessage(updateProfessionalSchema.safeParse({ siret: '123' }))).toBe('Le SIRET doit contenir 14 chiffres');
    expect(firstMessage(updateProfessionalSchema.safeParse({ siret: '73282932000075' }))).toMatch(/^SIRET invalide/);
    expect(updateProfessionalSchema.safeParse({ siret: '' }).success).toBe(true);
  });
});

describe('profile schemas (spec §5 messages)', () => {
  it('departments: 1 to 3 known codes', () => {
    const message = 'Vous devez sélectionner entre 1 et 3 départements';
    expect(firstMessage(updateDepartmentsSchema.safeParse({ departments: [] }))).toBe(message);
    expect(firstMessage(updateDepartmentsSchema.safeParse({ departments: ['75', '92', '93', '94'] }))).toBe(message);
    expect(firstMessage(updateDepartmentsSchema.safeParse({ departments: ['99'] }))).toBe('Département inconnu');
    expect(updateDepartmentsSchema.safeParse({ departments: ['2A', '971'] }).success).toBe(true);
  });
  it('password change: the four messages', () => {
    const parse = (v: object) => firstMessage(changePasswordFormSchema.safeParse({ currentPassword: 'x', newPassword: 'abcdefg', confirmPassword: 'abcdefg', ...v }));
    expect(parse({ currentPassword: '' })).toBe('Veuillez entrer votre mot de passe actuel');
    expect(parse({ newPassword: '', confirmPassword: '' })).toBe('Veuillez entrer un nouveau mot de passe');
    expect(parse({ newPassword: 'abc', confirmPassword: 'abc' })).toBe('Le mot de passe doit contenir au moins 6 caractères');
    expect(parse({ confirmPassword: 'autre' })).toBe('Les nouveaux mots de passe ne correspondent pas');
  });
  it('banking: required and checked', () => {
    expect(firstMessage(updateBankingSchema.safeParse({ iban: '' }))).toBe('Veuillez entrer un IBAN');
    expect(firstMessage(updateBankingSchema.safeParse({ iban: 'FR7630006000011234567890188' }))).toMatch(/^IBAN invalide/);
  });
});

describe('registration schema', () => {
  const valid = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@exemple.fr',
    password: 'UnBonMotDePasse',
    country: 'France',
    departments: ['75'],
    termsAccepted: true,
  };
  it('accepts the minimal registration', () => {
    expect(registrationSchema.safeParse(valid).success).toBe(true);
  });
  it('gives the §5 messages', () => {
    expect(firstMessage(registrationSchema.safeParse({ ...valid, firstName: '' }))).toBe('Veuillez remplir tous les champs obligatoires');
    expect(firstMessage(registrationSchema.safeParse({ ...valid, password: '' }))).toBe('Veuillez remplir tous les champs obligatoires');
    expect(firstMessage(registrationSchema.safeParse({ ...valid, email: 'ada.exemple.fr' }))).toBe('Adresse email invalide');
    expect(firstMessage(registrationSchema.safeParse({ ...valid, password: 'abc' }))).toBe('Le mot de passe doit contenir au moins 6 caractères');
    expect(firstMessage(registrationSchema.safeParse({ ...valid, departments: [] }))).toBe('Vous devez sélectionner entre 1 et 3 départements');
    expect(firstMessage(registrationSchema.safeParse({ ...valid, termsAccepted: false }))).toBe(
      'Vous devez lire les conditions générales et accepter la formation',
    );
  });
});
