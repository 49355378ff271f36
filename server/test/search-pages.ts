import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { TOTAL_CAP } from '../src/lib/pagination';

/**
 * A searched list's pages against `all`, the ids a plain query over the table finds in the list's order (decision 042):
 * each `[limit, offset]` page holds the same ids, X-Total-Count is exact, or TOTAL_CAP with `X-Total-Capped: true`
 * (exposed to the page) while the list is past the cap and the page does not hold its last rows.
 */
export async function expectSearchPages(
  get: (url: string) => Promise<LightMyRequestResponse>,
  url: string,
  all: string[],
  pages: readonly (readonly [limit: number, offset: number])[],
): Promise<void> {
  const capped = all.length > TOTAL_CAP;
  for (const [limit, offset] of pages) {
    const page = await get(`${url}&limit=${limit}&offset=${offset}`);
    const label = `${url} ${limit} ${offset}`;
    expect(page.statusCode, label).toBe(200);
    expect(page.json().map((row: { id: string }) => row.id), label).toEqual(all.slice(offset, offset + limit));
    // Past the cap the total is exact only once a page reaches the end of the list beyond the cap.
    const knownEnd = !capped || (offset + limit >= all.length && offset < all.length);
    expect(page.headers['x-total-count'], label).toBe(String(knownEnd ? all.length : TOTAL_CAP));
    expect(page.headers['x-total-capped'], label).toBe(knownEnd ? undefined : 'true');
    if (!knownEnd) expect(page.headers['access-control-expose-headers'], label).toBe('X-Total-Count, X-Total-Capped');
  }
}
