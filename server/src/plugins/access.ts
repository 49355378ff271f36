import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { TrackedCache } from '../lib/change-tracker';
import { findSessionByToken, touchSession } from '../modules/auth/auth.service';
import type { AuthContext } from '../modules/auth/auth.service';
import { ownerValue, ownershipRule, resolveOwner } from './ownership';

/**
 * Who may call a route. Every /api route must declare one (start-up fails otherwise):
 * - public: anyone; - user: any signed-in account; - technician: a signed-in technician;
 * - technician-or-admin: a technician on its own records (checked by the service) or the admin;
 * - admin: the administrator (401 without a session, 403 for a technician);
 * - ingest: the visit-suggestion tool with the INGEST_API_KEY bearer.
 */
export type Access = 'public' | 'user' | 'technician' | 'technician-or-admin' | 'admin' | 'ingest';

export interface RouteAccessEntry {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its declared access: the source of the access matrix tests. */
    routeAccess: RouteAccessEntry[];
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const SESSION_COOKIE = 'maillon_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin;
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      return new URL(referer).origin;
    } catch {
      return null;
    }
  }
  return null;
}

function isSameOrigin(request: FastifyRequest, origin: string, publicUrl: string | undefined): boolean {
  try {
    const url = new URL(origin);
    if (publicUrl && new URL(publicUrl).origin === url.origin) return true;
    return url.origin === new URL(`${request.protocol}://${request.headers.host ?? ''}`).origin;
  } catch {
    return false;
  }
}

function enforceAccess(request: FastifyRequest, ingestKey: string | undefined): void {
  const access = request.routeOptions.config?.access;
  if (!access || access === 'public') return;
  if (access === 'ingest') {
    const header = request.headers.authorization;
    if (!ingestKey || header !== `Bearer ${ingestKey}`) throw new AppError('UNAUTHENTICATED', 'Clé d’API invalide');
    return;
  }
  const auth = requireAuth(request);
  if (access === 'user') return;
  if (access === 'admin' && auth.role !== 'admin') throw new AppError('FORBIDDEN', 'Accès réservé à l’administrateur');
  if (access === 'technician' && auth.role !== 'technician') throw new AppError('FORBIDDEN', 'Accès réservé aux techniciens');
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'Vous devez être connecté');
  return request.auth;
}

/**
 * Sessions found by token, kept in memory while no session, account or technician row changed (the change tracker
 * sees every write, so a logout, a revocation or a deactivation is effective on the next request) and for at most
 * 10 s. The expiry dates are checked on every use; sliding them goes through touchSession, which updates the object.
 */
class SessionCache {
  private static readonly TABLES = ['sessions', 'users', 'technicians'];
  private readonly entries: TrackedCache<AuthContext>;

  constructor(private readonly app: FastifyInstance) {
    this.entries = new TrackedCache<AuthContext>(app.changes, { ttlMs: 10_000, maxSize: 20_000 });
  }

  async find(token: string): Promise<AuthContext | null> {
    if (!this.app.config.sessionCache) return findSessionByToken(this.app.db, token);
    const now = Date.now();
    const cached = this.entries.get(token);
    if (cached && cached.expiresAt.getTime() > now && cached.absoluteExpiresAt.getTime() > now) return cached;
    const since = this.app.changes.current();
    const auth = await findSessionByToken(this.app.db, token);
    if (auth) this.entries.set(token, auth, SessionCache.TABLES, since);
    else this.entries.delete(token);
    return auth;
  }
}

export const accessPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auth', null);
  const sessionCache = new SessionCache(app);
  const table: RouteAccessEntry[] = [];
  app.decorate('routeAccess', table);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`La route ${route.method} ${route.url} ne déclare pas son accès (config.access)`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') table.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith('/api')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      const session = await sessionCache.find(token);
      if (session) {
        request.auth = session;
        await touchSession(app.db, session);
      } else {
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      }
      // CSRF: a cookie-authenticated change must come from our own origin.
      if (!SAFE_METHODS.has(request.method)) {
        const origin = requestOrigin(request);
        if (!origin || !isSameOrigin(request, origin, app.config.PUBLIC_URL)) {
          throw new AppError('FORBIDDEN', 'Origine de la requête refusée');
        }
      }
    }
    // Access is decided before the body is parsed or validated: a caller without the right never learns more.
    enforceAccess(request, app.config.INGEST_API_KEY);
  });

  // Ownership (plugins/ownership.ts) is checked once the body is parsed and before it is validated:
  // a technician naming another technician's record learns nothing, whatever it sends.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const auth = request.auth;
    if (!auth || !request.url.startsWith('/api')) return;
    const rule = ownershipRule(request.routeOptions.method as string, request.routeOptions.url ?? '');
    if (!rule || rule.kind === 'self' || rule.kind === 'none') return;
    const value = ownerValue(rule, request);
    if (!value) return;
    if (rule.kind === 'user') {
      if (value !== auth.userId) throw new AppError('NOT_FOUND', 'Ressource introuvable');
      return;
    }
    if (auth.role !== 'technician') return;
    const owner = await resolveOwner(app.db, rule.kind, value);
    if (owner !== auth.technicianId) throw new AppError('NOT_FOUND', 'Ressource introuvable');
  });

});

/**
 * Technician-self rule: the admin may act on any technician; a technician only on itself.
 * Any other id answers 404 so existence is not revealed (decisions.md §2).
 */
export function assertTechnicianSelf(auth: AuthContext, technicianId: string, message = 'Ressource introuvable'): void {
  if (auth.role === 'admin') return;
  if (auth.technicianId !== technicianId) throw new AppError('NOT_FOUND', message);
}
