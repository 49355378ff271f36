import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { applications, missionBatches } from '../db/schema';
import { statementScope } from '../lib/change-tracker';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../../test/helpers';

let ctx: TestContext;
let techA: Awaited<ReturnType<typeof createTechnician>>;
let techB: Awaited<ReturnType<typeof createTechnician>>;
let cookieA: string;
let cookieB: string;
let cookieAdmin: string;
let lotId: string;

const lotsUrl = () => `/api/mission-batches/available-for-application?technicianId=${techA.technician.id}`;
const applicationsUrl = () => `/api/applications?technicianId=${techA.technician.id}`;

beforeAll(async () => {
  ctx = await createTestContext({ READ_CACHE: true });
  techA = await createTechnician(ctx.db);
  techB = await createTechnician(ctx.db);
  const admin = await createAdmin(ctx.db);
  cookieA = await login(ctx.app, techA.technician.email);
  cookieB = await login(ctx.app, techB.technician.email);
  cookieAdmin = await login(ctx.app, admin.email);
  const [lot] = await ctx.db
    .insert(missionBatches)
    .values({ title: 'Paris Est', priceCents: 50_000, departments: ['75'], tags: ['Maintenance'], visibility: 'visible' })
    .returning();
  lotId = lot!.id;
});
afterAll(async () => {
  await ctx.close();
});

