import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { SessionResponse } from '@maillon/common/schemas/auth';
import type { Db, DbOrTx } from '../../db/client';
import { sessions, technicians, users } from '../../db/schema';
import { preparedQuery, preparedSql } from '../../db/prepared-queries';
import { AppError } from '../../lib/app-error';
import { getDummyHash, hashPassword, hashToken, randomToken, verifyPassword } from '../../lib/passwords';
import { clearRateLimit, enforceRateLimit, hitRateLimit, peekRateLimit } from '../../lib/rate-limit';
import { jsonRowSql, jsonRowText } from '../../lib/pagination';
import { technicianFields, toTechnician } from '../technicians/technicians.mapper';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** decisions.md §2: technicians 30 days sliding; admin 2 h idle, 12 h absolute. */
export const SESSION_POLICY = {
  technician: { idleMs: 30 * DAY, absoluteMs: 30 * DAY * 12 },
  admin: { idleMs: 2 * HOUR, absoluteMs: 12 * HOUR },
} as const;
const FAILED_LOGIN_LIMIT = 10;
const FAILED_LOGIN_WINDOW_MS = 15 * MINUTE;
const LOGIN_IP_LIMIT = 100;

export interface AuthContext {
  userId: string;
  email: string;
  role: 'admin' | 'technician';
  technicianId: string | null;
  technicianStatus: string | null;
  tokenHash: string;
  lastSeenAt: Date;
  expiresAt: Date;
  absoluteExpiresAt: Date;
  /**
   * The technician's home as stored with its profile address (technicians.latitude/longitude), read with the session so
   * that distances need no query of their own; null when not stored (then located from the address when needed).
   */
  home?: { lat: number; lon: number } | null;
}

/** The session lookup runs on every request the session cache cannot answer: a named prepared statement per database. */
const sessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();

function prepareSessionLookup(db: Db) {
  return db
    .select({
      userId: users.id,
      email: users.email,
      role: users.role,
      isActive: users.isActive,
      technicianId: technicians.id,
      technicianStatus: technicians.status,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
      homeLat: technicians.latitude,
      homeLon: technicians.longitude,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(technicians, eq(technicians.userId, users.id))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('maillon_session_by_token');
}

export async function findSessionByToken(db: Db, token: string): Promise<AuthContext | null> {
  if (token.length > 100) return null;
  const tokenHash = hashToken(token);
  let lookup = sessionLookups.get(db);
  if (!lookup) sessionLookups.set(db, (lookup = prepareSessionLookup(db)));
  const [row] = await lookup.execute({ tokenHash });
  if (!row) return null;
  const now = Date.now();
  const disabled = !row.isActive || row.technicianStatus === 'inactive' || row.technicianStatus === 'rejected';
  if (disabled || row.expiresAt.getTime() <= now || row.absoluteExpiresAt.getTime() <= now) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  const { homeLat, homeLon, ...session } = row;
  const home = homeLat !== null && homeLon !== null ? { lat: homeLat, lon: homeLon } : null;
  return { ...session, role: row.role as AuthContext['role'], tokenHash, home };
}

/** Slides the idle expiry, at most once a minute per session to spare writes. */
export async function touchSession(db: Db, session: AuthContext): Promise<void> {
  if (Date.now() - session.lastSeenAt.getTime() < MINUTE) return;
  const policy = SESSION_POLICY[session.role];
  const expiresAt = new Date(Math.min(Date.now() + policy.idleMs, session.absoluteExpiresAt.getTime()));
  const lastSeenAt = new Date();
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.tokenHash, session.tokenHash));
  // The session cache holds this object: it slides with the row.
  session.lastSeenAt = lastSeenAt;
  session.expiresAt = expiresAt;
}

/** The session's answer (SessionResponse) as PostgreSQL writes it: the user's own columns, its technician as toTechnician. */
const sessionViewJsonSql = jsonRowSql({
  user: jsonRowText({ id: 'u.id', email: 'u.email', role: 'u.role' }),
  technician: `case when t.id is null then null else ${jsonRowText(technicianFields)} end`,
});

/**
 * GET /api/auth/me, every screen's first call, as the JSON text the route sends (decision 058): one column to read
 * instead of the technician's whole row (32 columns mapped, then checked against the response schema, in Node).
 * Rendered once (preparedSql, decision 032): the session is the hottest read.
 */
