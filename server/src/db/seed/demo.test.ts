import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { addDaysToDay, isValidSiren, parisDay } from '@maillon/common/device-rules';
import { applications, devices, missions, technicians, visitReports } from '../schema';
import { as, createTestContext, login, type TestContext } from '../../../test/helpers';
import { readPdf } from '../../../test/pdf';
import { DEMO_ADMIN, DEMO_TECHNICIAN, seedDemoIfEmpty } from './demo';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  const seeded = await seedDemoIfEmpty(ctx.db, { storage: ctx.app.storage, config: ctx.app.config });
  expect(seeded?.technicianEmail).toBe(DEMO_TECHNICIAN.email);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('demo device registry', () => {
  it('gives every demo mission with a serial number its device', async () => {
    const unlinked = await ctx.db.select({ id: missions.id }).from(missions).where(and(isNotNull(missions.serialNumber), isNull(missions.deviceId)));
    expect(unlinked).toEqual([]);
  });

  it('spreads states and dates around today, with valid SIRENs and a few incomplete devices', async () => {
    const rows = await ctx.db.select().from(devices);
    expect(rows.length).toBeGreaterThanOrEqual(50);
    const today = parisDay();
    const soon = addDaysToDay(today, 30);
    const battery = rows.map((d) => d.batteryExpiry!);
    expect(battery.filter((d) => d < today).length).toBeGreaterThan(0);
    expect(battery.filter((d) => d >= today && d <= soon).length).toBeGreaterThan(0);
    expect(battery.filter((d) => d > addDaysToDay(today, 180)).length).toBeGreaterThan(rows.length / 3);
    expect(rows.filter((d) => d.nextMaintenanceDue! < today).length).toBeGreaterThan(0);
    const states = new Set(rows.map((d) => d.functionalState));
    for (const state of ['En fonctionnement', 'Hors service', 'Absent momentanément']) expect(states).toContain(state);
    for (const device of rows.filter((d) => d.operatorSiren)) expect(isValidSiren(device.operatorSiren!), device.operatorSiren!).toBe(true);
    expect(rows.filter((d) => !d.operatorName).length).toBeGreaterThan(0);
  });

  it('has a past visit of the demo technician with a complete report and its PV', async () => {
    const [tech] = await ctx.db.select({ id: technicians.id }).from(technicians).where(eq(technicians.email, DEMO_TECHNICIAN.email));
    const [report] = await ctx.db.select().from(visitReports).where(eq(visitReports.technicianId, tech!.id));
    expect(report).toMatchObject({ version: 1, outcome: 'En fonctionnement' });
    expect(report!.visitedAt!.getTime()).toBeLessThan(Date.now());
    const [recruited] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(missions)
      .innerJoin(applications, and(eq(applications.batchId, missions.batchId), eq(applications.technicianId, tech!.id), eq(applications.status, 'Recruté')))
      .where(isNotNull(missions.deviceId));
    expect(recruited!.n).toBe(8);

    const cookie = await login(ctx.app, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const pdf = await as(ctx.app, cookie)({ method: 'GET', url: `/api/visit-reports/${report!.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    const text = (await readPdf(pdf.rawPayload)).pages.join('\n');
    expect(text).toContain('Karim Haddad, responsable du site');
    expect(text).toContain(`Empreinte SHA-256 du rapport : ${report!.fingerprint}`);
    const counts = await as(ctx.app, cookie)({ method: 'GET', url: '/api/admin/counts' });
    expect(counts.json().parcDae).toBeGreaterThan(0);
  });
});
