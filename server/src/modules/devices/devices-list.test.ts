import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDaysToDay, parisDay } from '@maillon/common/device-rules';
import { devices, missions } from '../../db/schema';
import { rowsOf } from '../../lib/change-feed/triggers';
import { likePattern, TOTAL_CAP } from '../../lib/pagination';
import { type as, type TestContext, withAdminApp } from '../../../test/helpers';
import { attentionLimitDay, getDevice } from './devices.service';
import { expectSearchPages } from '../../../test/search-pages';
import { expectPageAsRead } from '../../../test/page-json';
import { deviceListItemSchema } from '@maillon/common/schemas/devices';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
withAdminApp((app) => ({ ctx, admin } = app));

const day = (days: number) => addDaysToDay(parisDay(), days);
const nextDue = sql.raw(`least(battery_expiry, adult_pads_expiry, case when pediatric_pads_present then pediatric_pads_expiry end, next_maintenance_due)`);
/** The search before decision 031: the whole search given to LIKE over the searched text. */
const plainSearch = (search: string) => sql`lower(
  coalesce(serial_number, '') || ' ' || coalesce(serial_key, '') || ' ' || coalesce(site_name, '') || ' ' || coalesce(address, '') || ' ' ||
  coalesce(postal_code, '') || ' ' || coalesce(city, '') || ' ' || coalesce(manufacturer, '') || ' ' || coalesce(model, '') || ' ' ||
  coalesce(operator_name, '')) like ${likePattern(search.toLowerCase())}`;

async function expectedIds(where = sql`true`): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(await ctx.db.execute(sql`select id from devices where ${where} order by ${nextDue} asc nulls last, serial_key asc`));
  return rows.map((r) => r.id);
}

