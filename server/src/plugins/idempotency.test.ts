import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { idempotencyKeys, technicianMissionData } from '../db/schema';
import { purgeExpiredIdempotencyKeys, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from '../lib/idempotency';
import { OWNERSHIP } from './ownership';
import { as, countRows, createTestContext, login, type TestContext } from '../../test/helpers';
import { multipartBody, sampleFiles } from '../../test/multipart';
import { buildWorld, databaseFingerprint, paramKind, type World } from '../../test/security/world';

let ctx: TestContext;
let world: World;
const cookies = { a: '', b: '', admin: '' };
const newKey = () => `cle-${crypto.randomUUID()}`;
// A day ahead in France whatever the hour (the server refuses a visit day in the past).
const visitDay = () => new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ctx = await createTestContext();
  world = await buildWorld(ctx.db, ctx.app.config.uploadsDir);
  cookies.a = await login(ctx.app, world.a.email);
  cookies.b = await login(ctx.app, world.b.email);
  cookies.admin = await login(ctx.app, world.admin.email);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** A valid body for the writes whose body the generic filler below cannot guess. */
function bodyFor(route: string, ids: World['a']['ids']): Record<string, unknown> {
  switch (route) {
    case 'PATCH /api/technician-mission-data/:missionId/:technicianId':
      return { plannedVisitDate: visitDay(), isCompleted: false };
    case 'POST /api/technician-mission-data':
      return { missionId: ids.mission, technicianId: ids.technician, isCompleted: false };
    case 'PUT /api/applications/:id/technician-comment':
      return { content: 'Accès par la cour' };
    case 'POST /api/emails/client-notification':
      return { missionId: ids.mission, technicianId: ids.technician };
    case 'PATCH /api/technicians/:id/comments':
      return { comments: 'Disponible le matin' };
    case 'PATCH /api/technicians/:id/relay-point':
      return { preferredRelayPoint: 'Relais Bastille' };
    case 'PATCH /api/technicians/:id/personal':
      return { firstName: 'A', lastName: 'Martin', phone: '06 12 34 56 78' };
    case 'POST /api/learning-resources/:id/view':
      return { technicianId: ids.technician };
    default: {
      const rule = OWNERSHIP[route];
      return rule && 'from' in rule && rule.from === 'body' ? { [rule.key]: ids.technician, batchId: ids.batch, missionId: ids.mission, status: 'En attente' } : {};
    }
  }
}

function requestFor(method: string, url: string, ids: World['a']['ids']) {
  let path = url;
  for (const match of url.matchAll(/:(\w+)/g)) path = path.replace(`:${match[1]}`, ids[paramKind(url, match[1]!)!]);
  const route = `${method} ${url}`;
  if (route === 'POST /api/technicians/:id/upload-cv') {
    const form = multipartBody({}, { file: { fileName: 'cv.pdf', content: sampleFiles.pdf() } });
    return { method: method as 'POST', url: path, payload: form.payload, headers: form.headers };
  }
  if (route === 'POST /api/technicians/:id/upload-identity') {
    const form = multipartBody({}, { file: { fileName: 'id.png', content: sampleFiles.png() } });
    return { method: method as 'POST', url: path, payload: form.payload, headers: form.headers };
  }
  if (route === 'POST /api/invoice/:id/submit') {
    const form = multipartBody({ reference: 'F-1', amount_certified: 'true' }, { invoice_file: { fileName: 'f.pdf', content: sampleFiles.pdf() } });
    return { method: method as 'POST', url: path, payload: form.payload, headers: form.headers };
  }
  return { method: method as 'POST', url: path, payload: bodyFor(route, ids) };
}

const row0 = (response: { headers: Record<string, unknown> }) => response.headers['idempotent-replayed'] === 'true';

describe('Idempotency-Key on technician writes', () => {
  it('every technician write accepts a key: the same key twice answers the same and applies once', async () => {
    // A database of its own: these calls cancel, finish and change its records.
    const other = await createTestContext();
    const own = await buildWorld(other.db, other.app.config.uploadsDir);
    const cookie = await login(other.app, own.a.email);
    const send = (method: string, url: string, key: string) => {
      const request = requestFor(method, url, own.a.ids);
      return as(other.app, cookie)({ ...request, headers: { ...('headers' in request ? request.headers : {}), 'idempotency-key': key } });
    };
    const routes = other.app.routeAccess.filter(
      (r) => WRITES.includes(r.method) && ['technician', 'technician-or-admin', 'user'].includes(r.access),
    );
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let replayed = 0;
    for (const route of routes) {
      const key = newKey();
      const first = await send(route.method, route.url, key);
      const after = await databaseFingerprint(other.db);
      const second = await send(route.method, route.url, key);
      const label = `${route.method} ${route.url}: ${first.statusCode} puis ${second.statusCode} ${first.body.slice(0, 120)}`;
      if (first.statusCode >= 500) failures.push(label);
      // A refusal that ran nothing is answered again (each answer with its own requestId); a stored one is replayed as it was.
      const withoutRequestId = (body: string) => body.replace(/"requestId":"[^"]*"/, '');
      const sameBody = row0(second) ? second.body === first.body : withoutRequestId(second.body) === withoutRequestId(first.body);
      if (second.statusCode !== first.statusCode || !sameBody) failures.push(`${label} — réponse différente`);
      if ((await databaseFingerprint(other.db)) !== after) failures.push(`${label} — appliqué deux fois`);
      const [row] = await other.db.select({ state: idempotencyKeys.state }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      // The key is kept once the route's handler ran (a validation or ownership refusal ran nothing).
      if (row) {
        if (row.state !== 'done' || second.headers['idempotent-replayed'] !== 'true') failures.push(`${label} — pas rejouée`);
        else replayed += 1;
      }
    }
    await other.close();
    expect(failures).toEqual([]);
    // Nearly every route ran with a valid request (only a few refuse the generic body).
    expect(replayed).toBeGreaterThanOrEqual(routes.length - 6);
  }, 120_000);

  it('a change sent twice with one key is made once: the client e-mail is written once, the answer is the same', async () => {
    const key = newKey();
    const before = await countRows(ctx.db, 'email_outbox');
    const request = { method: 'POST' as const, url: '/api/emails/client-notification', payload: { missionId: world.a.ids.mission, technicianId: world.a.ids.technician }, headers: { 'idempotency-key': key } };
    const first = await as(ctx.app, cookies.a)(request);
    expect(first.statusCode, first.body).toBe(200);
    const second = await as(ctx.app, cookies.a)(request);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toContain('application/json');
    expect(await countRows(ctx.db, 'email_outbox')).toBe(before + 1);
    // Without a key (or with a new one) it is a new request.
    expect((await as(ctx.app, cookies.a)({ ...request, headers: { 'idempotency-key': newKey() } })).statusCode).toBe(200);
    expect(await countRows(ctx.db, 'email_outbox')).toBe(before + 2);
  });

  it('a validation refusal runs nothing: the key is not kept and the corrected request may use it', async () => {
    const key = newKey();
    const url = `/api/technician-mission-data/${world.a.ids.mission}/${world.a.ids.technician}`;
    const first = await as(ctx.app, cookies.a)({ method: 'PATCH', url, payload: { isCompleted: 'oui' }, headers: { 'idempotency-key': key } });
    expect(first.statusCode).toBe(400);
    const fixed = await as(ctx.app, cookies.a)({ method: 'PATCH', url, payload: { isCompleted: true }, headers: { 'idempotency-key': key } });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const [progress] = await ctx.db
      .select({ done: technicianMissionData.isCompleted })
      .from(technicianMissionData)
      .where(and(eq(technicianMissionData.missionId, world.a.ids.mission), eq(technicianMissionData.technicianId, world.a.ids.technician)));
    expect(progress?.done).toBe(true);
    await as(ctx.app, cookies.a)({ method: 'PATCH', url, payload: { isCompleted: false } });
  });

  it('keys belong to their account: another technician or the admin reusing the key gets its own answer, never the first one', async () => {
    const key = newKey();
    const url = `/api/shipments/${world.a.ids.shipment}/receive`;
    const mine = await as(ctx.app, cookies.a)({ method: 'PATCH', url, payload: {}, headers: { 'idempotency-key': key } });
    expect(mine.statusCode, mine.body).toBe(200);
    const other = await as(ctx.app, cookies.b)({ method: 'PATCH', url, payload: {}, headers: { 'idempotency-key': key } });
    expect(other.statusCode).toBe(404);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    const own = await as(ctx.app, cookies.b)({ method: 'PATCH', url: `/api/shipments/${world.b.ids.shipment}/receive`, payload: {}, headers: { 'idempotency-key': key } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['idempotent-replayed']).toBeUndefined();
    expect(own.json().id).toBe(world.b.ids.shipment);
    const rows = await ctx.db.select({ userId: idempotencyKeys.userId }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(2);
  });

  it('a key reused for another request answers 422 with a French message and changes nothing', async () => {
    const key = newKey();
    const url = `/api/applications/${world.a.ids.application}/technician-comment`;
    expect((await as(ctx.app, cookies.a)({ method: 'PUT', url, payload: { content: 'Premier' }, headers: { 'idempotency-key': key } })).statusCode).toBe(200);
    const before = await databaseFingerprint(ctx.db);
    const otherBody = await as(ctx.app, cookies.a)({ method: 'PUT', url, payload: { content: 'Second' }, headers: { 'idempotency-key': key } });
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: 'Cette clé d’idempotence a déjà servi pour une autre requête' });
    const otherRoute = await as(ctx.app, cookies.a)({
      method: 'PATCH',
      url: `/api/shipments/${world.a.ids.shipment}/receive`,
      payload: {},
      headers: { 'idempotency-key': key },
    });
    expect(otherRoute.statusCode).toBe(422);
    expect(await databaseFingerprint(ctx.db)).toBe(before);
    const comment = await as(ctx.app, cookies.a)({ method: 'GET', url });
    expect(comment.json().content).toBe('Premier');
  });

  it('a request still running with the same key answers 409; after a crash (lease passed) the key is taken over', async () => {
    const key = newKey();
    const url = `/api/applications/${world.a.ids.application}/technician-comment`;
    const payload = { content: 'En cours' };
    const first = await as(ctx.app, cookies.a)({ method: 'PUT', url, payload, headers: { 'idempotency-key': key } });
    expect(first.statusCode).toBe(200);
    // Pretend the first request is still running: back to pending, leased.
    const userId = (await ctx.db.select({ userId: idempotencyKeys.userId }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0]!.userId;
    await ctx.db
      .update(idempotencyKeys)
      .set({ state: 'pending', responseStatus: null, responseBody: null, lockedUntil: new Date(Date.now() + IDEMPOTENCY_LEASE_MS) })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    const busy = await as(ctx.app, cookies.a)({ method: 'PUT', url, payload, headers: { 'idempotency-key': key } });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    // Its process died before storing the answer: once the lease has passed, a retry runs (the comment is a full-state write).
    await ctx.db.update(idempotencyKeys).set({ lockedUntil: new Date(Date.now() - 1000) }).where(eq(idempotencyKeys.key, key));
    const retried = await as(ctx.app, cookies.a)({ method: 'PUT', url, payload, headers: { 'idempotency-key': key } });
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await as(ctx.app, cookies.a)({ method: 'PUT', url, payload, headers: { 'idempotency-key': key } });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it('keys expire: past 48 h a key counts as new, and the scheduled purge removes it', async () => {
    const key = newKey();
    const url = `/api/applications/${world.a.ids.application}/technician-comment`;
    expect((await as(ctx.app, cookies.a)({ method: 'PUT', url, payload: { content: 'Ancien' }, headers: { 'idempotency-key': key } })).statusCode).toBe(200);
    const old = new Date(Date.now() - IDEMPOTENCY_TTL_MS - 60_000);
    await ctx.db.update(idempotencyKeys).set({ createdAt: old }).where(eq(idempotencyKeys.key, key));
    // An expired key is forgotten: another body with it is a new request, not a 422.
    const fresh = await as(ctx.app, cookies.a)({ method: 'PUT', url, payload: { content: 'Nouveau' }, headers: { 'idempotency-key': key } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.json().content).toBe('Nouveau');

    await ctx.db.update(idempotencyKeys).set({ createdAt: old }).where(eq(idempotencyKeys.key, key));
    const recent = newKey();
    await as(ctx.app, cookies.a)({ method: 'PUT', url, payload: { content: 'Récent' }, headers: { 'idempotency-key': recent } });
    const removed = await purgeExpiredIdempotencyKeys(ctx.db);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
    expect(await ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, recent))).toHaveLength(1);
  });

  it('multipart: an upload sent twice with one key stores one file and answers the same', async () => {
    const key = newKey();
    const url = `/api/technicians/${world.a.ids.technician}/upload-cv`;
    const files = async () => Number((await ctx.db.execute<{ n: number }>(sql`select count(*)::int n from stored_files`)).rows[0]!.n);
    const send = () => {
      // A fresh FormData each time (a new boundary), as the offline queue sends it.
      const form = multipartBody({}, { file: { fileName: 'cv.pdf', content: sampleFiles.pdf() } });
      return as(ctx.app, cookies.a)({ method: 'POST', url, payload: form.payload, headers: { ...form.headers, 'idempotency-key': key } });
    };
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const stored = await files();
    const second = await send();
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await files()).toBe(stored);
    const cvUrl = first.json().cvUrl as string;
    expect((await as(ctx.app, cookies.a)({ method: 'GET', url: cvUrl })).statusCode).toBe(200);
  });

  it('refuses a malformed key with a French 400, and ignores keys on reads and anonymous calls', async () => {
    const url = `/api/applications/${world.a.ids.application}/technician-comment`;
    const bad = await as(ctx.app, cookies.a)({ method: 'PUT', url, payload: { content: 'x' }, headers: { 'idempotency-key': 'é' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^En-tête Idempotency-Key invalide/);
    const read = await as(ctx.app, cookies.a)({ method: 'GET', url, headers: { 'idempotency-key': 'é' } });
    expect(read.statusCode).toBe(200);
    const anonymous = await as(ctx.app, null)({ method: 'PUT', url, payload: { content: 'x' }, headers: { 'idempotency-key': newKey() } });
    expect(anonymous.statusCode).toBe(401);
  });
});
