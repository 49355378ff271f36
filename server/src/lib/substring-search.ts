import { sql, type SQL } from 'drizzle-orm';
import { likePattern } from './pagination';

/**
 * The part of a lowercased search given to a trigram index: its longest run of letters and digits that holds a digit and
 * at least three characters (a trigram), or null to give the index the whole search.
 *
 * A GIN trigram scan costs with the most frequent trigrams of its pattern: for « site 1234 » it reads the trigrams of
 * « site », present in every mission, and ANDs them with the few rows of « 1234 » (12 ms at 100 000 missions, against
 * 0.5 ms for « 1234 » alone). The digits are what an administrator types to find one row (a site or serial number, a
 * postal code); words alone keep the whole search, whose intersection is then the cheaper plan.
 */
export function indexedFragment(needle: string): string | null {
  let best: string | null = null;
  for (const run of needle.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (run.length >= 3 && /\p{N}/u.test(run) && (!best || run.length >= best.length)) best = run;
  }
  return best;
}

/**
 * `text` (a lowercased expression with a gin_trgm_ops index) contains `search`, case-insensitively: exactly
 * `text like '%search%'`. The index is given the fragment of indexedFragment, and the whole search is checked on the rows
 * it finds (strpos: a plain substring test, which the index does not take): the fragment is part of the search, so every
 * row holding the search holds the fragment, and the result is the same rows.
 *
 * With a fragment, both values are scalar subqueries: the planner cannot read them, in a custom plan as in the generic
 * one, so the prepared statement keeps its generic plan (through the index, right for a few rows) instead of being
 * planned on every call (0.5–0.8 ms). A search of words only stays a plain parameter: the planner reads the pattern and
 * may rightly prefer reading the table for a word every row holds (the index then costs twice as much).
 */
export function substringMatchSql(text: SQL, search: string): SQL {
  const needle = search.toLowerCase();
  const fragment = indexedFragment(needle);
  if (!fragment) return sql`${text} like ${likePattern(needle)}`;
  const indexed = sql`${text} like (select ${likePattern(fragment)}::text)`;
  return fragment === needle ? indexed : sql`(${indexed} and strpos(${text}, (select ${needle}::text)) > 0)`;
}

/**
 * `text` contains `search`, case-insensitively, checked row by row: strpos, which no trigram index takes, so a
 * statement ordered by another index walks that index with this as a filter and stops after its page. The plan for a
 * search that nearly every row matches (searchPage, decision 042); the needle is a scalar subquery, as above, so the
 * prepared statement keeps that one plan.
 */
export function substringFilterSql(text: SQL, search: string): SQL {
  return sql`strpos(${text}, (select ${search.toLowerCase()}::text)) > 0`;
}

/** `coalesce(alias.column, '')` joined by spaces and lowercased: the searched text of a trigram index (migration 0028). */
function searchedText(alias: string, columns: readonly string[]): SQL {
  return sql.raw(`lower(${columns.map((column) => `coalesce(${alias}.${column}, '')`).join(` || ' ' || `)})`);
}

/**
 * A technician's searched text, exactly the expression of technicians_search_trgm_idx: first name, last name, first
 * name again (so « Prénom Nom » and « Nom Prénom » are both in it), e-mail and company.
 */
export const technicianSearchText = (alias: string) => searchedText(alias, ['first_name', 'last_name', 'first_name', 'email', 'company_name']);
/** An invoice's searched text (invoices_search_trgm_idx). */
const invoiceSearchText = (alias: string) => searchedText(alias, ['reference', 'mission_title', 'description', 'invoice_number']);
/** A parcel's searched text (shipments_search_trgm_idx). */
const shipmentSearchText = (alias: string) => searchedText(alias, ['mission_title', 'destination', 'content', 'tracking_number']);

/**
 * The ids of `table`'s rows whose own text contains `search` or whose technician's does, as a subquery: each side
 * found on its trigram index (an OR across the join would read every row).
 */
export function matchingWithTechnicianSql(table: 'invoices' | 'shipments', search: string): SQL {
  const own = table === 'invoices' ? invoiceSearchText('r') : shipmentSearchText('r');
  return sql`(select r.id from ${sql.raw(table)} r where ${substringMatchSql(own, search)}
    union select r.id from ${sql.raw(table)} r join technicians t on t.id = r.technician_id where ${substringMatchSql(technicianSearchText('t'), search)})`;
}
