import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import http from 'node:http';
import {
  applications,
  auditLog,
  payoutBatchLines,
  invoicesFiles,
  jobs,
  learningResources,
  missionBatches,
  missions,
  resourceViews,
  technicianMissionData,
  technicians,
  transfers,
} from '../../src/db/schema';
import { recruitApplication, finishApplication, saveMissionProgress } from '../../src/modules/lifecycle/lifecycle.service';
import { createAdmin, createTechnician, createTestContext, login, type TestContext } from '../helpers';
import { multipartBody, sampleFiles } from '../multipart';

/**
 * Races over real sockets: 50 parallel copies of the same request over 50 keep-alive connections, 20 rounds per
 * scenario. Exactly one effect per round, no duplicate rows, no 5xx. Meaningful on PostgreSQL (TEST_DATABASE_URL);
 * on PGlite the same scenarios run serialised and check the same invariants.
 */
// PGlite serialises every statement: a few rounds check the invariants; the 20 racing rounds run on PostgreSQL.
const ROUNDS = Number(process.env.RACE_ROUNDS ?? (process.env.TEST_DATABASE_URL ? 20 : 3));
const COPIES = 50;
let ctx: TestContext;
let base: string;
let agent: http.Agent;
let adminCookie: string;
const techs: { id: string; cookie: string }[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ CHARITY_IBAN: 'FR7630004000031234567890143', CHARITY_BIC: 'BNPAFRPPXXX' }, { poolSize: 10 });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  agent = new http.Agent({ keepAlive: true, maxSockets: COPIES });
  const admin = await createAdmin(ctx.db);
  adminCookie = await login(ctx.app, admin.email);
  const [resource] = await ctx.db.insert(learningResources).values({ title: 'R', description: 'd', url: 'https://r.test' }).returning();
  for (let i = 0; i < COPIES; i += 1) {
    const { technician } = await createTechnician(ctx.db, {
      formationCompleted: true,
      formationStatus: 'Formation complétée',
      iban: 'FR7630006000011234567890189',
    });
    await ctx.db.insert(resourceViews).values({ resourceId: resource!.id, technicianId: technician.id });
    techs.push({ id: technician.id, cookie: await login(ctx.app, technician.email) });
  }
}, 300_000);
afterAll(async () => {
  agent?.destroy();
  await ctx?.close();
});

interface Shot {
  method: string;
  path: string;
  cookie: string;
  json?: unknown;
  multipart?: { payload: Buffer; headers: Record<string, string> };
}

