import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { OWNERSHIP } from '../../src/plugins/ownership';
import type { RouteAccessEntry } from '../../src/plugins/access';
import { as, createTestContext, login, type TestContext } from '../helpers';
import { buildWorld, databaseFingerprint, paramKind, type Ids, type World } from './world';

/**
 * The access matrix, generated from the live route table: every /api route × {anonymous, technician A,
 * technician B, admin}, with real ids belonging to technician A. Refused calls must leave the database unchanged.
 */
let ctx: TestContext;
let world: World;
const cookies: Record<'a' | 'b' | 'admin', string> = { a: '', b: '', admin: '' };

beforeAll(async () => {
  ctx = await createTestContext({ INGEST_API_KEY: 'cle-d-ingestion-de-test-123456' });
  world = await buildWorld(ctx.db, ctx.app.config.uploadsDir);
  cookies.a = await login(ctx.app, world.a.email);
  cookies.b = await login(ctx.app, world.b.email);
  cookies.admin = await login(ctx.app, world.admin.email);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

type Identity = 'anonymous' | 'a' | 'b' | 'admin';
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function routesInOrder(): RouteAccessEntry[] {
  return [...ctx.app.routeAccess].sort(
    (x, y) => METHOD_ORDER.indexOf(x.method) - METHOD_ORDER.indexOf(y.method) || x.url.localeCompare(y.url),
  );
}

/** Fills the path with A's ids (or random ones for admin routes: the admin's mutations must not wreck the world). */
function buildRequest(route: RouteAccessEntry, ids: Ids, useRealIds: boolean) {
  let url = route.url;
  for (const match of route.url.matchAll(/:(\w+)/g)) {
    const name = match[1]!;
    const kind = paramKind(route.url, name);
    if (!kind) throw new Error(`${route.method} ${route.url}: paramètre :${name} sans fixture (ajoutez-le à test/security/world.ts)`);
    url = url.replace(`:${name}`, useRealIds ? ids[kind] : crypto.randomUUID());
  }
  const rule = OWNERSHIP[`${route.method} ${route.url}`];
  const query = rule && 'from' in rule && rule.from === 'query' ? `?${rule.key}=${ids.technician}` : '';
  const body =
    rule && 'from' in rule && rule.from === 'body'
      ? { [rule.key]: ids.technician, batchId: ids.batch, missionId: ids.mission, status: 'En attente', visitDate: new Date().toISOString() }
      : route.method === 'GET' || route.method === 'DELETE'
        ? undefined
        : {};
  return { method: route.method as 'GET', url: `${url}${query}`, ...(body ? { payload: body } : {}) };
}

function expected(route: RouteAccessEntry, identity: Identity): 'allowed' | 401 | 403 | 404 {
  if (route.access === 'public') return 'allowed';
  if (identity === 'anonymous' || route.access === 'ingest') return 401;
  if (route.access === 'admin') return identity === 'admin' ? 'allowed' : 403;
  if (route.access === 'technician' && identity === 'admin') return 403;
  const rule = OWNERSHIP[`${route.method} ${route.url}`];
  const owned = rule && 'from' in rule;
  if (identity === 'b' && owned) return 404;
  // A user id names an account: only its owner may use it (the admin changes its password elsewhere).
  if (identity === 'admin' && rule?.kind === 'user') return 404;
  return 'allowed';
}

const results: { route: string; identity: Identity; status: number; expected: string }[] = [];

describe('access matrix', () => {
  // Runs first: the matrix below lets the admin finish A's lot, after which A has nothing left to leak.
  it('self-scoped reads answer B about B only, even when B names A’s records in the query', async () => {
    const selfReads = routesInOrder().filter((r) => r.method === 'GET' && OWNERSHIP[`${r.method} ${r.url}`]?.kind === 'self');
    expect(selfReads.map((r) => r.url)).toContain('/api/missions');
    const a = world.a.ids;
    const query = new URLSearchParams({ batchId: a.batch, technicianId: a.technician, applicationId: a.application, missionId: a.mission });
    const leaks: string[] = [];
    for (const route of selfReads) {
      for (const url of [route.url, `${route.url}?${query}`]) {
        const response = await as(ctx.app, cookies.b)({ method: 'GET', url });
        if (response.statusCode >= 500) leaks.push(`${url}: ${response.statusCode}`);
        for (const id of [a.batch, a.technician, a.application, a.mission, a.user]) {
          if (response.statusCode === 200 && response.body.includes(id)) leaks.push(`${url} montre ${id} à B`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('gives every route a declared outcome for each identity, and refused calls change nothing', async () => {
    const routes = routesInOrder();
    const missing = routes
      .filter((r) => ['technician', 'technician-or-admin', 'user'].includes(r.access))
      .filter((r) => !OWNERSHIP[`${r.method} ${r.url}`])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes callable by a technician without an ownership rule in plugins/ownership.ts').toEqual([]);

    const failures: string[] = [];
    for (const route of routes) {
      if (route.url === '/api/auth/logout') continue; // would end the identities' sessions; covered in auth tests
      for (const identity of ['anonymous', 'b', 'a', 'admin'] as Identity[]) {
        const want = expected(route, identity);
        const realIds = route.access !== 'admin' && route.access !== 'public' && route.access !== 'ingest';
        const request = buildRequest(route, world.a.ids, realIds);
        const cookie = identity === 'anonymous' ? null : cookies[identity];
        const refused = want !== 'allowed';
        const before = refused ? await databaseFingerprint(ctx.db) : '';
        const response: LightMyRequestResponse = await as(ctx.app, cookie)(request);
        results.push({ route: `${route.method} ${route.url}`, identity, status: response.statusCode, expected: String(want) });
        const label = `${route.method} ${route.url} as ${identity}: ${response.statusCode} (attendu ${want}) ${response.body.slice(0, 160)}`;
        if (response.statusCode >= 500) failures.push(label);
        else if (refused) {
          if (response.statusCode !== want) failures.push(label);
          else if ((await databaseFingerprint(ctx.db)) !== before) failures.push(`${label} — la base a changé`);
          const body = response.json() as { message?: unknown; code?: unknown };
          if (typeof body.message !== 'string' || typeof body.code !== 'string') failures.push(`${label} — forme d'erreur`);
        } else {
          const forbidden = [401, 403];
          // A's own records must be reachable by A and the admin: 404 would mean the rule is wrong.
          if (realIds) forbidden.push(404);
          if (forbidden.includes(response.statusCode)) failures.push(label);
        }
      }
    }
    console.log(`Matrice d'accès : ${routes.length} routes × 4 identités = ${results.length} appels`);
    expect(failures).toEqual([]);
  }, 300_000);

});
