import { sql, type SQL } from 'drizzle-orm';
import { PLAN_EACH_CALL } from '../db/prepared-statements';
import { likePattern, TOTAL_CAP, whereAll, type SearchedList } from './pagination';

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
 * `text` (a lowercased text with a gin_trgm_ops index, searchedText) contains `search`, case-insensitively: exactly
 * `text like '%search%'`. The index is given the fragment of indexedFragment, and the whole search is checked on the rows
 * it finds (strpos: a plain substring test, which the index does not take): the fragment is part of the search, so every
 * row holding the search holds the fragment, and the result is the same rows.
 *
 * With a fragment, both values are scalar subqueries: the planner cannot read them, in a custom plan as in the generic
 * one, so the prepared statement keeps its generic plan (through the index, right for a few rows) instead of being
 * planned on every call (0.5–0.8 ms). A search of words only stays a plain parameter, and its statement is planned on
 * every call (PLAN_EACH_CALL): the planner reads the pattern and may rightly prefer reading the table for a word every
 * row holds, or that no index can take (« a »: a generic plan read the whole trigram index, 70 ms at 100 000 missions).
 */
export function substringMatchSql(text: SQL, search: string): SQL {
  const needle = search.toLowerCase();
  const fragment = indexedFragment(needle);
  if (!fragment) return sql`${text} like ${sql.raw(PLAN_EACH_CALL)} ${likePattern(needle)}`;
  const indexed = sql`${text} like (select ${likePattern(fragment)}::text)`;
  return fragment === needle ? indexed : sql`(${indexed} and strpos(${text}, (select ${needle}::text)) > 0)`;
}

/** substringMatchSql(…, `search`) is planned on every call: a search without a fragment for the index. */
export const plannedEachCall = (search: string): boolean => indexedFragment(search.toLowerCase()) === null;

/**
 * `text` contains `search`, case-insensitively, checked row by row: strpos, which no trigram index takes, so a
 * statement ordered by another index walks that index with this as a filter and stops after its page. The plan for a
 * search that nearly every row matches (searchPageText, decision 042); the needle is a scalar subquery, as above, so the
 * prepared statement keeps that one plan.
 */
export function substringFilterSql(text: SQL, search: string): SQL {
  return sql`strpos(${text}, (select ${search.toLowerCase()}::text)) > 0`;
}

/**
 * The searched text the row `alias` keeps (`search_text`, a stored generated column with a trigram index: decision 045).
 * A technician's holds its first name, last name, first name again (so « Prénom Nom » and « Nom Prénom » are both in
 * it), e-mail and company; an invoice's and a parcel's their own fields, a search matching their technician's too.
 */
export const searchedText = (alias: string): SQL => sql.raw(`${alias}.search_text`);

/**
 * The ids of `table`'s rows whose own text contains `search` or whose technician's does, as a subquery: each side
 * found on its trigram index (an OR across the join would read every row).
 */
export function matchingWithTechnicianSql(table: 'invoices' | 'shipments', search: string): SQL {
  const own = searchedText('r');
  return sql`(select r.id from ${sql.raw(table)} r where ${substringMatchSql(own, search)}
    union select r.id from ${sql.raw(table)} r join technicians t on t.id = r.technician_id where ${substringMatchSql(searchedText('t'), search)})`;
}

/**
 * searchPageText's parts for a search of `table`'s own searched text (its kept `search_text` column, which its trigram index
 * indexes: decision 045) under the list's other filters `others`: the ids found, at most TOTAL_CAP + 1, and the same rows
 * as a row filter (decision 042). `texts`: the row's texts searched, each with its trigram index, when it has more than
 * its `search_text` (searchedLots).
 */
export function searchedTable(
  table: 'devices' | 'missions' | 'mission_batches',
  search: string,
  others: SQL[],
  texts: SQL[] = [searchedText(table)],
): Omit<SearchedList, 'pageJson'> {
  const name = sql.raw(table);
  // A row is found when any of its texts holds the search: one index each, joined by `or` (a BitmapOr).
  const any = (holds: (text: SQL) => SQL) => (texts.length === 1 ? holds(texts[0]!) : sql`(${sql.join(texts.map(holds), sql` or `)})`);
  return {
    found: sql`select id from ${name} ${whereAll([any((text) => substringMatchSql(text, search)), ...others])} limit ${TOTAL_CAP + 1}`,
    idColumn: sql`${name}.id`,
    others,
    filter: any((text) => substringFilterSql(text, search)),
    plannedEachCall: plannedEachCall(search),
  };
}

/**
 * searchPageText's parts for the admin's search of lots under the list's other filters `others` (decision 055): a lot is
 * found by its own text (title and description, `search_text`) or by the text it keeps of its missions
 * (`missions_search_text`, their searched texts), each on its own trigram index.
 */
export const searchedLots = (search: string, others: SQL[]): Omit<SearchedList, 'pageJson'> =>
  searchedTable('mission_batches', search, others, [searchedText('mission_batches'), sql.raw('mission_batches.missions_search_text')]);

/**
 * searchPageText's parts for a search of `table`'s own text or its technician's (matchingWithTechnicianSql), under the
 * list's other filters `others` (conditions naming the table itself), decision 042.
 * - Found: the union of the two sides, each stopped after TOTAL_CAP + 1 rows. It holds more than TOTAL_CAP ids exactly
 *   when the whole search does.
 * - Filter: « own text or technician's » row by row (substringFilterSql), for the walk past the cap.
 */
export function searchedWithTechnician(table: 'invoices' | 'shipments', search: string, others: SQL[]): Omit<SearchedList, 'pageJson'> {
  const name = sql.raw(table);
  const own = searchedText(table);
  return {
    found: sql`(select ${name}.id from ${name} ${whereAll([substringMatchSql(own, search), ...others])} limit ${TOTAL_CAP + 1})
      union (select ${name}.id from ${name} join technicians mt on mt.id = ${name}.technician_id
        ${whereAll([substringMatchSql(searchedText('mt'), search), ...others])} limit ${TOTAL_CAP + 1})`,
    idColumn: sql`${name}.id`,
    others,
    filter: sql`(${substringFilterSql(own, search)}
      or exists (select 1 from technicians mt where mt.id = ${name}.technician_id and ${substringFilterSql(searchedText('mt'), search)}))`,
    plannedEachCall: plannedEachCall(search),
  };
}
