import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { missionBatches, shipments } from '../../db/schema';
import { rowsOf } from '../../lib/change-feed/triggers';
import { TOTAL_CAP } from '../../lib/pagination';
import { type as, createTechnician, type TestContext, withAdminApp } from '../../../test/helpers';
import { getShipmentView } from './admin-shipments.service';
import { expectSearchPages } from '../../../test/search-pages';
import { expectPageAsRead } from '../../../test/page-json';
import { shipmentSchema } from '@maillon/common/schemas/shipments';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
withAdminApp((app) => ({ ctx, admin } = app));

const at = (iso: string) => sql`${iso}::timestamptz` as unknown as Date;

describe('GET /api/shipments/admin: the page built by PostgreSQL (decisions 031, 049)', () => {
  it('answers each parcel as the single-parcel read does, in order, with the total of the table', async () => {
    const { technician: martin } = await createTechnician(ctx.db, { firstName: 'Jeanne', lastName: 'Martin' });
    const { technician: other } = await createTechnician(ctx.db, { firstName: 'Zoé', lastName: 'Ærø "x"' });
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot colis' }).returning({ id: missionBatches.id });
    await ctx.db.insert(shipments).values([
      {
        technicianId: martin.id, batchId: lot!.id, trackingNumber: '6A123', status: 'in_transit', shippedDate: at('2026-03-01 12:00:00.345678+00'),
        destination: 'Relais « Tabac »\nParis', destinationPostalCode: '75011', content: '2 batteries', missionTitle: 'Lot colis',
        createdAt: at('2026-03-02 10:00:00.999999+00'),
      },
      { technicianId: other.id, status: 'delivered', deliveredDate: at('2026-03-03 00:00:00+00'), createdAt: at('2026-03-01 00:00:00+00') },
      { technicianId: null, status: 'draft', createdAt: at('2026-03-01 00:00:00+00') },
      { technicianId: martin.id, status: 'cancelled', createdAt: at('2026-02-01 00:00:00+00') },
    ]);
    const expected = async (where = sql`true`) =>
      rowsOf<{ id: string }>(
        await ctx.db.execute(sql`select s.id from shipments s left join technicians t on t.id = s.technician_id where ${where} order by s.created_at desc, s.id desc`),
      ).map((r) => r.id);
    const order = await expected();
    const response = await admin({ method: 'GET', url: '/api/shipments/admin?limit=100' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(await Promise.all(order.map((id) => getShipmentView(ctx.db, id))));
    await expectPageAsRead(response.json(), shipmentSchema, (id) => getShipmentView(ctx.db, id));
    expect(response.headers['x-total-count']).toBe(String(order.length));
    expect(response.json()[0]).toMatchObject({ technicianName: 'Jeanne Martin', shippedDate: '2026-03-01T12:00:00.345Z', createdAt: '2026-03-02T10:00:00.999Z' });

    const cases: [string, ReturnType<typeof sql>][] = [
      ['', sql`true`],
      ['status=all', sql`true`],
      ['status=draft', sql`s.status = 'draft'`],
      ['status=in_transit', sql`s.status = 'in_transit'`],
      [`technicianId=${martin.id}`, sql`s.technician_id = ${martin.id}`],
      [`batchId=${lot!.id}&status=in_transit`, sql`s.batch_id = ${lot!.id} and s.status = 'in_transit'`],
      ['search=martin', sql`(t.first_name || ' ' || t.last_name) ilike '%martin%'`],
    ];
    for (const [query, where] of cases) {
      const all = await expected(where);
      for (const [limit, offset] of [[100, 0], [1, 0], [2, 1], [2, 30]] as const) {
        const page = await admin({ method: 'GET', url: `/api/shipments/admin?${query}&limit=${limit}&offset=${offset}` });
        expect(page.statusCode, query).toBe(200);
        expect(page.json().map((s: { id: string }) => s.id), `${query} ${limit} ${offset}`).toEqual(all.slice(offset, offset + limit));
        expect(page.headers['x-total-count'], `${query} ${limit} ${offset}`).toBe(String(all.length));
      }
    }
  });
});

describe('GET /api/shipments/admin: a search past 1 000 parcels (decision 042)', () => {
  it('counts up to 1 000 over its own text and its technician’s, then walks the order and says « more »', async () => {
    const { technician: capucine } = await createTechnician(ctx.db, { firstName: 'Capucine', lastName: 'Lefort' });
    const { technician: zoe } = await createTechnician(ctx.db, { firstName: 'Zoé', lastName: 'Roux' });
    // Capucine's 850 match « cap » by her name; of the 200 without a technician and Zoé's 150, one in two by its own text.
    const owners = [...Array<string | null>(850).fill(capucine.id), ...Array<string | null>(200).fill(null), ...Array<string | null>(150).fill(zoe.id)];
    await ctx.db.insert(shipments).values(
      owners.map((technicianId, n) => ({
        technicianId,
        status: n % 4 ? ('in_transit' as const) : ('delivered' as const),
        content: n >= 850 && n % 2 ? `Capteur ${n}` : `Batterie ${n}`,
        destination: `Relais ${n}`,
        createdAt: at(`2026-04-01 00:${String(Math.floor((n % 600) / 10)).padStart(2, '0')}:00+00`),
      })),
    );
    const own = sql`lower(coalesce(s.mission_title, '') || ' ' || coalesce(s.destination, '') || ' ' || coalesce(s.content, '') || ' ' || coalesce(s.tracking_number, ''))`;
    const its = sql`lower(coalesce(t.first_name, '') || ' ' || coalesce(t.last_name, '') || ' ' || coalesce(t.first_name, '') || ' ' || coalesce(t.email, '') || ' ' || coalesce(t.company_name, ''))`;
    const found = (needle: string) => sql`(${own} like ${`%${needle}%`} or coalesce(${its} like ${`%${needle}%`}, false))`;
    const expected = async (where: ReturnType<typeof sql>) =>
      rowsOf<{ id: string }>(
        await ctx.db.execute(sql`select s.id from shipments s left join technicians t on t.id = s.technician_id where ${where} order by s.created_at desc, s.id desc`),
      ).map((r) => r.id);
    const cases: [string, ReturnType<typeof sql>, boolean][] = [
      ['search=cap', found('cap'), true],
      ['search=relais', found('relais'), true],
      ['search=cap&status=in_transit', sql`${found('cap')} and s.status = 'in_transit'`, false],
      [`search=capteur`, found('capteur'), false],
      [`search=relais&technicianId=${zoe.id}`, sql`${found('relais')} and s.technician_id = ${zoe.id}`, false],
    ];
    for (const [query, where, pastCap] of cases) {
      const all = await expected(where);
      expect(all.length > TOTAL_CAP, query).toBe(pastCap);
      await expectSearchPages((url) => admin({ method: 'GET', url }), `/api/shipments/admin?${query}`, all, [[20, 0], [9, 995], [50, all.length - 20], [20, all.length + 5]]);
    }
    // Both statements of a search (past the cap, under it) send the single-parcel read's objects.
    for (const url of ['/api/shipments/admin?search=cap&limit=5', '/api/shipments/admin?search=capteur&limit=5']) {
      await expectPageAsRead((await admin({ method: 'GET', url })).json(), shipmentSchema, (id) => getShipmentView(ctx.db, id), url);
    }
  });
});

