import { sql, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '@maillon/common/constants';
import type { DbOrTx } from '../db/client';
import { sqlLiteral } from '../db/schema/_columns';

/** limit/offset query fields shared by every growing list (decisions.md §5). */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
};

/**
 * A search counts its rows up to this many (decision 042): past it, the list's total is « plus de 1 000 » and its pages
 * walk the list's order instead of sorting every row found.
 */
export const TOTAL_CAP = 1000;

/**
 * Lists answer a JSON array; the total goes in X-Total-Count. A capped total (a search past TOTAL_CAP rows) is sent as
 * TOTAL_CAP with `X-Total-Capped: true`: there are more rows than that.
 */
export function setTotal(reply: FastifyReply, total: number, capped = false): void {
  reply.header('X-Total-Count', String(total));
  if (capped) reply.header('X-Total-Capped', 'true');
  reply.header('Access-Control-Expose-Headers', capped ? 'X-Total-Count, X-Total-Capped' : 'X-Total-Count');
}

/** `where` and the conditions joined by `and`, or nothing when there is none. */
export const whereAll = (conditions: SQL[]): SQL => (conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``);

/** A page of a search as the JSON text PostgreSQL wrote (searchPageText), and its total, which may be capped. */
export interface SearchPageText {
  json: string;
  total: number;
  capped: boolean;
}

/** The parts of a searched list for searchPageText. */
export interface SearchedList {
  /** The ids (column `id`) of the rows the search finds under the list's other filters, at most TOTAL_CAP + 1. */
  found: SQL;
  /** The list's id column, as `pageJson`'s conditions name it. */
  idColumn: SQL;
  /** The list's other filters (technician, status…). */
  others: SQL[];
  /** The same rows as `found` (without its limit), as a row filter: substringFilterSql. */
  filter: SQL;
  /**
   * `found` is planned on every call, with its pattern (a search of words only: substringMatchSql). Its ids are then read
   * alone, and the page from them by a statement of its own, which keeps its generic plan.
   */
  plannedEachCall: boolean;
  /** The page under `conditions`, in the list's order, as one JSON value (decision 031). */
  pageJson: (conditions: SQL[]) => SQL;
}

/**
 * A search's page and total in at most two statements (decision 042). The first counts the found rows (a selective
 * search finds its few rows on its trigram index; a broad one stops after TOTAL_CAP + 1) and, when they are at most
 * TOTAL_CAP, answers the page from them. Past the cap nearly every row matches: the second reads the page by walking
 * the list's own order with the search as a filter, which stops after the page instead of sorting thousands of rows.
 * The total is then TOTAL_CAP, capped, unless the page holds the list's last rows past the cap (its exact size is then
 * known). The page comes back as the JSON text PostgreSQL wrote: a list that sends it as it is (sendJsonText,
 * decision 049) never parses it.
 */
export async function searchPageText(db: DbOrTx, list: SearchedList, page: { limit: number; offset: number }): Promise<SearchPageText> {
  const first = list.plannedEachCall ? await foundThenPage(db, list) : await foundWithPage(db, list);
  const total = Number(first.total);
  if (total <= TOTAL_CAP) return { json: first.page ?? '[]', total, capped: false };
  // The page is read once (materialized) for its text and its length.
  const { json, length } = (
    await db.execute<{ json: string; length: number }>(sql`
      with page as materialized (select ${list.pageJson([...list.others, list.filter])} as rows)
      select rows::text as json, json_array_length(rows) as length from page`)
  ).rows[0]!;
  // A page that holds the list's last rows gives its size; an empty page past the end does not.
  const end = length > 0 && length < page.limit && page.offset + length > TOTAL_CAP;
  return { json, total: end ? page.offset + length : TOTAL_CAP, capped: !end };
}

/** searchPageText's count of the found rows, with their page when they are at most TOTAL_CAP: one statement. */
async function foundWithPage(db: DbOrTx, list: SearchedList): Promise<{ total: number; page: string | null }> {
  return (
    await db.execute<{ total: number; page: string | null }>(sql`
      with found as materialized (${list.found}), counted as (select count(*)::int as n from found)
      select n as total, case when n <= ${TOTAL_CAP} then (${list.pageJson([sql`${list.idColumn} in (select id from found)`])})::text end as page from counted`)
  ).rows[0]!;
}

/**
 * The same for a search planned on every call (decision 055): planned in the same statement, the page's cards would be
 * planned on every call too (0.6–0.7 ms for a page of lots). The found ids come back as the text of a uuid array
 * (only when they are at most TOTAL_CAP), and the page is read from them by a statement that keeps its generic plan.
 */
async function foundThenPage(db: DbOrTx, list: SearchedList): Promise<{ total: number; page: string | null }> {
  const found = (
    await db.execute<{ total: number; ids: string | null }>(sql`
      select count(*)::int as total, case when count(*) <= ${TOTAL_CAP} then array_agg(id)::text end as ids from (${list.found}) found`)
  ).rows[0]!;
  const total = Number(found.total);
  if (total > TOTAL_CAP) return { total, page: null };
  if (total === 0) return { total, page: '[]' };
  const { page } = (
    await db.execute<{ page: string }>(sql`select (${list.pageJson([sql`${list.idColumn} = any(${found.ids ?? '{}'}::uuid[])`])})::text as page`)
  ).rows[0]!;
  return { total, page };
}

