// zod/mini: the technician's profile forms validate with these schemas in the browser, and the mini build is a
// third of classic zod's weight (decision 013). The server uses them as they are (same core, same messages).
import * as z from 'zod/mini';
import { DEPARTMENTS_MAX, DEPARTMENTS_MIN, PASSWORD_MAX, PASSWORD_MIN } from '../constants';
import { isDepartmentCode } from '../departments';
import { IBAN_MESSAGES, compactIban, isSepaIban, isValidIban } from '../iban';
import { PROFILE_MESSAGES } from '../profile-rules';

// Kept in a zod-free module for the pages that show them without validating (decision 017); re-exported for the
// server and the forms.
export { PROFILE_MESSAGES };

// IBAN checks are ibantools' (../iban.ts, decision 021); re-exported here for the forms and the server.
export { compactIban, isValidIban };

export function compactSiret(value: string): string {
  return value.replace(/[\s.]+/g, '');
}

/** 14 digits with a valid Luhn key; La Poste's establishments (SIREN 356000000) use a digit sum multiple of 5. */
export function isValidSiret(value: string): boolean {
  const siret = compactSiret(value);
  if (!/^\d{14}$/.test(siret)) return false;
  const digits = [...siret].map(Number);
  const sum = digits.reduce((acc, digit, index) => {
    if (index % 2 === 0) {
      const doubled = digit * 2;
      return acc + (doubled > 9 ? doubled - 9 : doubled);
    }
    return acc + digit;
  }, 0);
  if (sum % 10 === 0) return true;
  return siret.startsWith('356000000') && digits.reduce((a, b) => a + b, 0) % 5 === 0;
}

/** Optional free text: trimmed, bounded; the server stores an empty value as null. */
export const optionalText = (max: number, label = 'Ce champ') =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, `${label} doit contenir au plus ${max} caractères`)));

export const requiredName = (label: string) =>
  z
    .string({ error: PROFILE_MESSAGES.nameRequired })
    .check(z.trim(), z.minLength(1, PROFILE_MESSAGES.nameRequired), z.maxLength(100, `${label} doit contenir au plus 100 caractères`));

export const phoneSchema = optionalText(30, 'Le téléphone').check(
  z.refine((v) => !v || /^\+?[\d\s.()-]{6,25}$/.test(v), PROFILE_MESSAGES.phoneInvalid),
);

export const postalCodeSchema = optionalText(10, 'Le code postal').check(
  z.refine((v) => !v || /^\d{4,5}$/.test(v.replace(/\s+/g, '')), PROFILE_MESSAGES.postalCodeInvalid),
);

export const siretSchema = optionalText(20, 'Le SIRET').check(
  z.refine((v) => !v || /^\d{14}$/.test(compactSiret(v)), PROFILE_MESSAGES.siretLength),
  z.refine((v) => !v || !/^\d{14}$/.test(compactSiret(v)) || isValidSiret(v), PROFILE_MESSAGES.siretInvalid),
);

export const optionalIbanSchema = optionalText(42, "L'IBAN").check(
  z.refine((v) => !v || isValidIban(v), PROFILE_MESSAGES.ibanInvalid),
  z.refine((v) => !v || !isValidIban(v) || isSepaIban(v), IBAN_MESSAGES.outsideSepa),
);

export const departmentsSchema = z
  .array(z.string(), { error: PROFILE_MESSAGES.departments })
  .check(
    z.minLength(DEPARTMENTS_MIN, PROFILE_MESSAGES.departments),
    z.maxLength(DEPARTMENTS_MAX, PROFILE_MESSAGES.departments),
    z.refine((codes) => codes.every(isDepartmentCode), 'Département inconnu'),
    z.refine((codes) => new Set(codes).size === codes.length, 'Un département est sélectionné deux fois'),
  );

/** PATCH /api/technicians/{id} */
export const updateAddressSchema = z.object({
  address: optionalText(300, "L'adresse"),
  city: optionalText(120, 'La ville'),
  postalCode: postalCodeSchema,
});
export type UpdateAddress = z.infer<typeof updateAddressSchema>;

/** PATCH /api/technicians/{id}/banking */
export const updateBankingSchema = z.object({
  iban: z
    .string({ error: PROFILE_MESSAGES.ibanRequired })
    .check(
      z.trim(),
      z.minLength(1, PROFILE_MESSAGES.ibanRequired),
      z.maxLength(42, PROFILE_MESSAGES.ibanInvalid),
      z.refine(isValidIban, PROFILE_MESSAGES.ibanInvalid),
      z.refine((v) => !isValidIban(v) || isSepaIban(v), IBAN_MESSAGES.outsideSepa),
    ),
});
export type UpdateBanking = z.infer<typeof updateBankingSchema>;

/** PATCH /api/technicians/{id}/professional */
export const updateProfessionalSchema = z.object({
  companyName: optionalText(200, "Le nom de l'entreprise"),
  siret: siretSchema,
});
export type UpdateProfessional = z.infer<typeof updateProfessionalSchema>;

/** PATCH /api/technicians/{id}/personal (the e-mail is read-only) */
export const updatePersonalSchema = z.object({
  firstName: requiredName('Le prénom'),
  lastName: requiredName('Le nom'),
  phone: phoneSchema,
});
export type UpdatePersonal = z.infer<typeof updatePersonalSchema>;

/** PATCH /api/technicians/{id}/departments */
export const updateDepartmentsSchema = z.object({ departments: departmentsSchema });
export type UpdateDepartments = z.infer<typeof updateDepartmentsSchema>;

/** PATCH /api/technicians/{id}/relay-point */
export const updateRelayPointSchema = z.object({ preferredRelayPoint: optionalText(300, 'Le point relais') });
export type UpdateRelayPoint = z.infer<typeof updateRelayPointSchema>;

/** PATCH /api/technicians/{id}/comments */
export const updateCommentsSchema = z.object({ comments: optionalText(2000, 'Le commentaire') });
export type UpdateComments = z.infer<typeof updateCommentsSchema>;

export const newPasswordField = z
  .string({ error: PROFILE_MESSAGES.newPasswordRequired })
  .check(
    z.minLength(1, PROFILE_MESSAGES.newPasswordRequired),
    z.minLength(PASSWORD_MIN, PROFILE_MESSAGES.passwordTooShort),
    z.maxLength(PASSWORD_MAX, PROFILE_MESSAGES.passwordTooLong),
  );

/** PATCH /api/users/{id}/password */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: PROFILE_MESSAGES.currentPasswordRequired })
    .check(z.minLength(1, PROFILE_MESSAGES.currentPasswordRequired), z.maxLength(PASSWORD_MAX)),
  newPassword: newPasswordField,
});
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** The form adds the confirmation, checked only in the browser. */
export const changePasswordFormSchema = z
  .extend(changePasswordSchema, { confirmPassword: z.string() })
  .check(z.refine((v) => v.newPassword === v.confirmPassword, { message: PROFILE_MESSAGES.passwordsMismatch, path: ['confirmPassword'] }));
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

export const successResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type SuccessResponse = z.infer<typeof successResponseSchema>;