describe('GET /api/devices: the page built by PostgreSQL (decisions 031, 049)', () => {
  it('answers each device as the single-device read does, with its visits, in order, with the totals of the table', async () => {
    const values = [];
    for (let n = 0; n < 40; n += 1) {
      values.push({
        serialNumber: `SN-B-${(n * 7919) % 2000}`,
        serialKey: `SNB${(n * 7919) % 2000}-${n}`,
        siteName: n % 3 ? `Site ${n} « salle » "A"` : null,
        city: n % 2 ? 'Lille' : 'Saint-Étienne',
        postalCode: n % 2 ? '59000' : '42000',
        model: n % 4 ? 'Zoll - AED Plus' : 'Defibtech Lifeline',
        latitude: n % 5 ? 50 + n / 7 : null,
        longitude: n % 5 ? 3 + n / 9 : null,
        functionalState: n % 9 === 0 ? 'Hors service' : n % 11 === 0 ? 'Supprimé définitivement' : 'En fonctionnement',
        batteryExpiry: n % 6 ? day(n * 13 - 60) : null,
        adultPadsExpiry: n % 7 ? day(n * 17 - 40) : null,
        pediatricPadsPresent: n % 8 === 0,
        pediatricPadsExpiry: n % 4 === 0 ? day(n - 10) : null,
        nextMaintenanceDue: n % 10 ? day(200 - n) : null,
        // Ties on the soonest date, kept apart by the serial key.
        ...(n % 13 === 0 ? { batteryExpiry: day(5), adultPadsExpiry: null, nextMaintenanceDue: null, pediatricPadsPresent: false } : {}),
        createdAt: sql`${`2026-01-01 00:00:${String(n).padStart(2, '0')}.123999+00`}::timestamptz` as unknown as Date,
      });
    }
    const made = await ctx.db.insert(devices).values(values).returning({ id: devices.id });
    await ctx.db.insert(missions).values([
      { title: 'Visite 1', deviceId: made[0]!.id },
      { title: 'Visite 2', deviceId: made[0]!.id },
      { title: 'Visite 3', deviceId: made[5]!.id },
    ]);
    const visits = async (id: string) => Number(rowsOf<{ n: number }>(await ctx.db.execute(sql`select count(*)::int as n from missions where device_id = ${id}`))[0]!.n);

    const response = await admin({ method: 'GET', url: '/api/devices?limit=100' });
    expect(response.statusCode).toBe(200);
    const order = await expectedIds();
    expect(response.json()).toEqual(
      await Promise.all(order.map(async (id) => ({ ...(await getDevice(ctx.db, id)), visitCount: await visits(id), withoutReportCount: 0 }))),
    );
    await expectPageAsRead(response.json(), deviceListItemSchema, async (id) => ({ ...(await getDevice(ctx.db, id)), visitCount: await visits(id), withoutReportCount: 0 }));
    expect(response.headers['x-total-count']).toBe(String(order.length));

    const limitDay = attentionLimitDay();
    const attention = sql`(functional_state = 'Hors service' or (functional_state <> 'Supprimé définitivement' and ${nextDue} <= ${limitDay}::date))`;
    const cases: [string, ReturnType<typeof sql>][] = [
      ['', sql`true`],
      ['attention=true', attention],
      ['state=Hors%20service', sql`functional_state = 'Hors service'`],
      ['due=30&dueSubject=battery', sql`battery_expiry <= ${day(30)}::date`],
      ['search=SN-B-1', plainSearch('SN-B-1')],
      ['search=sn-b-123', plainSearch('sn-b-123')],
      ['search=site%201', plainSearch('site 1')],
      ['search=Saint-%C3%89tienne%2042', plainSearch('Saint-Étienne 42')],
      ['search=42000%20saint', plainSearch('42000 saint')],
      ['search=zoll&attention=true', sql`${plainSearch('zoll')} and ${attention}`],
    ];
    for (const [query, where] of cases) {
      const all = await expectedIds(where);
      for (const [limit, offset] of [[100, 0], [1, 0], [3, 2], [2, 60]] as const) {
        const page = await admin({ method: 'GET', url: `/api/devices?${query}&limit=${limit}&offset=${offset}` });
        expect(page.statusCode, query).toBe(200);
        expect(page.json().map((d: { id: string }) => d.id), `${query} ${limit} ${offset}`).toEqual(all.slice(offset, offset + limit));
        expect(page.headers['x-total-count'], `${query} ${limit} ${offset}`).toBe(String(all.length));
        expect(page.headers['x-total-capped'], `${query} ${limit} ${offset}`).toBeUndefined();
      }
    }
  });

  it('counts a search up to 1 000 devices, and past that walks the order and says « more » (decision 042)', async () => {
    const many = TOTAL_CAP + 80;
    await ctx.db.insert(devices).values(
      Array.from({ length: many }, (_, n) => ({
        serialNumber: `LYO-${n}`,
        serialKey: `LYO${String(n).padStart(5, '0')}`,
        city: 'Lyon',
        postalCode: '69003',
        functionalState: n % 17 === 0 ? 'Hors service' : 'En fonctionnement',
        // Many ties on the soonest date, some without any date (last).
        batteryExpiry: n % 9 ? day((n * 37) % 400 - 100) : null,
        nextMaintenanceDue: n % 5 ? day((n * 11) % 300) : null,
      })),
    );
    const cases: [string, ReturnType<typeof sql>, boolean][] = [
      // Words only (a plain pattern), digits (the trigram fragment), a filter beside the search, and a search that
      // finds fewer than the cap: its total stays exact.
      ['search=lyon', plainSearch('lyon'), true],
      ['search=69003', plainSearch('69003'), true],
      ['search=lyo&state=En%20fonctionnement', sql`${plainSearch('lyo')} and functional_state = 'En fonctionnement'`, true],
      ['search=lyo-1', plainSearch('lyo-1'), false],
    ];
    for (const [query, where, pastCap] of cases) {
      const all = await expectedIds(where);
      expect(all.length > TOTAL_CAP, query).toBe(pastCap);
      await expectSearchPages((url) => admin({ method: 'GET', url }), `/api/devices?${query}`, all, [[20, 0], [7, 993], [100, all.length - 40], [20, all.length - 5], [20, all.length + 10]]);
    }
    // Both statements of a search (past the cap, under it) send the single-device read's objects (no visits here).
    for (const url of ['/api/devices?search=lyon&limit=5', '/api/devices?search=lyo-1&limit=5']) {
      await expectPageAsRead((await admin({ method: 'GET', url })).json(), deviceListItemSchema, async (id) => ({ ...(await getDevice(ctx.db, id)), visitCount: 0, withoutReportCount: 0 }), url);
    }
  });
});
