import { DEPARTMENTS_MAX, DEPARTMENTS_MIN, PASSWORD_MAX, PASSWORD_MIN } from './constants';

/**
 * Spec §5 texts, shared by the forms and the server. Without zod, so that a screen can show them before (or without)
 * loading its validation code (decision 017).
 */
export const PROFILE_MESSAGES = {
  departments: `Vous devez sélectionner entre ${DEPARTMENTS_MIN} et ${DEPARTMENTS_MAX} départements`,
  departmentsLimitTitle: 'Limite atteinte',
  departmentsLimit: `Vous pouvez sélectionner maximum ${DEPARTMENTS_MAX} départements`,
  currentPasswordRequired: 'Veuillez entrer votre mot de passe actuel',
  newPasswordRequired: 'Veuillez entrer un nouveau mot de passe',
  passwordTooShort: `Le mot de passe doit contenir au moins ${PASSWORD_MIN} caractères`,
  passwordTooLong: `Le mot de passe doit contenir au plus ${PASSWORD_MAX} caractères`,
  passwordsMismatch: 'Les nouveaux mots de passe ne correspondent pas',
  commonPassword: 'Ce mot de passe est trop courant',
  nameRequired: 'Veuillez remplir tous les champs obligatoires',
  ibanRequired: 'Veuillez entrer un IBAN',
  ibanInvalid: 'IBAN invalide : vérifiez sa saisie (clé de contrôle incorrecte)',
  siretLength: 'Le SIRET doit contenir 14 chiffres',
  siretInvalid: 'SIRET invalide : vérifiez sa saisie (clé de contrôle incorrecte)',
  postalCodeInvalid: 'Code postal invalide',
  phoneInvalid: 'Numéro de téléphone invalide',
} as const;