export async function getSessionViewText(db: Db, userId: string): Promise<string> {
  const { rows } = await preparedSql<{ json: string }>(
    db,
    'session-view-json',
    () =>
      sql`select to_json(${sessionViewJsonSql})::text as json from users u left join technicians t on t.user_id = u.id where u.id = ${sql.placeholder('userId')} limit 1`,
  ).execute({ userId });
  if (!rows[0]) throw new AppError('UNAUTHENTICATED', 'Vous devez être connecté');
  return rows[0].json;
}

export async function getSessionView(db: DbOrTx, userId: string): Promise<SessionResponse> {
  // The login's answer (GET /api/auth/me writes the same object in SQL: getSessionViewText, decision 058). Built once
  // per database object and prepared (docs/decisions/028, 030), the user's own columns only (not the password's hash).
  const view = preparedQuery(db, 'session-view', () =>
    db
      .select({ user: { id: users.id, email: users.email, role: users.role }, technician: technicians })
      .from(users)
      .leftJoin(technicians, eq(technicians.userId, users.id))
      .where(eq(users.id, sql.placeholder('userId')))
      .limit(1)
      .prepare('maillon_session_view'),
  );
  const [row] = await view.execute({ userId });
  if (!row) throw new AppError('UNAUTHENTICATED', 'Vous devez être connecté');
  return {
    user: { id: row.user.id, email: row.user.email, role: row.user.role as 'admin' | 'technician' },
    technician: row.technician ? toTechnician(row.technician) : null,
  };
}

export async function createSession(
  db: DbOrTx,
  options: { userId: string; role: 'admin' | 'technician'; ip?: string; userAgent?: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const policy = SESSION_POLICY[options.role];
  const now = Date.now();
  const expiresAt = new Date(now + policy.idleMs);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId: options.userId,
    expiresAt,
    absoluteExpiresAt: new Date(now + policy.absoluteMs),
    ip: options.ip ?? null,
    userAgent: options.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

export async function login(
  db: Db,
  options: { email: string; password: string; ip: string; userAgent?: string },
): Promise<{ token: string; expiresAt: Date; session: SessionResponse }> {
  const email = options.email.trim().toLowerCase();
  const accountKey = `login-fail:${email}`;
  await enforceRateLimit(db, `login-ip:${options.ip}`, LOGIN_IP_LIMIT, FAILED_LOGIN_WINDOW_MS);
  if ((await peekRateLimit(db, accountKey, FAILED_LOGIN_WINDOW_MS)) >= FAILED_LOGIN_LIMIT) {
    throw new AppError('RATE_LIMITED', 'Trop de tentatives de connexion, réessayez dans 15 minutes');
  }
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const valid = await verifyPassword(options.password, user?.passwordHash ?? (await getDummyHash()));
  if (!user || !valid) {
    await hitRateLimit(db, accountKey, FAILED_LOGIN_WINDOW_MS);
    throw new AppError('INVALID_CREDENTIALS', 'Email ou mot de passe incorrect');
  }
  const session = await getSessionView(db, user.id);
  const status = session.technician?.status;
  if (!user.isActive || status === 'inactive' || status === 'rejected') {
    throw new AppError('ACCOUNT_DISABLED', 'Compte désactivé');
  }
  await clearRateLimit(db, accountKey);
  const created = await createSession(db, {
    userId: user.id,
    role: user.role as 'admin' | 'technician',
    ip: options.ip,
    userAgent: options.userAgent,
  });
  return { ...created, session };
}

export async function logout(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function revokeUserSessions(db: DbOrTx, userId: string, exceptTokenHash?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      exceptTokenHash
        ? and(eq(sessions.userId, userId), sql`${sessions.tokenHash} <> ${exceptTokenHash}`)
        : eq(sessions.userId, userId),
    );
}

export async function purgeExpiredSessions(db: Db): Promise<void> {
  const now = new Date();
  await db.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.absoluteExpiresAt, now)));
}

/** Creates the admin account if missing (ADMIN_EMAIL / ADMIN_PASSWORD, or the demo admin). */
export async function ensureAdmin(db: Db, email: string, password: string): Promise<'created' | 'exists'> {
  const normalized = email.trim().toLowerCase();
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalized)).limit(1);
  if (existing) return 'exists';
  await db
    .insert(users)
    .values({ email: normalized, passwordHash: await hashPassword(password), role: 'admin' })
    .onConflictDoNothing();
  return 'created';
}
