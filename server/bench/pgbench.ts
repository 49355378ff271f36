/**
 * The thin-REST-over-Postgres ceiling of each endpoint, as PostgREST's own benchmark reports it: pgbench runs the
 * endpoint's captured SQL (sql-capture.ts) with as many clients as autocannon has connections. One pgbench transaction
 * = one request's queries, in order; the ratio says how much of that ceiling the HTTP server keeps.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { cpuMs, type CpuPerRequest } from './cpu';
import type { CapturedEndpoint, CapturedQuery } from './sql-capture';
import type { StackCeilingResult } from './stack-ceiling';
import { PLAN_EACH_CALL } from '../src/db/prepared-statements';

export interface PgbenchResult {
  name: string;
  queries: number;
  tps: number | null;
  latencyMs: number | null;
  /** Why there is no figure (pgbench missing, a query pgbench cannot take, a failed run). */
  error: string | null;
  script: string;
  defines: string[];
  /** pgbench's protocol for the script (pgbenchScript). */
  mode: PgbenchMode;
}

// node-postgres's own conversion of a parameter to its text form (Date, array, object…). Not in @types/pg, hence the cast.
const { prepareValue } = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils;

/** A parameter as the text node-postgres sends for it (bytea as `\\x…`), null for NULL: pgbench and the stack's ceiling send the very bytes the app sends. */
export function paramText(value: unknown): string | null {
  const text = prepareValue(value);
  if (text === null || text === undefined) return null;
  return Buffer.isBuffer(text) ? `\\x${text.toString('hex')}` : String(text);
}

/** pgbench reads `:name` outside `::` as one of its variables, even inside a string literal. */
const PGBENCH_VARIABLE = /(^|[^:]):[A-Za-z_\u0080-\uffff]/;

export type PgbenchMode = 'prepared' | 'extended';

/**
 * The settings around a statement the app plans on every call (PLAN_EACH_CALL), in a script run with -M prepared: its
 * prepared statement is then planned with its parameters on every call, as the app's unnamed statement is, while the
 * request's other statements keep their prepared plan, as the app's named ones do (decision 079).
 */
export const PLAN_EACH_CALL_BEFORE = 'set plan_cache_mode = force_custom_plan;';
export const PLAN_EACH_CALL_AFTER = 'reset plan_cache_mode;';

/**
 * A pgbench script for one request: each $n becomes a pgbench variable defined with -D (sent, like node-postgres
 * does, as an untyped text parameter under -M prepared; no quoting to get wrong), NULL stays a literal.
 *
 * Each statement is planned as the app plans it (db/prepared-statements.ts). A request whose statements are all
 * planned on every call runs with -M extended (unnamed, as the app sends them). One that mixes them runs with
 * -M prepared, each statement planned on every call between PLAN_EACH_CALL_BEFORE and PLAN_EACH_CALL_AFTER: with
 * -M extended for the whole request, its named statements were planned on every call too, which the app never does
 * (« Parc DAE (recherche large) »: 229–242 tps that way, 686–757 planned as the app plans them; decision 079).
 */
export function pgbenchScript(queries: CapturedQuery[]): { script: string; defines: string[]; mode: PgbenchMode } {
  const defines: string[] = [];
  const plannedEachCall = queries.map((query) => query.sql.includes(PLAN_EACH_CALL));
  const mode: PgbenchMode = plannedEachCall.length > 0 && plannedEachCall.every(Boolean) ? 'extended' : 'prepared';
  const statements = queries.map((query, q) => {
    if (PGBENCH_VARIABLE.test(query.sql))
      throw new Error(`pgbench prendrait « :nom » pour une variable : ${query.sql.slice(0, 120)}`);
    const text = query.sql.replace(/\$(\d+)/g, (_match, n: string) => {
      const value = paramText(query.params[Number(n) - 1]);
      if (value === null) return 'NULL';
      const name = `q${q + 1}_p${n}`;
      defines.push(`${name}=${value}`);
      return `:${name}`;
    });
    const statement = `${text.trim()};`;
    return mode === 'prepared' && plannedEachCall[q] ? `${PLAN_EACH_CALL_BEFORE}\n${statement}\n${PLAN_EACH_CALL_AFTER}` : statement;
  });
  return { script: `${statements.join('\n')}\n`, defines, mode };
}

