import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Server-side prepared statements for every parameterised query (docs/decisions/028).
 *
 * node-postgres sends an unnamed statement unless told a name, so PostgreSQL parses and plans the text again on every
 * call: for the larger reads that cost more than running them (« Trouver des missions »: parse 1.0 ms + plan 1.6 ms for
 * 1.5 ms of execution). Naming each statement after a hash of its text lets each connection parse it once, and lets
 * PostgreSQL keep a generic plan once it has seen that custom plans are no better (plan_cache_mode = auto).
 *
 * - A query without parameters is named only when it is one read (SINGLE_READ: `select` or `with`, no `;`). Unnamed, it
 *   would run through the simple protocol, parsed and planned on every call (« Formation »: its whole time in
 *   PostgreSQL). Any other text without parameters keeps the simple protocol, which lets a migration send several
 *   statements at once.
 * - The name is derived from the text, so two texts never share a name and the same text always finds its statement.
 * - A text holding PLAN_EACH_CALL stays unnamed, planned with its parameters on every call.
 * - Each connection prepares at most MAX_STATEMENTS_PER_CONNECTION distinct texts (queries whose text varies with
 *   their input, such as `in (…)` lists, would otherwise grow its memory without bound); beyond that, unnamed as before.
 */
export const MAX_STATEMENTS_PER_CONNECTION = 500;

/**
 * A statement whose text holds this comment is never named: PostgreSQL plans it with its parameters on every call. For
 * a statement whose right plan depends on a parameter's value, such as a search's LIKE pattern (substring-search.ts):
 * after five calls a named statement keeps its generic plan, which cannot read the pattern (decision 042: « a » then
 * read the whole trigram index, 70 ms, where reading the table stops after 1 001 rows in 1.3 ms).
 */
export const PLAN_EACH_CALL = '/* plan each call */';

interface QueryConfig {
  text?: unknown;
  name?: unknown;
  values?: unknown;
}

/** One statement that reads (a `with` may also write): a text without any `;` cannot hold two. */
const SINGLE_READ = /^\s*(select|with)\b[^;]*$/i;

const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `m_${createHash('sha1').update(text).digest('hex')}`;
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}

export class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  // One signature for the overloads of pg.Client#query: the config is only read, and copied when named.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    return super.query(this.named(config, values) as never, values, callback);
  }

  private named(config: unknown, values: unknown): unknown {
    if (typeof config !== 'object' || config === null) return config;
    const query = config as QueryConfig;
    if (typeof query.text !== 'string' || query.name !== undefined || query.text.includes(PLAN_EACH_CALL)) return config;
    const params = Array.isArray(values) ? values : query.values;
    if (params !== undefined && !Array.isArray(params)) return config;
    if (!params?.length && !SINGLE_READ.test(query.text)) return config;
    const name = statementName(query.text);
    if (!this.prepared.has(name)) {
      if (this.prepared.size >= MAX_STATEMENTS_PER_CONNECTION) return config;
      this.prepared.add(name);
    }
    return { ...query, name };
  }
}
