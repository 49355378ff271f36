/**
 * « Plafond de la pile »: each endpoint's captured SQL behind a bare Fastify route on node-postgres
 * (stack-ceiling-server.ts), loaded like the app, with the CPU each request costs that process and PostgreSQL.
 *
 * pgbench is the database alone. Issue 22 asks the app for half of it uncached (« the Node process adds at most as much
 * as the database »). This column says how much of pgbench any Node server on this stack keeps for the same SQL and the
 * same answer bytes, with nothing of the app in it. The gap between the app and this column is the app's own work; the
 * gap between this column and pgbench is HTTP, the driver and the round trips on this machine.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCpuSample, type CpuPerRequest } from './cpu';
import { BROWSER_ACCEPT_ENCODING } from './endpoints';
import { load, type LoadRequest } from './load';
import { paramText } from './pgbench';
import { productionNodeFlags } from './server-process';
import type { CapturedEndpoint } from './sql-capture';
import type { StackCeilingSpec } from './stack-ceiling-server';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface StackCeilingResult {
  name: string;
  reqPerSec: number | null;
  cpu: CpuPerRequest | null;
  error: string | null;
}

function waitReady(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`plafond de la pile : arrêt (code ${code}) ${output.slice(0, 300)}`)));
  });
}

export async function runStackCeiling(options: {
  databaseUrl: string;
  endpoints: CapturedEndpoint[];
  /** The app's pool (PG_POOL_SIZE's default) and the load's connections, as the bench runs the app. */
  poolSize: number;
  connections: number;
  warmupS: number;
  durationS: number;
  port: number;
  log?: (line: string) => void;
}): Promise<StackCeilingResult[]> {
  const spec: StackCeilingSpec = {
    databaseUrl: options.databaseUrl,
    poolSize: options.poolSize,
    port: options.port,
    endpoints: options.endpoints.map((endpoint) => ({
      queries: endpoint.queries.map((query) => ({ sql: query.sql, params: query.params.map(paramText) })),
      answer: { bytes: endpoint.answer.bytes.toString('base64'), encoding: endpoint.answer.encoding, contentType: endpoint.answer.contentType },
    })),
  };
  const specFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ceiling-')), 'spec.json');
  fs.writeFileSync(specFile, JSON.stringify(spec));
  const child = spawn(process.execPath, [...productionNodeFlags(), '--import', 'tsx', path.join(here, 'stack-ceiling-server.ts'), specFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const results: StackCeilingResult[] = [];
  try {
    await waitReady(child);
    const base = `http://127.0.0.1:${options.port}`;
    for (const [i, endpoint] of options.endpoints.entries()) {
      options.log?.(`plafond de la pile — ${endpoint.name}…`);
      // The headers the bench's requests carry: a session cookie (unread here) and the Accept-Encoding the answer was
      // captured with.
      const requests: LoadRequest[] = [
        {
          method: 'GET',
          path: `/e/${i}`,
          headers: {
            cookie: `maillon_session=${'x'.repeat(43)}`,
            ...(BROWSER_ACCEPT_ENCODING ? { 'accept-encoding': BROWSER_ACCEPT_ENCODING } : {}),
          },
        },
      ];
      try {
        await load(base, options.connections, options.warmupS, requests);
        const cpu = startCpuSample(child.pid);
        const result = await load(base, options.connections, options.durationS, requests);
        const perRequest = cpu.stop(result.total);
        results.push({
          name: endpoint.name,
          reqPerSec: result.errors > 0 ? null : Math.round(result.reqPerSec),
          cpu: perRequest,
          error: result.errors > 0 ? `${result.errors} erreurs` : null,
        });
      } catch (error) {
        results.push({ name: endpoint.name, reqPerSec: null, cpu: null, error: (error as Error).message });
      }
    }
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(path.dirname(specFile), { recursive: true, force: true });
  }
  return results;
}
