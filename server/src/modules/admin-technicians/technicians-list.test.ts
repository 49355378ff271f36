import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { adminTechnicianSchema } from '@maillon/common/schemas/admin-technicians';
import { technicianSchema } from '@maillon/common/schemas/technicians';
import { technicians } from '../../db/schema';
import { rowsOf } from '../../lib/change-feed/triggers';
import { type as, countRows, createTechnician, type TestContext, withAdminApp } from '../../../test/helpers';
import { expectPageAsRead } from '../../../test/page-json';
import { toTechnician } from '../technicians/technicians.mapper';

let ctx: TestContext;
let admin: ReturnType<typeof as>;
withAdminApp((app) => ({ ctx, admin } = app));

const ids = (body: { id: string }[]) => body.map((t) => t.id);

describe('GET /api/technicians and /enhanced: the pages written by PostgreSQL (decisions 031, 050)', () => {
  it('answers each technician as toTechnician does, in each sub-tab order, with the total of the table', async () => {
    const at = (iso: string) => sql`${iso}::timestamptz` as unknown as Date;
    const made = [
      { firstName: 'Zoé', lastName: 'Ærø "x" \\ y', status: 'pending', iban: 'FR76 3000\u00a01000 0112 3456 7890 189', createdAt: at('2026-03-01 10:00:00.123999+00') },
      { firstName: 'Yann', lastName: 'Même', status: 'pending', iban: null, createdAt: at('2026-03-01 10:00:00+00') },
      { firstName: 'Xavier', lastName: 'Même', status: 'pending', createdAt: at('2026-03-01 10:00:00+00') },
      { firstName: 'Wanda', lastName: 'Active', status: 'active', departments: ['2A', '59', '75'], companyName: 'Secours', siret: '123', createdAt: at('2026-02-01 00:00:00+00') },
      { firstName: 'Victor', lastName: 'Active', status: 'active', identityDocumentFileId: null, totalEarningsCents: 123_456, completedMissions: 7, createdAt: at('2026-02-01 00:00:00+00') },
      { firstName: 'Ugo', lastName: 'Inactif', status: 'inactive', createdAt: at('2026-01-01 00:00:00+00') },
      { firstName: 'Théa', lastName: 'Refusée', status: 'rejected', createdAt: at('2026-01-02 00:00:00+00') },
    ];
    for (const values of made) await createTechnician(ctx.db, values);

    const expected = async (where: ReturnType<typeof sql>, order: 'asc' | 'desc') => {
      const rows = rowsOf<{ id: string }>(
        await ctx.db.execute(sql`select id from technicians where ${where} order by created_at ${sql.raw(order)}, id asc`),
      );
      return rows.map((r) => r.id);
    };
    const all = await ctx.db.select().from(technicians);
    const view = new Map(all.map((row) => [row.id, toTechnician(row)]));
    const resources = await countRows(ctx.db, 'learning_resources');

    const cases: [string, ReturnType<typeof sql>, 'asc' | 'desc'][] = [
      ['status=pending', sql`status = 'pending'`, 'asc'],
      ['status=active', sql`status = 'active'`, 'desc'],
      ['status=inactive', sql`status in ('inactive', 'rejected')`, 'desc'],
      ['', sql`true`, 'desc'],
      ['status=active&department=59', sql`status = 'active' and '59' = any(departments)`, 'desc'],
      ['status=pending&search=m%C3%AAme', sql`status = 'pending' and last_name = 'Même'`, 'asc'],
    ];
    for (const [query, where, order] of cases) {
      const order0 = await expected(where, order);
      const full = await admin({ method: 'GET', url: `/api/technicians?${query}&limit=100` });
      expect(full.statusCode, query).toBe(200);
      expect(full.json(), query).toEqual(order0.map((id) => view.get(id)));
      expect(full.headers['x-total-count'], query).toBe(String(order0.length));
      // Sent as PostgreSQL wrote it: the schema's keys only, each technician as the query builder and toTechnician read it.
      await expectPageAsRead(full.json(), technicianSchema, async (id) => view.get(id), query);
      // The admin's cards: the same technicians in the same order, with their training, lots and documents (none here).
      const cards = await admin({ method: 'GET', url: `/api/technicians/enhanced?${query}&limit=100` });
      expect(cards.statusCode, query).toBe(200);
      expect(cards.headers['x-total-count'], query).toBe(String(order0.length));
      await expectPageAsRead(cards.json(), adminTechnicianSchema, async (id) => ({
        ...view.get(id),
        resourcesRead: 0,
        resourcesTotal: resources,
        activeLots: 0,
        identityDocumentName: null,
        cvName: null,
      }), query);
      expect(ids(cards.json()), query).toEqual(order0);
      for (const [limit, offset] of [[1, 0], [2, 1], [2, 40]] as const) {
        const page = await admin({ method: 'GET', url: `/api/technicians?${query}&limit=${limit}&offset=${offset}` });
        expect(ids(page.json()), `${query} ${limit} ${offset}`).toEqual(order0.slice(offset, offset + limit));
        expect(page.headers['x-total-count'], `${query} ${limit} ${offset}`).toBe(String(order0.length));
      }
    }
    const zoe = (await admin({ method: 'GET', url: '/api/technicians?status=pending&limit=1&offset=2' })).json()[0];
    expect(zoe).toMatchObject({ firstName: 'Zoé', ibanLast4: '0189', createdAt: '2026-03-01T10:00:00.123Z' });
    // The IBAN's last four characters, spaces left out (iban_last4); an IBAN shorter than four shows what there is.
    const kept = async (iban: string | null) =>
      rowsOf<{ last4: string | null }>(
        await ctx.db.execute(sql`update technicians set iban = ${iban} where id = ${zoe.id} returning iban_last4 as last4`),
      )[0]!.last4;
    expect(await kept('FR7630001000011234567890189')).toBe('0189');
    expect(await kept('FR76 3000 1000 0112 3456 7890 1 89')).toBe('0189');
    expect(await kept('189')).toBe('189');
    expect(await kept('')).toBeNull();
    expect(await kept(null)).toBeNull();
  });
});