/**
 * The row of a page with its total (pageTextSql): the total, and the page as the JSON text the route sends. A type,
 * not an interface: the rows db.execute reads must be a Record.
 */
export type PageTextRow = { total: number; json: string };

/**
 * A page without a search as one statement (decision 031): its total (`total`, a count or the counts the database
 * keeps) and the page (`pageJson`, one JSON value) as text, in one row (PageTextRow). pageText runs it; a statement
 * rendered once per shape (preparedSql) builds it with placeholders and reads its row with pageFromRow.
 */
export function pageTextSql(total: SQL, pageJson: SQL): SQL {
  return sql`select ${total} as total, (${pageJson})::text as json`;
}

/** The page of pageTextSql's row, as the route sends it (sendPageText, decision 049). */
export function pageFromRow(row: PageTextRow): SearchPageText {
  return { json: row.json, total: Number(row.total), capped: false };
}

/** A page without a search and its total, in one statement (pageTextSql). */
export async function pageText(db: DbOrTx, total: SQL, pageJson: SQL): Promise<SearchPageText> {
  return pageFromRow((await db.execute<PageTextRow>(pageTextSql(total, pageJson))).rows[0]!);
}

/**
 * Sends a list the service already wrote as JSON text (docs/decisions/033): Fastify sends a string with a JSON content
 * type as it is, without the route's serializer. The text must satisfy the route's response schema, which stays
 * declared for the access matrix and the API reference; the route's tests parse it with that schema.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** A page written as JSON text (sendJsonText) with its total in X-Total-Count (setTotal). */
export function sendPageText(reply: FastifyReply, page: { json: string; total: number; capped?: boolean }): FastifyReply {
  setTotal(reply, page.total, page.capped);
  return sendJsonText(reply, page.json);
}

/**
 * One row's JSON object as PostgreSQL writes it for a list sent as it is (decision 049): `fields` maps each key, in
 * order, to its SQL expression. It is a row of those columns, which `json_agg` or `to_json` writes compactly
 * (`{"id":…,"title":…}`). json_build_object would cost PostgreSQL three times as much for twenty keys (it looks up
 * the type of each argument on every call): 1.7–2.1 ms against 0.55–0.69 for a page of fifty missions.
 */
export function jsonRowSql(fields: Record<string, string>): SQL {
  return sql.raw(jsonRowText(fields));
}

/** An amount in cents as the answers' euros (centsToEuros), for a JSON row's field: 1050 → 10.5, 1000 → 10. */
export const eurosSql = (cents: string): string => `trim_scale(${cents}::numeric / 100)`;

/** A constant text as an SQL literal, for a JSON row's field: `'En attente'`. */
export const textSql = sqlLiteral;

/** jsonRowSql as SQL text, for a row nested in another's fields (an object inside the object). */
export function jsonRowText(fields: Record<string, string>): string {
  const columns = Object.entries(fields).map(([key, expression]) => `${expression} as "${key}"`);
  return `(select json_row from (select ${columns.join(', ')}) json_row)`;
}

/**
 * Between the rows (chr(30)) and between the parts of a row (chr(31)) of a page a statement writes as JSON text for
 * sendJsonText: control characters PostgreSQL's JSON never holds raw (it writes them `\u001e`), so a split cannot cut
 * inside a JSON value (decisions 033, 044).
 */
export const ROW_SEPARATOR = '\u001e';
export const PART_SEPARATOR = '\u001f';

/** Escapes LIKE wildcards in user search text. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The total of a filtered list, carried by each row of its page (one round trip instead of a count query). */
export const windowTotal = () => sql<number>`count(*) over ()`.mapWith(Number);

/** The total a page's rows carry (windowTotal); a page past the end has none, and counts on its own. */
export async function pageTotal(rows: readonly { total: number }[], offset: number, countAll: () => Promise<number>): Promise<number> {
  return rows[0]?.total ?? (offset > 0 ? countAll() : 0);
}

/**
 * LIMIT written as a literal: with a parameter the planner prices a generic plan for 10 % of the rows, so a prepared
 * statement would stay on custom plans and be planned on every call. The limit is a validated page size (at most
 * PAGE_SIZE_MAX statement texts); the offset stays a parameter, absent on the first page. A statement rendered once per
 * shape (db/prepared-queries.ts) passes its placeholder as `offsetParam`, and names the page in its shape (pageShape).
 */
export function pageSql(limit: number, offset: number, offsetParam: unknown = offset): SQL {
  const literal = sql.raw(`limit ${Math.trunc(limit)}`);
  return offset > 0 ? sql`${literal} offset ${offsetParam}` : literal;
}

/** What a page changes in a statement's text (pageSql, literalLimit): its size, and whether it has an offset. */
export function pageShape(page: { limit: number; offset: number }): string {
  return `${Math.trunc(page.limit)}${page.offset > 0 ? 'o' : ''}`;
}

/**
 * pageSql's LIMIT for Drizzle's query builder: `.limit(literalLimit(n))`. Drizzle writes an SQL chunk given to `limit`
 * as it is, and `.offset(0)` writes no OFFSET, so a first page has its limit in the text and no parameter for either.
 * As parameters, the admin's lists (audit log, transfers, payout candidates, a resource's readers, every
 * application) were planned on every call (decision 067). The limit is a validated page size.
 */
export function literalLimit(limit: number): number {
  return sql.raw(String(Math.trunc(limit))) as unknown as number;
}

