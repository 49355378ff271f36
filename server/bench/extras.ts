/**
 * What issue 10 asks beyond autocannon, on the full-scale PostgreSQL data once the load is over: each endpoint against
 * pgbench running its own SQL (pgbench.ts), the plans of that SQL (explain.ts) and the technician dashboard's first
 * content in headless Chromium (first-content.ts). A step that cannot run (no pgbench, no Chromium) is reported as
 * such; a warning never fails the bench.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CpuPerRequest } from './cpu';
import type { Endpoint } from './endpoints';
import { explainEndpoints, explainTable, seqScanWarnings, type ExplainResult } from './explain';
import { firstContentTable, measureFirstContent, type FirstContentResult } from './first-content';
import { pgbenchTable, runPgbench, type PgbenchResult } from './pgbench';
import { captureEndpointSql } from './sql-capture';
import { runStackCeiling, type StackCeilingResult } from './stack-ceiling';

export interface ExtrasOptions {
  databaseUrl: string;
  endpoints: Endpoint[];
  /** The autocannon figures the pgbench ones stand next to. */
  rows: { name: string; reqPerSec: number; uncached?: { reqPerSec: number; cpu?: CpuPerRequest | null | undefined } | undefined }[];
  clients: number;
  /** The app's PostgreSQL pool as the bench runs it (PG_POOL_SIZE), for the stack's ceiling. */
  poolSize: number;
  warmupS: number;
  durationS: number;
  /** Port of the production server the browser step starts; the stack's ceiling listens on the next one. */
  port: number;
  explainFile: string;
  browser: boolean;
}

export interface Extras {
  markdown: string;
  warnings: string[];
  json: {
    pgbench: PgbenchResult[];
    stackCeiling: StackCeilingResult[];
    explain: { name: string; executionMs: number; slowestMs: number; seqScans: string[]; seqScanOnMissions: boolean }[];
    firstContent: FirstContentResult | null;
    errors: string[];
    seconds: { captureAndExplain: number; pgbench: number; stackCeiling: number; firstContent: number };
  };
}

async function step<T>(label: string, errors: string[], work: () => Promise<T>): Promise<{ value: T | null; seconds: number }> {
  const started = Date.now();
  try {
    return { value: await work(), seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    const message = `${label} : ${(error as Error).message}`;
    console.error(`PostgreSQL — ÉCHEC ${message}`);
    errors.push(message);
    return { value: null, seconds: (Date.now() - started) / 1000 };
  }
}

export async function runPostgresExtras(options: ExtrasOptions): Promise<Extras> {
  const log = (line: string) => console.log(`PostgreSQL — ${line}`);
  const errors: string[] = [];
  const warnings: string[] = [];

  log('capture du SQL de chaque endpoint et EXPLAIN ANALYZE…');
  const analysed = await step('capture SQL / EXPLAIN', errors, async () => {
    const captured = await captureEndpointSql(options.databaseUrl, options.endpoints, (message) => {
      console.warn(message);
      errors.push(message);
    });
    const explained = await explainEndpoints(options.databaseUrl, captured);
    fs.mkdirSync(path.dirname(options.explainFile), { recursive: true });
    fs.writeFileSync(options.explainFile, JSON.stringify({ date: new Date().toISOString(), endpoints: explained }, null, 2));
    log(`plans écrits dans ${options.explainFile}`);
    return { captured, explained };
  });
  const explained: ExplainResult[] = analysed.value?.explained ?? [];
  for (const warning of seqScanWarnings(explained)) {
    console.warn(warning);
    warnings.push(warning);
  }

  const pgbench = await step('pgbench', errors, async () =>
    analysed.value
      ? runPgbench({
          databaseUrl: options.databaseUrl,
          endpoints: analysed.value.captured,
          clients: options.clients,
          durationS: options.durationS,
          scriptsDir: path.join(os.tmpdir(), 'maillon-bench-pgbench'),
          log,
        })
      : [],
  );

  const stackCeiling = await step('plafond de la pile', errors, async () =>
    analysed.value
      ? runStackCeiling({
          databaseUrl: options.databaseUrl,
          endpoints: analysed.value.captured,
          poolSize: options.poolSize,
          connections: options.clients,
          warmupS: Math.max(1, Math.round(options.warmupS / 2)),
          durationS: options.durationS,
          port: options.port + 1,
          log,
        })
      : [],
  );

  const firstContent = options.browser
    ? await step('premier contenu', errors, () =>
        measureFirstContent({ databaseUrl: options.databaseUrl, port: options.port, log }),
      )
    : { value: null, seconds: 0 };
  if (firstContent.value && !firstContent.value.withinTarget) {
    const warning = `⚠ ATTENTION : première carte de lot visible en ${firstContent.value.firstLotMedianMs} ms (objectif ≤ ${firstContent.value.targetMs} ms)`;
    console.warn(warning);
    warnings.push(warning);
  }

  const sections = [
    pgbenchTable(
      `PostgreSQL — plafond SQL : pgbench sur le SQL de chaque endpoint (-M prepared ; le SQL que l'app planifie à chaque appel l'est aussi, sous plan_cache_mode = force_custom_plan, ${options.clients} clients, ${options.durationS} s)`,
      pgbench.value ?? [],
      options.rows,
      stackCeiling.value ?? [],
    ),
    explainTable('PostgreSQL — plans : EXPLAIN (ANALYZE, BUFFERS) du SQL de chaque endpoint', explained),
    firstContent.value
      ? firstContentTable('Premier contenu — tableau de bord technicien, Chromium headless', firstContent.value)
      : `### Premier contenu — tableau de bord technicien, Chromium headless\n\nNon mesuré${options.browser ? ' (échec, voir ci-dessous)' : ' (BENCH_BROWSER=false, ou run partiel sans BENCH_BROWSER=true)'}.`,
    ...(warnings.length > 0 || errors.length > 0
      ? [[...warnings, ...errors.map((e) => `⚠ ÉCHEC ${e}`)].map((l) => `- ${l}`).join('\n')]
      : []),
  ];
  const seconds = {
    captureAndExplain: analysed.seconds,
    pgbench: pgbench.seconds,
    stackCeiling: stackCeiling.seconds,
    firstContent: firstContent.seconds,
  };
  log(
    `étapes supplémentaires : capture + EXPLAIN ${seconds.captureAndExplain.toFixed(0)} s, pgbench ${seconds.pgbench.toFixed(0)} s, plafond de la pile ${seconds.stackCeiling.toFixed(0)} s, premier contenu ${seconds.firstContent.toFixed(0)} s`,
  );
  return {
    markdown: sections.join('\n\n'),
    warnings,
    json: {
      pgbench: pgbench.value ?? [],
      stackCeiling: stackCeiling.value ?? [],
      explain: explained.map(({ name, executionMs, queries, seqScans, seqScanOnMissions }) => ({
        name,
        executionMs,
        slowestMs: Math.max(0, ...queries.map((q) => q.executionMs)),
        seqScans,
        seqScanOnMissions,
      })),
      firstContent: firstContent.value,
      errors,
      seconds,
    },
  };
}
