import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { technicianOptionSchema } from '@maillon/common/schemas/money';
import { as, countRows, createTechnician, type TestContext } from './helpers';

/**
 * What every admin technician picker answers (lib/technician-options.ts, decision 040), checked through `url`: the
 * technicians that have a row in `table` (`withRow` gives one) whose text holds the search — first name, « Nom Prénom »
 * either way round, e-mail, company —, by last name, first name and id, at most `limit`; LIKE wildcards searched as
 * text; without a search the first ones by name; a bad limit or a search over 200 characters refused in French,
 * changing nothing. `family` is a last name no other test of the file uses.
 */
export async function checkTechnicianPicker({
  ctx,
  adminCookie,
  url,
  table,
  withRow,
  family,
}: {
  ctx: TestContext;
  adminCookie: string;
  url: string;
  table: 'invoices' | 'shipments';
  withRow: (technicianId: string) => Promise<void>;
  family: string;
}) {
  const admin = as(ctx.app, adminCookie);
  const options = async (query: string) => {
    const response = await admin({ method: 'GET', url: `${url}${query}` });
    expect(response.statusCode, query).toBe(200);
    return technicianOptionSchema.array().parse(response.json());
  };
  const names = async (query: string) => (await options(query)).map((o) => o.name);
  const withOne = async (firstName: string, lastName: string, companyName: string | null = null) => {
    const { technician } = await createTechnician(ctx.db, { firstName, lastName, companyName });
    await withRow(technician.id);
    return technician;
  };
  const julien = await withOne('Julien', family, 'Défibrillateurs du Rhône');
  await withOne('Alice', family);
  await withOne('Zacharie', `Abel${family.toLowerCase()}`);
  await createTechnician(ctx.db, { firstName: 'Bruno', lastName: family });

  // Last name, then first name; Bruno has no row.
  const abel = `Zacharie Abel${family.toLowerCase()}`;
  expect(await names(`?search=${family.toLowerCase()}`)).toEqual([abel, `Alice ${family}`, `Julien ${family}`]);
  expect(await names('?search=Zacharie')).toEqual([abel]);
  expect(await names(`?search=Bruno%20${family}`)).toEqual([]);
  for (const search of [`Julien ${family}`, `${family} Julien`, `${family.toUpperCase()} julien`, 'du rhône', julien.email.toUpperCase()]) {
    expect(await options(`?search=${encodeURIComponent(search)}`), search).toEqual([{ id: julien.id, name: `Julien ${family}` }]);
  }
  expect(await names(`?search=${family}&limit=2`)).toEqual([abel, `Alice ${family}`]);
  expect(await names('?search=%25')).toEqual([]);

  // Without a search (or only spaces): the first ones by name, every technician without a row left out.
  const expected = await ctx.db.execute<{ id: string }>(sql`select t.id from technicians t
    where exists (select 1 from ${sql.identifier(table)} r where r.technician_id = t.id) order by t.last_name, t.first_name, t.id`);
  const all = expected.rows.map((r) => r.id);
  expect(all.length).toBeGreaterThanOrEqual(3);
  expect((await options('')).map((o) => o.id)).toEqual(all.slice(0, 20));
  expect((await options('?search=%20%20&limit=2')).map((o) => o.id)).toEqual(all.slice(0, 2));
  expect((await options('?limit=50')).map((o) => o.id)).toEqual(all.slice(0, 50));

  const before = { technicians: await countRows(ctx.db, 'technicians'), rows: await countRows(ctx.db, table) };
  const limitMessage = 'Nombre de techniciens invalide (entre 1 et 50)';
  for (const [query, message] of [
    ['?limit=0', limitMessage],
    ['?limit=51', limitMessage],
    ['?limit=abc', limitMessage],
    ['?limit=2.5', limitMessage],
    [`?search=${'a'.repeat(201)}`, 'Recherche trop longue (200 caractères maximum)'],
  ] as const) {
    const response = await admin({ method: 'GET', url: `${url}${query}` });
    expect(response.statusCode, query).toBe(400);
    expect(response.json(), query).toMatchObject({ code: 'VALIDATION_ERROR', message });
  }
  expect((await admin({ method: 'GET', url: `${url}?search=${'a'.repeat(200)}` })).statusCode).toBe(200);
  expect({ technicians: await countRows(ctx.db, 'technicians'), rows: await countRows(ctx.db, table) }).toEqual(before);
}
