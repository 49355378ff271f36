/**
 * EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of every query each endpoint runs (captured by sql-capture.ts): execution time
 * and the relations read by a sequential scan. A Seq Scan that reads missions whole (100 000 rows) is the regression to
 * catch; one that stops early under a limit (a broad search's 1 001 rows, decision 042) is listed but not warned of.
 */
import pg from 'pg';
import { isTransactionControl, type CapturedEndpoint } from './sql-capture';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** A sequential scan reading at least this many rows of missions is a whole-table read (the scale holds 100 000). */
const MISSIONS_SCAN_WARNING_ROWS = 10_000;

interface ExplainOutput {
  Plan: PlanNode;
  'Planning Time': number;
  'Execution Time': number;
}

export interface ExplainedQuery {
  sql: string;
  params: unknown[];
  planningMs: number;
  executionMs: number;
  seqScans: string[];
  plan: ExplainOutput;
}

export interface ExplainResult {
  name: string;
  path: string;
  executionMs: number;
  seqScans: string[];
  seqScanOnMissions: boolean;
  queries: ExplainedQuery[];
}

function seqScanRelations(node: PlanNode, found: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) found.push(node['Relation Name']);
  for (const child of node.Plans ?? []) seqScanRelations(child, found);
  return found;
}

/** The rows the plan's sequential scans of missions read (returned and filtered out, over every loop). */
function missionsRowsScanned(node: PlanNode): number {
  const own =
    node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'missions'
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + missionsRowsScanned(child), 0);
}

export async function explainEndpoints(databaseUrl: string, endpoints: CapturedEndpoint[]): Promise<ExplainResult[]> {
  const client = new pg.Client({ connectionString: databaseUrl, options: '-c jit=off' }); // as the app's sessions (db/client.ts)
  await client.connect();
  try {
    const results: ExplainResult[] = [];
    for (const endpoint of endpoints) {
      const queries: ExplainedQuery[] = [];
      for (const query of endpoint.queries.filter((q) => !isTransactionControl(q.sql))) {
        let output: ExplainOutput | undefined;
        // ANALYZE runs the statement: inside a transaction rolled back, a write would leave no trace. The second run
        // is the one kept (the first loads the pages a warm server would already have in memory).
        for (let attempt = 0; attempt < 2; attempt += 1) {
          await client.query('begin');
          try {
            const result = await client.query<{ 'QUERY PLAN': ExplainOutput[] }>(
              `explain (analyze, buffers, format json) ${query.sql}`,
              query.params,
            );
            output = result.rows[0]?.['QUERY PLAN'][0];
          } finally {
            await client.query('rollback');
          }
        }
        if (!output) throw new Error(`EXPLAIN sans plan : ${endpoint.name}`);
        queries.push({
          sql: query.sql,
          params: query.params,
          planningMs: output['Planning Time'],
          executionMs: output['Execution Time'],
          seqScans: seqScanRelations(output.Plan),
          plan: output,
        });
      }
      const seqScans = [...new Set(queries.flatMap((q) => q.seqScans))];
      results.push({
        name: endpoint.name,
        path: endpoint.path,
        executionMs: queries.reduce((sum, q) => sum + q.executionMs, 0),
        seqScans,
        seqScanOnMissions: queries.some((q) => missionsRowsScanned(q.plan.Plan) >= MISSIONS_SCAN_WARNING_ROWS),
        queries,
      });
    }
    return results;
  } finally {
    await client.end();
  }
}

export function seqScanWarnings(results: ExplainResult[]): string[] {
  return results.filter((r) => r.seqScanOnMissions).map((r) => `⚠ ATTENTION : Seq Scan sur missions — ${r.name} (${r.path})`);
}

export function explainTable(title: string, results: ExplainResult[]): string {
  const lines = [
    `### ${title}`,
    '',
    '| endpoint | SQL queries | execution ms | slowest query ms | Seq Scan on missions | Seq Scan relations |',
    '| --- | ---: | ---: | ---: | :---: | --- |',
    ...results.map((r) => {
      const slowest = Math.max(0, ...r.queries.map((q) => q.executionMs));
      return `| ${r.name} | ${r.queries.length} | ${r.executionMs.toFixed(2)} | ${slowest.toFixed(2)} | ${r.seqScanOnMissions ? '**yes**' : 'no'} | ${r.seqScans.join(', ') || '—'} |`;
    }),
  ];
  return lines.join('\n');
}
