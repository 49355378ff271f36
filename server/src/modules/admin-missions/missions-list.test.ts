import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { missionSchema } from '@maillon/common/schemas/admin-missions';
import { missionBatches, missions } from '../../db/schema';
import { rowsOf } from '../../lib/change-feed/triggers';
import { likePattern, TOTAL_CAP } from '../../lib/pagination';
import { type as, type TestContext, withAdminApp } from '../../../test/helpers';
import { getMission } from './missions.service';
import { indexedFragment } from '../../lib/substring-search';
import { expectSearchPages } from '../../../test/search-pages';
import { expectPageAsRead } from '../../../test/page-json';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
withAdminApp((app) => ({ ctx, admin } = app));

const ids = (body: { id: string }[]) => body.map((m) => m.id);

/** The missions in the list's order (most recent first, then id), as a plain query over the table. */
async function expectedIds(where = sql`true`): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(await ctx.db.execute(sql`select id from missions where ${where} order by created_at desc, id desc`));
  return rows.map((r) => r.id);
}

/** The search before decision 031: the whole search given to LIKE over the searched text (no index trick). */
const plainSearch = (search: string) => sql`lower(
  coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(location, '') || ' ' || coalesce(department, '') || ' ' ||
  coalesce(serial_number, '') || ' ' || coalesce(defibrillator_model, '') || ' ' || coalesce(visit_type, '') || ' ' ||
  coalesce(observations, '') || ' ' || coalesce(client_name, '')) like ${likePattern(search.toLowerCase())}`;

describe('GET /api/missions: the page built by PostgreSQL (decisions 031, 049)', () => {
  it('answers each mission as the single-mission read does, in the list order, with the total of the table', async () => {
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot « spécial » \\ "guillemets"', priceCents: 1 }).returning();
    const made = await ctx.db
      .insert(missions)
      .values([
        {
          title: 'Tout rempli',
          description: 'Ligne 1\nLigne 2 \t "citée" \\ antislash 😀',
          location: '12 rue de l’Église, 75011 Paris',
          department: '2A',
          budgetCents: 12_345,
          deadline: new Date('2027-03-01T18:00:00.000Z'),
          tags: ['urgent', 'a,b', '"q"', 'é ç', ''],
          status: 'active',
          batchId: lot!.id,
          serialNumber: 'SN-1',
          clientName: 'Client',
          defibrillatorModel: 'Zoll - AED 3',
          visitType: 'Maintenance',
          telSite: '01 23 45 67 89',
          emailSite: 'site@example.org',
          completionLink: 'https://example.org/f?a=1&b=2',
          observations: 'RAS',
          postalCode: '75011',
          city: 'Paris',
          latitude: 48 + 1 / 3,
          longitude: -Math.PI / 100,
          createdAt: sql`'2026-01-02 03:04:05.678999+00'::timestamptz` as unknown as Date,
        },
        { title: 'Presque vide', budgetCents: 1, createdAt: sql`'2026-01-02 03:04:05.000001+00'::timestamptz` as unknown as Date },
        { title: 'Même instant A', budgetCents: 10, status: 'completed', createdAt: new Date('2025-12-31T23:59:59.999Z') },
        { title: 'Même instant B', budgetCents: 199_999, status: 'cancelled', createdAt: new Date('2025-12-31T23:59:59.999Z') },
      ])
      .returning({ id: missions.id });
    expect(made).toHaveLength(4);
    const response = await admin({ method: 'GET', url: '/api/missions?limit=100' });
    expect(response.statusCode).toBe(200);
    const order = await expectedIds();
    expect(ids(response.json())).toEqual(order);
    expect(response.json()).toEqual(await Promise.all(order.map((id) => getMission(ctx.db, id))));
    await expectPageAsRead(response.json(), missionSchema, (id) => getMission(ctx.db, id));
    expect(response.headers['x-total-count']).toBe(String(order.length));
    expect(response.json()[0]).toMatchObject({ createdAt: '2026-01-02T03:04:05.678Z', budget: 123.45, deadline: '2027-03-01T18:00:00.000Z' });

    // Pages, each filter, and a page past the end: the same missions as the query, the total as count(*).
    const cases: [string, ReturnType<typeof sql>][] = [
      ['', sql`true`],
      [`batchId=${lot!.id}`, sql`batch_id = ${lot!.id}`],
      ['unbatched=true', sql`batch_id is null and status in ('draft', 'active')`],
      ['status=completed', sql`status = 'completed'`],
      ['status=active&unbatched=true', sql`status = 'active' and batch_id is null`],
    ];
    for (const [query, where] of cases) {
      const all = await expectedIds(where);
      for (const [limit, offset] of [[1, 0], [2, 1], [3, 3], [2, 10]] as const) {
        const page = await admin({ method: 'GET', url: `/api/missions?${query}&limit=${limit}&offset=${offset}` });
        expect(ids(page.json()), `${query} ${limit} ${offset}`).toEqual(all.slice(offset, offset + limit));
        expect(page.headers['x-total-count'], `${query} ${limit} ${offset}`).toBe(String(all.length));
      }
    }
  });

  it('finds by search exactly the missions a plain LIKE over the searched text finds', async () => {
    const values = [];
    for (let n = 0; n < 120; n += 1) {
      const site = (n * 7919) % 3000;
      values.push({
        title: `Maintenance - Site ${site}`,
        description: n % 3 === 0 ? 'Visite de maintenance' : `Contrôle ${n % 11} annuel`,
        location: `${site} rue de la République, 67000 Strasbourg`,
        department: n % 2 ? '67' : '2B',
        serialNumber: `SN-B-${site}`,
        defibrillatorModel: n % 4 ? 'Zoll - AED Plus' : 'Mindray - BeneHeart C1A',
        visitType: 'Maintenance',
        observations: n % 5 ? null : `Site 1${site} 100% vu_ici \\ fin`,
        clientName: `Client ${site}`,
        createdAt: new Date(Date.UTC(2026, 0, 1) + (n % 40) * 60_000),
      });
    }
    await ctx.db.insert(missions).values(values);
    const searches = [
      'Site 1234', 'site 12', 'Site 1', 'SN-B-1', 'sn-b-123', '2 rue de la', 'République, 67000', 'client 4', 'CLIENT 47', '1 2',
      'e 1', 'Strasbourg', '67000 strasbourg', 'zoll - aed', 'Contrôle 3 annuel', '100%', '100% vu', 'vu_ici', '_', '%', '\\ fin',
      's 1', '2b', 'maintenance - site 2', 'Site 21 ', 'beneheart c1a', '00', 'zz 999',
    ];
    for (const search of searches) {
      const all = await expectedIds(plainSearch(search));
      const response = await admin({ method: 'GET', url: `/api/missions?limit=100&search=${encodeURIComponent(search)}` });
      expect(response.statusCode, search).toBe(200);
      // The API trims the search (its query schema) before it reaches the list.
      const trimmed = search.trim() === search ? all : await expectedIds(plainSearch(search.trim()));
      expect(ids(response.json()), search).toEqual(trimmed.slice(0, 100));
      expect(response.headers['x-total-count'], search).toBe(String(trimmed.length));
      const page = await admin({ method: 'GET', url: `/api/missions?limit=3&offset=2&search=${encodeURIComponent(search)}&status=active` });
      const active = await expectedIds(sql`${plainSearch(search.trim())} and status = 'active'`);
      expect(ids(page.json()), `${search} (page, active)`).toEqual(active.slice(2, 5));
      expect(page.headers['x-total-count'], `${search} (page, active)`).toBe(String(active.length));
    }
  });
});

