import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { RouteAccessEntry } from '../../src/plugins/access';
import { as, createTestContext, login, type TestContext } from '../helpers';
import { buildWorld, paramKind, type World } from './world';

/**
 * Hostile input over every route that takes params, query or body: generated with fast-check, at least 200 cases
 * per route. Never a 5xx, always { message, code } on errors, and row counts unchanged after each rejected call.
 */
const CASES_PER_ROUTE = Number(process.env.HOSTILE_CASES ?? 200);
let ctx: TestContext;
let world: World;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext({ INGEST_API_KEY: 'cle-d-ingestion-de-test-123456' });
  world = await buildWorld(ctx.db, ctx.app.config.uploadsDir);
  cookies.a = await login(ctx.app, world.a.email);
  cookies.admin = await login(ctx.app, world.admin.email);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; drop table users; --",
  '1; select pg_sleep(5)',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '\u0000\u0001\u0002\u001f',
  '\u202egnp.exe',
  '𝕸𝖆𝖎𝖑𝖑𝖔𝖓 🫀 été',
  '\uD800',
  ' ',
  '',
  'null',
  'NaN',
  '-1',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
  'a'.repeat(300),
];
const HUGE = 'x'.repeat(1_000_000);

const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2),
  fc.double({ noNaN: false }),
  fc.integer(),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);
const FIELD_NAMES = [
  'email', 'password', 'technicianId', 'batchId', 'missionId', 'missionIds', 'status', 'title', 'description', 'price',
  'departments', 'tags', 'deadline', 'visibility', 'url', 'duration', 'type', 'iban', 'siret', 'firstName', 'lastName',
  'phone', 'address', 'city', 'postalCode', 'comments', 'preferredRelayPoint', 'serialNumber', 'clientName',
  'defibrillatorModel', 'visitType', 'department', 'completionLink', 'plannedVisitDate', 'isCompleted', 'visitDate',
  'origin', 'destination', 'adminComment', 'adminComments', 'technicianComments', 'reference', 'invoiceId', 'content',
  'trackingNumber', 'shippedDate', 'currentPassword', 'newPassword', 'token', 'search', 'limit', 'offset', 'dryRun', 'csv',
];
const hostileObject = fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), hostileString), hostileValue, { maxKeys: 8 });

type Payload =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; text: string }
  | { kind: 'none' };
