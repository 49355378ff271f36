import { z } from 'zod';
import { USER_ROLES } from '../enums';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants';
import { EMAIL_MAX, LOGIN_MESSAGES } from '../login-rules';
import { technicianSchema } from './technicians';

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, LOGIN_MESSAGES.emailRequired).email(LOGIN_MESSAGES.emailInvalid).max(EMAIL_MAX),
  password: z.string().min(1, LOGIN_MESSAGES.passwordRequired).max(PASSWORD_MAX),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const userSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  role: z.enum(USER_ROLES),
});
export type User = z.infer<typeof userSchema>;

export const sessionResponseSchema = z.object({
  user: userSchema,
  technician: technicianSchema.nullable(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `Le mot de passe doit contenir au moins ${PASSWORD_MIN} caractères`)
  .max(PASSWORD_MAX, `Le mot de passe doit contenir au plus ${PASSWORD_MAX} caractères`);