/** Runs a command (pgbench) with the app's session settings and gives its exit code and output. */
export function runCommand(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The app's own session settings (db/client.ts): no JIT compilation.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PGOPTIONS: '-c jit=off' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The transactions per second pgbench printed (its `tps = …` line), null when it printed none. */
export function pgbenchTps(stdout: string): number | null {
  const tps = /^tps = ([\d.]+)/m.exec(stdout);
  return tps ? Number(tps[1]) : null;
}

export async function runPgbench(options: {
  databaseUrl: string;
  endpoints: CapturedEndpoint[];
  clients: number;
  durationS: number;
  scriptsDir: string;
  log?: (line: string) => void;
}): Promise<PgbenchResult[]> {
  const bin = process.env.BENCH_PGBENCH ?? 'pgbench';
  fs.mkdirSync(options.scriptsDir, { recursive: true });
  const results: PgbenchResult[] = [];
  for (const [i, endpoint] of options.endpoints.entries()) {
    const result: PgbenchResult = {
      name: endpoint.name,
      queries: endpoint.queries.length,
      tps: null,
      latencyMs: null,
      error: null,
      script: '',
      defines: [],
      mode: 'prepared',
    };
    results.push(result);
    try {
      const { script, defines, mode } = pgbenchScript(endpoint.queries);
      result.defines = defines;
      result.mode = mode;
      result.script = path.join(options.scriptsDir, `endpoint-${String(i + 1).padStart(2, '0')}.sql`);
      fs.writeFileSync(result.script, script);
    } catch (error) {
      result.error = (error as Error).message;
      continue;
    }
    options.log?.(`pgbench — ${endpoint.name}…`);
    const args = [
      '-n',
      '-M',
      // Each statement planned as the app plans it (pgbenchScript): a search of words on every call (decision 042),
      // the others once per connection.
      result.mode,
      '-c',
      String(options.clients),
      '-j',
      '2',
      '-T',
      String(options.durationS),
      '-f',
      result.script,
    ];
    for (const define of result.defines) args.push('-D', define);
    args.push(options.databaseUrl);
    let output;
    try {
      output = await runCommand(bin, args);
    } catch (error) {
      // pgbench is not installed: say so once per endpoint and carry on, the autocannon figures stand on their own.
      result.error = `${bin} : ${(error as Error).message}`;
      continue;
    }
    const tps = pgbenchTps(output.stdout);
    const latency = /^latency average = ([\d.]+) ms/m.exec(output.stdout);
    const failed = /^number of failed transactions: (\d+)/m.exec(output.stdout);
    if (output.code !== 0 || tps === null || Number(failed?.[1] ?? 0) > 0) {
      result.error =
        (
          output.stderr
            .trim()
            .split('\n')
            .find((l) => /error|aborted/i.test(l)) ?? output.stderr.trim()
        ).slice(0, 300) || `code ${output.code}`;
      continue;
    }
    result.tps = Math.round(tps);
    result.latencyMs = latency ? Number(latency[1]) : null;
  }
  return results;
}

export function pgbenchTable(
  title: string,
  results: PgbenchResult[],
  rows: { name: string; reqPerSec: number; uncached?: { reqPerSec: number; cpu?: CpuPerRequest | null | undefined } | undefined }[],
  ceilings: StackCeilingResult[] = [],
): string {
  const percent = (value: number | null | undefined, of: number | null | undefined) =>
    value !== undefined && value !== null && of ? `${((value / of) * 100).toFixed(1)} %` : '—';
  const lines = [
    `### ${title}`,
    '',
    // With the read cache (decision 014) most requests never reach PostgreSQL: the "sans cache" figures are the ones
    // to hold against the thin-REST-over-Postgres ceiling. « pile » (stack-ceiling.ts): the same SQL and answer bytes
    // behind a bare Fastify route on node-postgres, what is left of pgbench with nothing of the app in it.
    '| endpoint | SQL queries | req/s | pgbench tps | ratio to pgbench | sans cache req/s | sans cache / pgbench | pgbench latency ms | pile req/s | pile / pgbench | sans cache / pile | CPU Node ms/req, pile / sans cache |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const result of results) {
    const row = rows.find((r) => r.name === result.name);
    const ceiling = ceilings.find((c) => c.name === result.name);
    const tps = result.tps ?? `— (${(result.error ?? '').replaceAll('|', '\\|')})`;
    const stack = ceiling?.reqPerSec ?? (ceiling?.error ? `— (${ceiling.error.replaceAll('|', '\\|')})` : '—');
    lines.push(
      `| ${result.name} | ${result.queries} | ${row?.reqPerSec ?? '—'} | ${tps} | ${percent(row?.reqPerSec, result.tps)} | ${row?.uncached?.reqPerSec ?? '—'} | ${percent(row?.uncached?.reqPerSec, result.tps)} | ${result.latencyMs?.toFixed(2) ?? '—'} |` +
        ` ${stack} | ${percent(ceiling?.reqPerSec, result.tps)} | ${percent(row?.uncached?.reqPerSec, ceiling?.reqPerSec)} | ${cpuMs(ceiling?.cpu?.node)} / ${cpuMs(row?.uncached?.cpu?.node)} |`,
    );
  }
  return lines.join('\n');
}
