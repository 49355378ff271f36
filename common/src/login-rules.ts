/**
 * The login form's rules, shared by the server's schema (schemas/auth.ts) and the browser's plain login form:
 * the public pages load no zod (decision 013), so this module must not import it.
 */
export const EMAIL_MAX = 254;

/** zod's email pattern (z.string().email()), so that the browser accepts exactly what the server does. */
// eslint-disable-next-line no-useless-escape -- zod's source verbatim; login-rules.test.ts compares the two.
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

export const LOGIN_MESSAGES = {
  emailRequired: 'Veuillez entrer votre adresse email',
  emailInvalid: 'Adresse email invalide',
  passwordRequired: 'Veuillez entrer votre mot de passe',
} as const;
