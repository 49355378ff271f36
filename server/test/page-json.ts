import { expect } from 'vitest';
import { z } from 'zod';

/**
 * A page a list sends as PostgreSQL wrote it (sendJsonText, decisions 033 and 049), which no response schema checks on
 * its way out: every object has the schema's keys and none more (`strict`), and equals what the single-row read of
 * the same id answers through the query builder and its mapper.
 */
export async function expectPageAsRead(
  body: unknown,
  schema: z.ZodObject,
  read: (id: string) => Promise<unknown>,
  label?: string,
): Promise<void> {
  const rows = z.array(schema.strict()).parse(body) as { id: string }[];
  expect(rows, label).toEqual(await Promise.all(rows.map((row) => read(row.id))));
}
