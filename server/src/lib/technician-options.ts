import { sql } from 'drizzle-orm';
import type { TechnicianOption, TechnicianOptionsQuery } from '@maillon/common/schemas/money';
import type { DbOrTx } from '../db/client';
import { pageSql } from './pagination';
import { substringMatchSql, searchedText } from './substring-search';

/**
 * The admin's technician pickers (invoices, shipments): the technicians with at least one row in `table` whose searched
 * text contains `search` (first and last name either way round, e-mail, company: technicians_search_trgm_idx), by
 * name, at most `limit` of them. `exists` stops at a technician's first row (invoices_technician_idx,
 * shipments_technician_idx) where a distinct join would read them all.
 */
export async function listTechnicianOptions(
  db: DbOrTx,
  table: 'invoices' | 'shipments',
  { search, limit }: TechnicianOptionsQuery,
): Promise<TechnicianOption[]> {
  const matching = search ? sql`and ${substringMatchSql(searchedText('t'), search)}` : sql``;
  const result = await db.execute<{ id: string; first_name: string; last_name: string }>(sql`
    select t.id, t.first_name, t.last_name from technicians t
    where exists (select 1 from ${sql.raw(table)} r where r.technician_id = t.id) ${matching}
    order by t.last_name, t.first_name, t.id ${pageSql(limit, 0)}`);
  return result.rows.map((row) => ({ id: row.id, name: `${row.first_name} ${row.last_name}`.trim() }));
}
