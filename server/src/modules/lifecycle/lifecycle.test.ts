import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { applications, invoices, missionBatches, missions, shipments, technicians } from '../../db/schema';
import { createTechnician, createTestContext, type TestContext } from '../../../test/helpers';
import { cancelApplication, completeBatch, finishApplication, proRataCents, recomputeBatchFigures, recruitApplication, saveMissionProgress } from './lifecycle.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

async function lotWithMissions(count: number, priceCents = 100_000) {
  const [lot] = await ctx.db.insert(missionBatches).values({ title: `Lot ${count}`, priceCents, visibility: 'visible' }).returning();
  const rows = await ctx.db
    .insert(missions)
    .values(Array.from({ length: count }, (_, i) => ({ title: `M${i}`, batchId: lot!.id, status: 'active' })))
    .returning();
  return { lot: lot!, missionIds: rows.map((m) => m.id) };
}

describe('lifecycle', () => {
  it('recruits, tracks progress pro rata and finishes with the leftovers moved to the system lot', async () => {
    const { technician } = await createTechnician(ctx.db);
    const { lot, missionIds } = await lotWithMissions(3, 100_000);
    const [application] = await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: technician.id }).returning();
    await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));

    const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lot.id));
    expect(invoice).toMatchObject({ status: 'Mission à terminer', initialAmountCents: 100_000, validatedAmountCents: 0, progression: '0/3' });

    await ctx.db.transaction((tx) => saveMissionProgress(tx, { missionId: missionIds[0]!, technicianId: technician.id, patch: { isCompleted: true } }));
    await ctx.db.transaction((tx) => saveMissionProgress(tx, { missionId: missionIds[1]!, technicianId: technician.id, patch: { isCompleted: true } }));
    const [afterTwo] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lot.id));
    expect(afterTwo).toMatchObject({ validatedAmountCents: 66_667, progression: '2/3' });
    const [figures] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lot.id));
    expect(figures).toMatchObject({ defibrillatorsSum: 3, defibrillatorsDone: 2, amountPerDefibCents: 33_333 });

    await expect(ctx.db.transaction((tx) => finishApplication(tx, { applicationId: application!.id, force: false }))).rejects.toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    await ctx.db.transaction((tx) => finishApplication(tx, { applicationId: application!.id, force: true }));
    // Idempotent: a second finish changes nothing.
    await ctx.db.transaction((tx) => finishApplication(tx, { applicationId: application!.id, force: true }));

    const [finalInvoice] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lot.id));
    expect(finalInvoice).toMatchObject({ status: 'Facture à soumettre', validatedAmountCents: 66_667, progression: '2/3' });
    const [left] = await ctx.db.select().from(missions).where(eq(missions.id, missionIds[2]!));
    const [system] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.isSystem, true));
    expect(left).toMatchObject({ status: 'cancelled', batchId: system!.id });
    const [done] = await ctx.db.select().from(missions).where(eq(missions.id, missionIds[0]!));
    expect(done!.status).toBe('completed');
    const [tech] = await ctx.db.select().from(technicians).where(eq(technicians.id, technician.id));
    expect(tech!.completedMissions).toBe(1);
    const [finishedLot] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lot.id));
    expect(finishedLot).toMatchObject({ status: 'completed', defibrillatorsSum: 3, defibrillatorsDone: 2 });
  });

  it('writes the figures and the open invoice as proRataCents computes them, halves rounded up, and keeps a completed lot frozen', async () => {
    // Prices whose shares end in exactly half a cent, and a lot of one cent: the statement's rounding must be JavaScript's.
    for (const [priceCents, count] of [[5, 2], [1, 2], [100_001, 4], [99_999, 7], [0, 3]] as const) {
      const { technician } = await createTechnician(ctx.db);
      const { lot, missionIds } = await lotWithMissions(count, priceCents);
      const [application] = await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: technician.id }).returning();
      await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
      for (let done = 1; done <= count; done += 1) {
        await ctx.db.transaction((tx) => saveMissionProgress(tx, { missionId: missionIds[done - 1]!, technicianId: technician.id, patch: { isCompleted: true } }));
        const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lot.id));
        expect(invoice).toMatchObject({
          status: 'Mission à terminer',
          validatedAmountCents: proRataCents(priceCents, done, count),
          progression: `${done}/${count}`,
          amountCents: priceCents,
          initialAmountCents: priceCents,
          batchPriceCents: priceCents,
        });
        const [row] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lot.id));
        expect(row).toMatchObject({ defibrillatorsSum: count, defibrillatorsDone: done, amountPerDefibCents: Math.round(priceCents / count) });
      }
      const answered = await ctx.db.transaction((tx) => recomputeBatchFigures(tx, lot.id, { geometry: false }));
      expect(answered).toEqual({ defibrillatorsSum: count, defibrillatorsDone: count, amountPerDefibCents: Math.round(priceCents / count) });
    }

    // A completed lot answers its frozen figures and neither it nor its invoice changes.
    const { technician } = await createTechnician(ctx.db);
    const { lot, missionIds } = await lotWithMissions(2, 1_000);
    const [application] = await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: technician.id }).returning();
    await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
    await ctx.db.transaction((tx) => saveMissionProgress(tx, { missionId: missionIds[0]!, technicianId: technician.id, patch: { isCompleted: true } }));
    await ctx.db.transaction((tx) => finishApplication(tx, { applicationId: application!.id, force: true }));
    const [lotBefore] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lot.id));
    const [invoiceBefore] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lot.id));
    const frozen = await ctx.db.transaction((tx) => recomputeBatchFigures(tx, lot.id, { geometry: false }));
    expect(frozen).toEqual({ defibrillatorsSum: 2, defibrillatorsDone: 1, amountPerDefibCents: 500 });
    const [lotAfter] = await ctx.db.select().from(missionBatches).where(eq(missionBatches.id, lot.id));
    const [invoiceAfter] = await ctx.db.select().from(invoices).where(eq(invoices.batchId, lot.id));
    expect(lotAfter).toEqual(lotBefore);
    expect(invoiceAfter).toEqual(invoiceBefore);
    expect(await ctx.db.transaction((tx) => recomputeBatchFigures(tx, '00000000-0000-4000-8000-000000000000'))).toBeNull();
  });

  it('allows one recruit per lot: the second selection answers "Déjà assigné"', async () => {
    const { technician: a } = await createTechnician(ctx.db);
    const { technician: b } = await createTechnician(ctx.db);
    const { lot } = await lotWithMissions(2);
    const [appA, appB] = await ctx.db
      .insert(applications)
      .values([
        { batchId: lot.id, technicianId: a.id },
        { batchId: lot.id, technicianId: b.id },
      ])
      .returning();
    await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: appA!.id }));
    await expect(ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: appB!.id }))).rejects.toMatchObject({
      code: 'ALREADY_ASSIGNED',
      message: 'Déjà assigné',
    });
    const [stillPending] = await ctx.db.select().from(applications).where(eq(applications.id, appB!.id));
    expect(stillPending!.status).toBe('En attente');
  });

  it('cancels a recruit while nothing is done, and blocks it once a parcel is shipped', async () => {
    const { technician } = await createTechnician(ctx.db);
    const { lot } = await lotWithMissions(2);
    const [application] = await ctx.db.insert(applications).values({ batchId: lot.id, technicianId: technician.id }).returning();
    await ctx.db.transaction((tx) => recruitApplication(tx, { applicationId: application!.id }));
    await ctx.db.insert(shipments).values({ batchId: lot.id, technicianId: technician.id, status: 'in_transit' });
    await expect(ctx.db.transaction((tx) => cancelApplication(tx, { applicationId: application!.id }))).rejects.toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    await ctx.db.update(shipments).set({ status: 'cancelled' }).where(eq(shipments.batchId, lot.id));
    await ctx.db.transaction((tx) => cancelApplication(tx, { applicationId: application!.id }));
    const [cancelled] = await ctx.db.select().from(applications).where(eq(applications.id, application!.id));
    expect(cancelled!.status).toBe('Annulé');
    const open = await ctx.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.batchId, lot.id), eq(invoices.technicianId, technician.id)));
    expect(open).toHaveLength(0);
  });

  it('completes a lot without a recruit, idempotently', async () => {
    const { lot } = await lotWithMissions(1);
    await ctx.db.transaction((tx) => completeBatch(tx, { batchId: lot.id }));
    const again = await ctx.db.transaction((tx) => completeBatch(tx, { batchId: lot.id }));
    expect(again.status).toBe('completed');
  });
});