async function fire(shots: Shot[]): Promise<number[]> {
  return Promise.all(
    shots.map(async (shot) => {
      const headers: Record<string, string> = { cookie: shot.cookie, origin: base };
      let body: string | Buffer | undefined;
      if (shot.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(shot.json);
      } else if (shot.multipart) {
        Object.assign(headers, shot.multipart.headers);
        body = shot.multipart.payload;
      }
      return new Promise<number>((resolve, reject) => {
        const request = http.request(`${base}${shot.path}`, { method: shot.method, headers, agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', reject);
        request.end(body);
      });
    }),
  );
}

async function lotWithMissions(n = 2, visible = true) {
  const [lot] = await ctx.db.insert(missionBatches).values({ title: `Course ${crypto.randomUUID().slice(0, 6)}`, priceCents: 40_000, visibility: visible ? 'visible' : 'invisible' }).returning();
  const rows = await ctx.db
    .insert(missions)
    .values(Array.from({ length: n }, (_, i) => ({ title: `M${i}`, batchId: lot!.id, status: 'active' })))
    .returning();
  return { lotId: lot!.id, missionIds: rows.map((m) => m.id) };
}

const successes = (statuses: number[]) => statuses.filter((s) => s >= 200 && s < 300).length;
const serverErrors = (statuses: number[]) => statuses.filter((s) => s >= 500);

describe(`races (${COPIES} parallel copies × ${ROUNDS} rounds)`, () => {
  it('apply to a lot: one application per technician and lot', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { lotId } = await lotWithMissions();
      const tech = techs[round % techs.length]!;
      const statuses = await fire(
        Array.from({ length: COPIES }, () => ({ method: 'POST', path: '/api/applications/batch', cookie: tech.cookie, json: { batchId: lotId, technicianId: tech.id, status: 'En attente' } })),
      );
      expect(serverErrors(statuses)).toEqual([]);
      expect(successes(statuses)).toBe(1);
      const [rows] = await ctx.db.select({ n: count() }).from(applications).where(eq(applications.batchId, lotId));
      expect(rows!.n).toBe(1);
    }
  }, 300_000);

  it('select a technician: one recruit per lot', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { lotId } = await lotWithMissions();
      const apps = await ctx.db
        .insert(applications)
        .values(techs.map((t) => ({ batchId: lotId, technicianId: t.id })))
        .returning({ id: applications.id });
      const statuses = await fire(apps.map((a) => ({ method: 'PATCH', path: `/api/applications/${a.id}/status`, cookie: adminCookie, json: { status: 'Recruté' } })));
      expect(serverErrors(statuses)).toEqual([]);
      expect(successes(statuses)).toBe(1);
      const [rows] = await ctx.db.select({ n: count() }).from(applications).where(and(eq(applications.batchId, lotId), eq(applications.status, 'Recruté')));
      expect(rows!.n).toBe(1);
      const invoiceRows = await ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from invoices where batch_id = ${lotId}`);
      expect(invoiceRows.rows[0]!.n).toBe(1);
    }
  }, 300_000);

  async function finishedLotFor(tech: { id: string }) {
    const { lotId, missionIds } = await lotWithMissions(2);
    const [application] = await ctx.db.insert(applications).values({ batchId: lotId, technicianId: tech.id }).returning();
    await ctx.db.transaction(async (tx) => {
      await recruitApplication(tx, { applicationId: application!.id });
      for (const missionId of missionIds) await saveMissionProgress(tx, { missionId, technicianId: tech.id, patch: { isCompleted: true } });
      await finishApplication(tx, { applicationId: application!.id, force: false });
    });
    const result = await ctx.db.execute<{ id: string }>(sql`select id from invoices where batch_id = ${lotId}`);
    return result.rows[0]!.id;
  }

  it('submit an invoice: one transfer, one file', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const tech = techs[round % techs.length]!;
      const invoiceId = await finishedLotFor(tech);
      const reference = `FAC-${round}-${crypto.randomUUID().slice(0, 4)}`;
      const statuses = await fire(
        Array.from({ length: COPIES }, () => ({
          method: 'POST',
          path: `/api/invoice/${invoiceId}/submit`,
          cookie: tech.cookie,
          multipart: multipartBody({ reference, amount_certified: '400' }, { invoice_file: { fileName: 'f.pdf', content: sampleFiles.pdf(), contentType: 'application/pdf' } }),
        })),
      );
      expect(serverErrors(statuses)).toEqual([]);
      expect(successes(statuses)).toBeGreaterThanOrEqual(1);
      const [t] = await ctx.db.select({ n: count() }).from(transfers).where(eq(transfers.invoiceId, invoiceId));
      const [f] = await ctx.db.select({ n: count() }).from(invoicesFiles).where(eq(invoicesFiles.invoiceId, invoiceId));
      expect(t!.n).toBe(1);
      expect(f!.n).toBe(1);
    }
  }, 300_000);

  it('mark a transfer paid: earnings added exactly once', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const tech = techs[(round + 7) % techs.length]!;
      const invoiceId = await finishedLotFor(tech);
      const submit = await fire([
        {
          method: 'POST',
          path: `/api/invoice/${invoiceId}/submit`,
          cookie: tech.cookie,
          multipart: multipartBody({ reference: `PAY-${round}`, amount_certified: '400' }, { invoice_file: { fileName: 'f.pdf', content: sampleFiles.pdf() } }),
        },
      ]);
      expect(successes(submit)).toBe(1);
      const [before] = await ctx.db.select({ cents: technicians.totalEarningsCents }).from(technicians).where(eq(technicians.id, tech.id));
      const statuses = await fire(Array.from({ length: COPIES }, () => ({ method: 'PATCH', path: '/api/transfers/status', cookie: adminCookie, json: { invoiceId, status: 'Effectué' } })));
      expect(serverErrors(statuses)).toEqual([]);
      const [after] = await ctx.db.select({ cents: technicians.totalEarningsCents }).from(technicians).where(eq(technicians.id, tech.id));
      expect(after!.cents - before!.cents).toBe(40_000);
      const paid = await ctx.db.select().from(transfers).where(and(eq(transfers.invoiceId, invoiceId), eq(transfers.status, 'Effectué')));
      expect(paid).toHaveLength(1);
    }
  }, 300_000);

  it('mark a SEPA payout batch paid: every transfer paid once, earnings added once', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const paidTechs = [techs[(round + 21) % techs.length]!, techs[(round + 22) % techs.length]!];
      const invoiceIds: string[] = [];
      for (const [i, tech] of paidTechs.entries()) {
        const invoiceId = await finishedLotFor(tech);
        const submit = await fire([
          {
            method: 'POST',
            path: `/api/invoice/${invoiceId}/submit`,
            cookie: tech.cookie,
            multipart: multipartBody({ reference: `SEPA-${round}-${i}-${crypto.randomUUID().slice(0, 4)}`, amount_certified: '400' }, { invoice_file: { fileName: 'f.pdf', content: sampleFiles.pdf() } }),
          },
        ]);
        expect(successes(submit)).toBe(1);
        invoiceIds.push(invoiceId);
      }
      const ids = (await ctx.db.select({ id: transfers.id }).from(transfers).where(and(inArray(transfers.invoiceId, invoiceIds), eq(transfers.status, 'Enregistré')))).map((t) => t.id);
      // 50 "create" requests with the same selection: one batch.
      const created = await fire(Array.from({ length: COPIES }, () => ({ method: 'POST', path: '/api/payout-batches', cookie: adminCookie, json: { transferIds: ids } })));
      expect(serverErrors(created)).toEqual([]);
      const batches = await ctx.db.selectDistinct({ id: payoutBatchLines.batchId }).from(payoutBatchLines).where(inArray(payoutBatchLines.transferId, ids));
      expect(batches).toHaveLength(1);
      const before = await ctx.db.select({ id: technicians.id, cents: technicians.totalEarningsCents }).from(technicians).where(inArray(technicians.id, paidTechs.map((t) => t.id)));
      const statuses = await fire(Array.from({ length: COPIES }, () => ({ method: 'POST', path: `/api/payout-batches/${batches[0]!.id}/pay`, cookie: adminCookie, json: {} })));
      expect(serverErrors(statuses)).toEqual([]);
      expect(successes(statuses)).toBe(COPIES);
      const after = await ctx.db.select({ id: technicians.id, cents: technicians.totalEarningsCents }).from(technicians).where(inArray(technicians.id, paidTechs.map((t) => t.id)));
      for (const row of after) expect(row.cents - before.find((b) => b.id === row.id)!.cents).toBe(40_000);
      const paid = await ctx.db.select({ id: transfers.id }).from(transfers).where(and(inArray(transfers.id, ids), eq(transfers.status, 'Effectué')));
      expect(paid).toHaveLength(2);
      const [audits] = await ctx.db.select({ n: count() }).from(auditLog).where(and(eq(auditLog.action, 'payout-batch.pay'), eq(auditLog.entityId, batches[0]!.id)));
      expect(audits!.n).toBe(1);
    }
  }, 300_000);

  it('toggle a device: one progress record, figures consistent', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const tech = techs[(round + 13) % techs.length]!;
      const { lotId, missionIds } = await lotWithMissions(3);
      const [application] = await ctx.db.insert(applications).values({ batchId: lotId, technicianId: tech.id }).returning();
      await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
      const missionId = missionIds[0]!;
      const statuses = await fire(
        Array.from({ length: COPIES }, (_, i) => ({ method: 'PATCH', path: `/api/technician-mission-data/${missionId}/${tech.id}`, cookie: tech.cookie, json: { isCompleted: i % 2 === 0 } })),
      );
      expect(serverErrors(statuses)).toEqual([]);
      const records = await ctx.db.select().from(technicianMissionData).where(and(eq(technicianMissionData.missionId, missionId), eq(technicianMissionData.technicianId, tech.id)));
      expect(records).toHaveLength(1);
      const [lot] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lotId));
      expect(lot!.defibrillatorsDone).toBe(records[0]!.isCompleted ? 1 : 0);
    }
  }, 300_000);

  it('validate a visit: one mission, job gone', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const serial = `RACE-${round}-${crypto.randomUUID().slice(0, 6)}`;
      const [job] = await ctx.db
        .insert(jobs)
        .values({ serialNumber: serial, clientName: 'Client', defibrillatorModel: 'Zoll - AED Plus', visitType: 'Maintenance', department: '75', completionLink: 'https://c.test', address: '1 rue de Rivoli, 75001 Paris' })
        .returning();
      const statuses = await fire(Array.from({ length: COPIES }, () => ({ method: 'POST', path: `/api/jobs/${job!.id}/validate`, cookie: adminCookie, json: {} })));
      expect(serverErrors(statuses)).toEqual([]);
      expect(successes(statuses)).toBe(1);
      const [m] = await ctx.db.select({ n: count() }).from(missions).where(eq(missions.serialNumber, serial));
      expect(m!.n).toBe(1);
      const [j] = await ctx.db.select({ n: count() }).from(jobs).where(eq(jobs.id, job!.id));
      expect(j!.n).toBe(0);
    }
  }, 300_000);
});