const hostilePayload: fc.Arbitrary<Payload> = fc.oneof(
  { weight: 5, arbitrary: hostileObject.map((value) => ({ kind: 'json' as const, value })) },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => ({ kind: 'json' as const, value })) },
  { weight: 1, arbitrary: fc.constantFrom('{"email": ', '[1,2', '{"a":1}}', 'nul', '\u0000').map((text) => ({ kind: 'raw' as const, contentType: 'application/json', text })) },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded').map((contentType) => ({ kind: 'raw' as const, contentType, text: 'a=1&b=<x>' })) },
  {
    weight: 1,
    arbitrary: fc.constant({
      kind: 'raw' as const,
      contentType: 'multipart/form-data; boundary=----x',
      text: '------x\r\nContent-Disposition: form-data; name="file"; filename="../../x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 broken',
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
);

function pathWith(route: RouteAccessEntry, pick: (kind: string) => string): string {
  let url = route.url;
  for (const match of route.url.matchAll(/:(\w+)/g)) url = url.replace(`:${match[1]}`, encodeURIComponent(pick(paramKind(route.url, match[1]!) ?? 'technician').replace(/[\uD800-\uDFFF]/g, '\uFFFD')));
  return url;
}

async function rowCounts(): Promise<string> {
  const result = await ctx.db.execute<{ n: string }>(sql`
    select concat_ws(',', (select count(*) from users), (select count(*) from technicians), (select count(*) from applications),
      (select count(*) from invoices), (select count(*) from transfers), (select count(*) from missions), (select count(*) from mission_batches),
      (select count(*) from jobs), (select count(*) from shipments), (select count(*) from learning_resources), (select count(*) from resource_views),
      (select count(*) from technician_mission_data), (select count(*) from comments), (select count(*) from stored_files),
      (select count(*) from invoices_files), (select count(*) from email_outbox), (select count(*) from payout_batches),
      (select count(*) from payout_batch_lines)) as n`);
  return result.rows[0]!.n;
}

describe('hostile input', () => {
  it(`never answers 5xx, always { message, code }, and rejected calls write nothing (${CASES_PER_ROUTE} cases per route)`, async () => {
    const routes = ctx.app.routeAccess.filter((r) => r.url !== '/api/auth/logout');
    const problems: string[] = [];
    let cases = 0;
    // Row counts after the last call: a rejected call must leave them as they were.
    let current = await rowCounts();
    for (const route of routes) {
      const baseCookie = route.access === 'admin' ? cookies.admin! : route.access === 'public' ? null : cookies.a!;
      // A read both roles may make is fuzzed as both (every other case as the admin): they can take different paths.
      const sharedRead = route.access === 'technician-or-admin' && route.method === 'GET';
      const ids = world.a.ids as Record<string, string>;
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            param: fc.oneof(fc.constant<'own' | string>('own'), hostileString),
            query: fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), hostileString), hostileString, { maxKeys: 4 }),
            payload: hostilePayload,
            huge: fc.boolean().map((b) => b && Math.random() < 0.03),
          }),
          async ({ param, query, payload, huge }) => {
            cases += 1;
            const cookie = sharedRead && cases % 2 === 0 ? cookies.admin! : baseCookie;
            const url = pathWith(route, (kind) => (param === 'own' ? (ids[kind] ?? 'x') : param || 'x'));
            const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
            const headers: Record<string, string> = route.access === 'ingest' ? { authorization: 'Bearer cle-d-ingestion-de-test-123456' } : {};
            let body: string | undefined;
            if (route.method !== 'GET' && route.method !== 'DELETE' || payload.kind !== 'none') {
              if (payload.kind === 'json') {
                headers['content-type'] = 'application/json';
                body = JSON.stringify(huge && payload.value && typeof payload.value === 'object' ? { ...(payload.value as object), title: HUGE } : payload.value) ?? 'null';
              } else if (payload.kind === 'raw') {
                headers['content-type'] = payload.contentType;
                body = payload.text;
              }
            }
            if (route.method === 'GET' || route.method === 'HEAD') body = undefined;
            const response = await as(ctx.app, cookie)({ method: route.method as 'POST', url: search ? `${url}?${search}` : url, headers, ...(body !== undefined ? { payload: body } : {}) });
            const label = `${route.method} ${route.url} → ${response.statusCode} ${response.body.slice(0, 200)}`;
            if (response.statusCode >= 500) {
              problems.push(label);
              return false;
            }
            if (response.statusCode >= 400) {
              let shape: { message?: unknown; code?: unknown } = {};
              try {
                shape = response.json();
              } catch {
                problems.push(`${label} — pas du JSON`);
                return false;
              }
              if (typeof shape.message !== 'string' || typeof shape.code !== 'string') {
                problems.push(`${label} — forme`);
                return false;
              }
              const after = await rowCounts();
              if (after !== current) {
                problems.push(`${label} — la base a changé`);
                current = after;
                return false;
              }
            } else {
              current = await rowCounts();
            }
            return true;
          },
        ),
        { numRuns: CASES_PER_ROUTE, endOnFailure: true },
      ).catch((error: unknown) => {
        if (!problems.some((p) => p.startsWith(`${route.method} ${route.url} `))) {
          problems.push(`${route.method} ${route.url} — exception : ${String(error).split("\n").filter((l) => /error|Error/.test(l)).slice(0, 3).join(" | ").slice(0, 400)}`);
        }
      });
    }
    console.log(`Entrées hostiles : ${cases} cas sur ${routes.length} routes`);
    expect(problems.slice(0, 20)).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(routes.length * CASES_PER_ROUTE);
  }, 900_000);
});
