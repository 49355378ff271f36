import { sql } from 'drizzle-orm';
import { text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const id = () => uuid().primaryKey().defaultRandom();
export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/** A constant text as an SQL literal: `'En attente'`. */
export const sqlLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** SQL list of quoted literals for CHECK constraints and predicates: `'Recruté', 'Terminé'`. */
export function sqlList(values: readonly string[]): string {
  return values.map(sqlLiteral).join(', ');
}

/**
 * The text an admin search looks in, kept in the row (a stored generated column, docs/decisions/045): the columns joined
 * by spaces, nulls as '', lowercased. A search reads it instead of building it for every row it looks at, and its
 * trigram index (gin_trgm_ops) finds the rows that hold a fragment.
 */
export const searchText = (columns: readonly string[]) =>
  text().generatedAlwaysAs(sql.raw(`lower(${columns.map((column) => `coalesce(${column}, '')`).join(` || ' ' || `)})`));
