import { and, eq, isNull } from 'drizzle-orm';
import { PROFILE_MESSAGES } from '@maillon/common/schemas/profile';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { passwordResetTokens, technicians, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { isCommonPassword } from '../../lib/common-passwords';
import { enqueueEmail } from '../../lib/outbox';
import { hashPassword, hashToken, randomToken, verifyPassword } from '../../lib/passwords';
import { clearRateLimit, enforceRateLimit } from '../../lib/rate-limit';
import { revokeUserSessions } from '../auth/auth.service';
import { passwordResetEmail } from './technicians.emails';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const RESET_TOKEN_TTL_MS = HOUR;
export const RESET_LIMITS = { perIp: 30, perEmail: 5, windowMs: HOUR } as const;
export const PASSWORD_CHANGE_LIMIT = { perUser: 10, windowMs: 15 * MINUTE } as const;

export const RESET_MESSAGES = {
  sent: 'Si un compte existe pour cette adresse, un email avec un lien de réinitialisation vient de lui être envoyé',
  done: 'Votre mot de passe a été modifié. Vous pouvez vous connecter.',
  invalid: "Ce lien de réinitialisation n'est pas valide ou a déjà été utilisé. Demandez un nouveau lien depuis la page de connexion.",
  expired: 'Ce lien de réinitialisation a expiré (il est valable 1 heure). Demandez un nouveau lien depuis la page de connexion.',
  wrongCurrent: 'Le mot de passe actuel est incorrect',
  changed: 'Mot de passe modifié',
} as const;

function refuseCommon(password: string, field: string): void {
  if (isCommonPassword(password)) throw new AppError('VALIDATION_ERROR', PROFILE_MESSAGES.commonPassword, { [field]: PROFILE_MESSAGES.commonPassword });
}

/**
 * Always answers the same way (no account enumeration). For an existing technician account, replaces any unused
 * link by a new single-use one valid 1 hour and e-mails it, in one transaction.
 */
export async function requestPasswordReset(options: { db: Db; config: Config; ip: string; origin: string; email: string }): Promise<void> {
  const { db, config } = options;
  const email = options.email.trim().toLowerCase();
  await enforceRateLimit(db, `reset-ip:${options.ip}`, RESET_LIMITS.perIp, RESET_LIMITS.windowMs);
  await enforceRateLimit(db, `reset-email:${email}`, RESET_LIMITS.perEmail, RESET_LIMITS.windowMs);
  const [account] = await db
    .select({ userId: users.id, isActive: users.isActive, status: technicians.status })
    .from(users)
    .innerJoin(technicians, eq(technicians.userId, users.id))
    .where(and(eq(users.email, email), eq(users.role, 'technician')))
    .limit(1);
  if (!account || !account.isActive || account.status === 'inactive' || account.status === 'rejected') return;
  const token = randomToken();
  await db.transaction(async (tx) => {
    await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, account.userId), isNull(passwordResetTokens.usedAt)));
    await tx.insert(passwordResetTokens).values({
      tokenHash: hashToken(token),
      userId: account.userId,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    const resetUrl = `${options.origin}/technician/reset-password?token=${encodeURIComponent(token)}`;
    await enqueueEmail(tx, passwordResetEmail({ to: email, productName: config.PRODUCT_NAME, resetUrl }));
  });
}

/** Uses the link once: new password, every session of the account ended, the failed-login counter cleared. */
export async function confirmPasswordReset(options: { db: Db; token: string; password: string }): Promise<void> {
  const { db } = options;
  refuseCommon(options.password, 'password');
  const tokenHash = hashToken(options.token);
  const [row] = await db
    .select({ userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt, usedAt: passwordResetTokens.usedAt })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row || row.usedAt) throw new AppError('BAD_REQUEST', RESET_MESSAGES.invalid);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError('BAD_REQUEST', RESET_MESSAGES.expired);
  const passwordHash = await hashPassword(options.password);
  const email = await db.transaction(async (tx) => {
    // The conditional update makes the link single-use even under concurrent submissions.
    const claimed = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt)))
      .returning({ userId: passwordResetTokens.userId });
    if (claimed.length === 0) throw new AppError('BAD_REQUEST', RESET_MESSAGES.invalid);
    const [user] = await tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId)).returning({ email: users.email });
    await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, row.userId), isNull(passwordResetTokens.usedAt)));
    await revokeUserSessions(tx, row.userId);
    return user!.email;
  });
  await clearRateLimit(db, `login-fail:${email}`);
}

/** The signed-in account changes its own password; its other sessions end (decisions.md §2). */
export async function changePassword(options: {
  db: Db;
  userId: string;
  targetUserId: string;
  currentTokenHash: string;
  currentPassword: string;
  newPassword: string;
}): Promise<void> {
  const { db } = options;
  if (options.userId !== options.targetUserId) throw new AppError('NOT_FOUND', 'Ressource introuvable');
  await enforceRateLimit(db, `password-change:${options.userId}`, PASSWORD_CHANGE_LIMIT.perUser, PASSWORD_CHANGE_LIMIT.windowMs);
  refuseCommon(options.newPassword, 'newPassword');
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, options.userId)).limit(1);
  if (!user) throw new AppError('NOT_FOUND', 'Ressource introuvable');
  if (!(await verifyPassword(options.currentPassword, user.passwordHash))) {
    throw new AppError('BAD_REQUEST', RESET_MESSAGES.wrongCurrent, { currentPassword: RESET_MESSAGES.wrongCurrent });
  }
  const passwordHash = await hashPassword(options.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, options.userId));
    await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, options.userId), isNull(passwordResetTokens.usedAt)));
    await revokeUserSessions(tx, options.userId, options.currentTokenHash);
  });
}
