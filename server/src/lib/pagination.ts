import { sql, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '@maillon/common/constants';

/** limit/offset query fields shared by every growing list (decisions.md §5). */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
};

/** Lists answer a JSON array; the total goes in X-Total-Count. */
export function setTotal(reply: FastifyReply, total: number): void {
  reply.header('X-Total-Count', String(total));
  reply.header('Access-Control-Expose-Headers', 'X-Total-Count');
}

/**
 * Sends a list the service already wrote as JSON text (docs/decisions/033): Fastify sends a string with a JSON content
 * type as it is, without the route's serializer. The text must satisfy the route's response schema, which stays
 * declared for the access matrix and the API reference; the route's tests parse it with that schema.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

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
 * PAGE_SIZE_MAX statement texts); the offset stays a parameter, absent on the first page.
 */
export function pageSql(limit: number, offset: number): SQL {
  const literal = sql.raw(`limit ${Math.trunc(limit)}`);
  return offset > 0 ? sql`${literal} offset ${offset}` : literal;
}

/**
 * A timestamp column as milliseconds since 1970, for pages PostgreSQL answers as one JSON value: JavaScript's Date of
 * it writes the ISO text the row's Date would (and the SQL holds no colon, which pgbench would take for a variable).
 */
export const epochMsSql = (column: string): string => `(extract(epoch from ${column}) * 1000)::float8`;

/** The same of a column given as SQL. */
export const epochMsOf = (column: SQL): SQL => sql`(extract(epoch from ${column}) * 1000)::float8`;
