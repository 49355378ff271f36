import { sql } from 'drizzle-orm';
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
