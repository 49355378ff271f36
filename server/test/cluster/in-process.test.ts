import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../src/config';
import { buildApp } from '../../src/app';
import { openPostgres, type Database } from '../../src/db/client';
import { eq } from 'drizzle-orm';
import { devices, missionBatches, missions, shipments } from '../../src/db/schema';
import { CHANGE_FEED_APPLICATION } from '../../src/lib/change-feed/postgres';
import { dayFromToday, makeLotWithDevices } from '../device-fixtures';
import { as, createAdmin, createTechnician, createTestContext, login, type TestContext } from '../helpers';

/**
 * Two instances in one process: each app has its own pool, tracker, caches and change feed, and they share one
 * PostgreSQL database, as two servers would. Only the database's notifications carry one's writes to the other.
 * (test/cluster runs in the PostgreSQL pass only: vitest.config.ts.)
 */
let ctx: TestContext;
let technicianId: string;
let techCookie: string;
let adminCookie: string;
let lotId: string;
const lotsUrl = () => `/api/mission-batches/available-for-application?technicianId=${technicianId}`;
const titles = (body: string) => (JSON.parse(body) as { title: string }[]).map((lot) => lot.title);

beforeAll(async () => {
  ctx = await createTestContext({ READ_CACHE: true });
  const { technician } = await createTechnician(ctx.db);
  technicianId = technician.id;
  techCookie = await login(ctx.app, technician.email);
  adminCookie = await login(ctx.app, (await createAdmin(ctx.db)).email);
  const [lot] = await ctx.db
    .insert(missionBatches)
    .values({ title: 'Lot 0', visibility: 'visible', departments: ['75'] })
    .returning();
  lotId = lot!.id;
});
afterAll(async () => {
  await ctx.close();
});

describe('two apps with their own pools on one PostgreSQL database', () => {
  let second: Database;
  let appB: FastifyInstance;
  beforeAll(async () => {
    second = openPostgres(ctx.url!, 4);
    appB = await buildApp({ config: testConfig({ DATA_DIR: ctx.dataDir, READ_CACHE: true }), db: second.db });
    await appB.ready();
  });
  afterAll(async () => {
    await appB.close();
    await second.close();
  });

  const readOnB = async () => titles((await as(appB, techCookie)({ method: 'GET', url: lotsUrl() })).body);

  it('a lot edited through the first is read through the second within a second (20 trials, latency reported)', async () => {
    const latencies: number[] = [];
    for (let trial = 1; trial <= 20; trial += 1) {
      await readOnB();
      await readOnB(); // now served from B's memory
      const title = `Lot édité ${trial}`;
      const edit = await as(
        ctx.app,
        adminCookie,
      )({
        method: 'PUT',
        url: `/api/mission-batches/${lotId}`,
        payload: { title, price: 500, departments: ['75'], deadline: '' },
      });
      expect(edit.statusCode).toBe(200);
      const started = performance.now();
      await expect.poll(readOnB, { timeout: 1_000, interval: 2 }).toEqual([title]);
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    console.log(`change feed, in-process instances: p50 ${latencies[9]!.toFixed(1)} ms, max ${latencies[19]!.toFixed(1)} ms`);
  });

  it('a logout through the first is refused by the second at once', async () => {
    const { technician } = await createTechnician(ctx.db);
    const cookie = await login(ctx.app, technician.email);
    expect((await as(appB, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await as(appB, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    const out = await as(ctx.app, cookie)({ method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBeLessThan(300);
    await expect
      .poll(async () => (await as(appB, cookie)({ method: 'GET', url: '/api/auth/me' })).statusCode, {
        timeout: 1_000,
        interval: 2,
      })
      .toBe(401);
  });

  it('killing the listening connection loses no invalidation: nothing stale while it is down, and it comes back', async () => {
    await readOnB();
    const admin = new pg.Client({ connectionString: ctx.url! });
    await admin.connect();
    try {
      const reconnectsBefore = appB.changeFeed!.reconnects;
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1`,
        [CHANGE_FEED_APPLICATION],
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(1);
      // Written while B's feed may be down: B must not answer from memory.
      await admin.query(`update mission_batches set title = 'Écrit pendant la coupure' where id = $1`, [lotId]);
      await expect.poll(readOnB, { timeout: 1_000, interval: 2 }).toEqual(['Écrit pendant la coupure']);
      await expect
        .poll(() => appB.changeFeed!.listening && appB.changeFeed!.reconnects > reconnectsBefore, { timeout: 10_000 })
        .toBe(true);
      // Listening again: a later outside write (psql) reaches B too.
      await readOnB();
      await admin.query(`update mission_batches set title = 'Écrit par psql' where id = $1`, [lotId]);
      await expect.poll(readOnB, { timeout: 1_000, interval: 2 }).toEqual(['Écrit par psql']);
    } finally {
      await admin.end();
    }
  });

  it('« Créer le colis » asked of both instances at once creates one parcel (issue 20)', async () => {
    const lot = await makeLotWithDevices(ctx.db, { technicianId, serials: ['CL-9001'] });
    const [mission] = await ctx.db.select({ deviceId: missions.deviceId }).from(missions).where(eq(missions.id, lot.missionIds[0]!));
    await ctx.db.update(devices).set({ batteryExpiry: dayFromToday(10) }).where(eq(devices.id, mission!.deviceId!));
    const url = `/api/admin/mission-batches/${lot.batchId}/parts/shipment`;
    const answers = await Promise.all([
      as(ctx.app, adminCookie)({ method: 'POST', url }),
      as(appB, adminCookie)({ method: 'POST', url }),
      as(ctx.app, adminCookie)({ method: 'POST', url }),
      as(appB, adminCookie)({ method: 'POST', url }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => (a.json() as { shipment: { id: string } }).shipment.id));
    expect(ids.size).toBe(1);
    const rows = await ctx.db.select({ id: shipments.id }).from(shipments).where(eq(shipments.batchId, lot.batchId));
    expect(rows.map((r) => r.id)).toEqual([...ids]);
  });
});
