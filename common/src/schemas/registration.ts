import { z } from 'zod';
import { PASSWORD_MAX } from '../constants';
import { REGISTRATION_MESSAGES } from '../registration-rules';
import {
  PROFILE_MESSAGES,
  departmentsSchema,
  newPasswordField,
  optionalIbanSchema,
  optionalText,
  phoneSchema,
  postalCodeSchema,
  requiredName,
  siretSchema,
} from './profile';

// Kept in a zod-free module for the public pages (decision 013); re-exported for the server and the forms.
export { REGISTRATION_MESSAGES };

/** Countries offered (display only, France by default). */
export const COUNTRIES = ['France', 'Belgique', 'Suisse'] as const;
export type Country = (typeof COUNTRIES)[number];

export const registrationEmailSchema = z
  .string({ error: REGISTRATION_MESSAGES.required })
  .trim()
  .min(1, REGISTRATION_MESSAGES.required)
  .max(254, REGISTRATION_MESSAGES.emailInvalid)
  .email(REGISTRATION_MESSAGES.emailInvalid);

/**
 * Text part of POST /api/technicians/register (multipart: these fields, departments as a JSON array,
 * identityDocument and cv files). The same schema drives the registration forms.
 */
export const registrationSchema = z.object({
  firstName: requiredName('Le prénom'),
  lastName: requiredName('Le nom'),
  email: registrationEmailSchema,
  password: z
    .string({ error: REGISTRATION_MESSAGES.required })
    .min(1, REGISTRATION_MESSAGES.required)
    .pipe(newPasswordField),
  phone: phoneSchema,
  companyName: optionalText(200, "Le nom de l'entreprise"),
  siret: siretSchema,
  iban: optionalIbanSchema,
  preferredRelayPoint: optionalText(300, 'Le point relais'),
  comments: optionalText(2000, 'Le commentaire'),
  address: optionalText(300, "L'adresse"),
  city: optionalText(120, 'La ville'),
  postalCode: postalCodeSchema,
  country: z.enum(COUNTRIES, { error: 'Pays invalide' }),
  departments: departmentsSchema,
  /** The terms were scrolled to the end and the training box ticked. */
  termsAccepted: z.literal(true, { error: REGISTRATION_MESSAGES.terms }),
});
export type Registration = z.infer<typeof registrationSchema>;
export type RegistrationInput = z.input<typeof registrationSchema>;

export const registrationResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  technicianId: z.string().uuid(),
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** POST /api/technicians/reset-password */
export const forgotPasswordSchema = z.object({
  email: z
    .string({ error: REGISTRATION_MESSAGES.forgotEmailRequired })
    .trim()
    .min(1, REGISTRATION_MESSAGES.forgotEmailRequired)
    .max(254, REGISTRATION_MESSAGES.emailInvalid)
    .email(REGISTRATION_MESSAGES.emailInvalid),
});
export type ForgotPassword = z.infer<typeof forgotPasswordSchema>;

/** POST /api/technicians/reset-password/confirm */
export const resetPasswordConfirmSchema = z.object({
  token: z.string({ error: 'Lien de réinitialisation invalide' }).min(10, 'Lien de réinitialisation invalide').max(200, 'Lien de réinitialisation invalide'),
  password: newPasswordField,
});
export type ResetPasswordConfirm = z.infer<typeof resetPasswordConfirmSchema>;

export const resetPasswordFormSchema = z
  .object({ password: newPasswordField, confirmPassword: z.string().max(PASSWORD_MAX) })
  .refine((v) => v.password === v.confirmPassword, { message: PROFILE_MESSAGES.passwordsMismatch, path: ['confirmPassword'] });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