describe('GET /api/missions: a search past 1 000 missions (decision 042)', () => {
  it('counts up to 1 000, then walks the list order with the search and says « more »', async () => {
    const [lot] = await ctx.db.insert(missionBatches).values({ title: 'Lot du plafond' }).returning();
    await ctx.db.insert(missions).values(
      Array.from({ length: TOTAL_CAP + 60 }, (_, n) => ({
        title: `Maintenance annuelle ${n}`,
        location: `${n} avenue Foch, 69006 Lyon`,
        status: n % 4 ? ('active' as const) : ('draft' as const),
        batchId: n % 10 ? null : lot!.id,
        // Ties on the creation time, kept apart by the id.
        createdAt: new Date(Date.UTC(2026, 0, 1) + (n % 300) * 60_000),
      })),
    );
    const unsorted = sql`batch_id is null and status in ('draft', 'active')`;
    const cases: [string, ReturnType<typeof sql>, boolean][] = [
      ['search=maintenance', plainSearch('maintenance'), true],
      ['search=69006', plainSearch('69006'), true],
      // « À trier », as the missions tab asks for it: 954 of them, under the cap.
      ['search=annuelle&unbatched=true', sql`${plainSearch('annuelle')} and ${unsorted}`, false],
      ['search=annuelle&status=active', sql`${plainSearch('annuelle')} and status = 'active'`, false],
      ['search=foch&unbatched=true&status=active', sql`${plainSearch('foch')} and batch_id is null and status = 'active'`, false],
      ['search=annuelle%201', plainSearch('annuelle 1'), false],
    ];
    for (const [query, where, pastCap] of cases) {
      const all = await expectedIds(where);
      expect(all.length > TOTAL_CAP, query).toBe(pastCap);
      await expectSearchPages((url) => admin({ method: 'GET', url }), `/api/missions?${query}`, all, [[50, 0], [9, 995], [100, all.length - 30], [20, all.length + 5]]);
    }
    // Both statements of a search (past the cap, under it) send the single-mission read's objects, the schema's keys only.
    for (const url of ['/api/missions?search=maintenance&limit=5', '/api/missions?search=annuelle%201&limit=5']) {
      await expectPageAsRead((await admin({ method: 'GET', url })).json(), missionSchema, (id) => getMission(ctx.db, id), url);
    }
  });
});

describe('indexedFragment', () => {
  it('gives the index the longest run holding a digit, else the whole search', () => {
    expect(indexedFragment('site 1234')).toBe('1234');
    expect(indexedFragment('sn-b-1234')).toBe('1234');
    expect(indexedFragment('a1b2 12345 rue')).toBe('12345');
    expect(indexedFragment('rue 12 345')).toBe('345');
    expect(indexedFragment('sn-b-12')).toBeNull();
    expect(indexedFragment('strasbourg')).toBeNull();
    expect(indexedFragment('république 67000')).toBe('67000');
    expect(indexedFragment('100%')).toBe('100');
  });
});