describe('read cache', () => {
  it('runs each API request in a statement scope, where its reads are collected', async () => {
    const scopes = vi.spyOn(statementScope, 'run');
    try {
      await as(ctx.app, cookieA)({ method: 'GET', url: applicationsUrl() });
      expect(scopes).toHaveBeenCalledTimes(1);
    } finally {
      scopes.mockRestore();
    }
  });

  it('answers a repeated read from memory, with the same body, total and ETag', async () => {
    // The notifications of the set-up's writes arrive after their commits: the first answer must not be computed before.
    await ctx.app.changeFeed?.caughtUp();
    const first = await as(ctx.app, cookieA)({ method: 'GET', url: lotsUrl() });
    const hits = ctx.app.readCache.hits;
    const second = await as(ctx.app, cookieA)({ method: 'GET', url: lotsUrl() });
    expect(second.statusCode).toBe(200);
    expect(ctx.app.readCache.hits).toBe(hits + 1);
    expect(second.body).toBe(first.body);
    expect(second.headers['x-total-count']).toBe('1');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toContain('application/json');
    expect(second.headers['cache-control']).toBe('private, no-cache');
    expect(second.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends the bytes of the text it tagged, accents and all, on a miss and on a hit', async () => {
    const title = 'Défibrillateurs d’Île-de-France — 2 €';
    const [lot] = await ctx.db.insert(missionBatches).values({ title, priceCents: 1000, departments: ['93'], tags: [], visibility: 'visible' }).returning();
    await ctx.app.changeFeed?.caughtUp();
    try {
      const url = `${lotsUrl()}&department=93`;
      const miss = await as(ctx.app, cookieA)({ method: 'GET', url });
      const hit = await as(ctx.app, cookieA)({ method: 'GET', url });
      for (const answer of [miss, hit]) {
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
        expect((answer.json() as { title: string }[]).map((l) => l.title)).toEqual([title]);
      }
      expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
      expect(hit.headers.etag).toBe(miss.headers.etag);
      // The tag names the UTF-8 bytes that left, not some other writing of the text.
      expect(miss.headers.etag).toBe(`W/"${createHash('sha1').update(miss.rawPayload).digest('base64url')}"`);
    } finally {
      await ctx.db.delete(missionBatches).where(eq(missionBatches.id, lot!.id));
    }
  });

  it('answers 304 without a body to a matching If-None-Match, on a miss and on a hit', async () => {
    const first = await as(ctx.app, cookieA)({ method: 'GET', url: applicationsUrl() });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await as(ctx.app, cookieA)({ method: 'GET', url: applicationsUrl(), headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await as(ctx.app, cookieA)({ method: 'GET', url: applicationsUrl(), headers: { 'if-none-match': 'W/"autre"' } });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(first.json());
  });

  it('shows a write made through the API on the very next read', async () => {
    await as(ctx.app, cookieA)({ method: 'GET', url: applicationsUrl() });
    const apply = await as(ctx.app, cookieA)({
      method: 'POST',
      url: '/api/applications/batch',
      payload: { batchId: lotId, technicianId: techA.technician.id },
    });
    expect(apply.statusCode).toBe(201);
    const after = await as(ctx.app, cookieA)({ method: 'GET', url: applicationsUrl() });
    expect(after.json()).toHaveLength(1);
    const lots = await as(ctx.app, cookieA)({ method: 'GET', url: lotsUrl() });
    expect(lots.json()[0]).toMatchObject({ hasApplied: true, candidateCount: 1 });
  });

  it('shows a write made behind the API (query builder, raw SQL, transaction) on the next read', async () => {
    const read = async () => (await as(ctx.app, cookieA)({ method: 'GET', url: lotsUrl() })).json()[0] as { title: string; price: number };
    await read();
    await ctx.db.update(missionBatches).set({ title: 'Paris Ouest' }).where(eq(missionBatches.id, lotId));
    expect((await read()).title).toBe('Paris Ouest');
    await ctx.db.execute(sql`update mission_batches set price_cents = 61000 where id = ${lotId}`);
    expect((await read()).price).toBe(610);
    await ctx.db.transaction(async (tx) => {
      await tx.update(missionBatches).set({ title: 'Paris Sud' }).where(eq(missionBatches.id, lotId));
    });
    expect((await read()).title).toBe('Paris Sud');
  });

  it('never serves an entry across accounts: another technician is refused before the cache', async () => {
    const own = await as(ctx.app, cookieA)({ method: 'GET', url: applicationsUrl() });
    expect(own.statusCode).toBe(200);
    const stranger = await as(ctx.app, cookieB)({ method: 'GET', url: applicationsUrl() });
    expect(stranger.statusCode).toBe(404);
    const anonymous = await as(ctx.app, null)({ method: 'GET', url: applicationsUrl() });
    expect(anonymous.statusCode).toBe(401);
  });

  it('after a read and a write run side by side, the next read shows the write', async () => {
    const urlB = `/api/applications?technicianId=${techB.technician.id}`;
    for (let round = 1; round <= 5; round += 1) {
      const [lot] = await ctx.db
        .insert(missionBatches)
        .values({ title: `Lot ${round}`, priceCents: 1000, departments: ['75'], tags: [], visibility: 'visible' })
        .returning();
      const [, applied] = await Promise.all([
        as(ctx.app, cookieB)({ method: 'GET', url: urlB }),
        as(ctx.app, cookieB)({ method: 'POST', url: '/api/applications/batch', payload: { batchId: lot!.id, technicianId: techB.technician.id } }),
        as(ctx.app, cookieB)({ method: 'GET', url: urlB }),
      ]);
      expect(applied.statusCode).toBe(201);
      const after = await as(ctx.app, cookieB)({ method: 'GET', url: urlB });
      expect(after.json()).toHaveLength(round);
    }
  });
});

describe('read cache and foreign-key actions', () => {
  it('drops a deleted technician from the cached admin list (the delete reaches technicians through users)', async () => {
    const { technician } = await createTechnician(ctx.db, { status: 'inactive' });
    const list = async () =>
      (await as(ctx.app, cookieAdmin)({ method: 'GET', url: '/api/technicians?status=inactive&limit=100' })).json().map((t: { id: string }) => t.id);
    expect(await list()).toContain(technician.id);
    expect(await list()).toContain(technician.id);
    const removed = await as(ctx.app, cookieAdmin)({ method: 'DELETE', url: `/api/technicians/${technician.id}` });
    expect(removed.statusCode).toBe(200);
    expect(await list()).not.toContain(technician.id);
  });
});

describe('session cache', () => {
  it('refuses a session on the next request once it is logged out', async () => {
    const cookie = await login(ctx.app, techB.technician.email);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await as(ctx.app, cookie)({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBeLessThan(300);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses a deactivated technician on the next request, even with a session read a moment before', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    const own = `/api/applications?technicianId=${technician.id}`;
    expect((await as(ctx.app, cookie)({ method: 'GET', url: own })).statusCode).toBe(200);
    const deactivate = await as(ctx.app, cookieAdmin)({ method: 'PATCH', url: `/api/technicians/${technician.id}/deactivate` });
    expect(deactivate.statusCode).toBe(200);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: own })).statusCode).toBe(401);
  });

  it('refuses a session deleted behind the API on the next request', async () => {
    const cookie = await login(ctx.app, techB.technician.email);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    await ctx.db.execute(sql`delete from sessions where user_id = ${techB.user.id}`);
    expect((await as(ctx.app, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });
});

describe('without the read cache', () => {
  it('keeps sessions in memory by default (SESSION_CACHE on, feed on), still refusing a deleted session on the next request', async () => {
    const off = await createTestContext({ READ_CACHE: false });
    try {
      expect(off.app.config.sessionCache).toBe(true);
      expect(off.app.changeFeed).not.toBeNull();
      const { technician, user } = await createTechnician(off.db);
      const cookie = await login(off.app, technician.email);
      const url = `/api/applications?technicianId=${technician.id}`;
      expect((await as(off.app, cookie)({ method: 'GET', url })).statusCode).toBe(200);
      expect((await as(off.app, cookie)({ method: 'GET', url })).statusCode).toBe(200);
      expect(off.app.readCache.hits).toBe(0);
      await off.db.execute(sql`delete from sessions where user_id = ${user.id}`);
      await off.app.changeFeed?.caughtUp();
      expect((await as(off.app, cookie)({ method: 'GET', url })).statusCode).toBe(401);
    } finally {
      await off.close();
    }
  });

  it('computes every answer (READ_CACHE=false) and still sends ETags', async () => {
    const off = await createTestContext({ READ_CACHE: false });
    const scopes = vi.spyOn(statementScope, 'run');
    try {
      const { technician } = await createTechnician(off.db);
      const cookie = await login(off.app, technician.email);
      const url = `/api/applications?technicianId=${technician.id}`;
      const first = await as(off.app, cookie)({ method: 'GET', url });
      await as(off.app, cookie)({ method: 'GET', url });
      expect(off.app.readCache.hits).toBe(0);
      // No statement scope without the cache: nothing would be kept from it (decision 089).
      expect(scopes).not.toHaveBeenCalled();
      expect(first.headers.etag).toBeTruthy();
      const [lot] = await off.db.insert(missionBatches).values({ title: 'Lot', priceCents: 1000, departments: ['75'], tags: [], visibility: 'visible' }).returning();
      await off.db.insert(applications).values({ batchId: lot!.id, technicianId: technician.id });
      expect((await as(off.app, cookie)({ method: 'GET', url })).json()).toHaveLength(1);
    } finally {
      scopes.mockRestore();
      await off.close();
    }
  });
});
