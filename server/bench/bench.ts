/**
 * npm run bench — loads the key reads of the production server (load.ts: wrk, else autocannon) and compares each with a bare
 * Fastify route answering the same bytes from memory. PostgreSQL at full scale (seeded once into BENCH_DATABASE_URL),
 * then the embedded database at a smaller scale. Results: bench/results/latest.{md,json}; the table is printed last.
 * After the PostgreSQL load, extras.ts adds the pgbench ceiling, the plans and the dashboard's first content.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { count, sql } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { missions } from '../src/db/schema';
import { SCALE_PASSWORD, FULL_SCALE, scaled, seedScale } from '../src/db/seed/scale';
import { BROWSER_ACCEPT_ENCODING, endpointRequests, endpointSessions, selectedEndpoints, type Endpoint, type Session } from './endpoints';
import { cpuMs, startCpuSample, type CpuPerRequest } from './cpu';
import { runPostgresExtras, type Extras } from './extras';
import { load, loadGeneratorLabel, type LoadRequest } from './load';
import { earlierMachineState, machineStateMarkdown, startMachineState } from './machine-state';
import { startServer, waitFor } from './server-process';
import { loginAs, loginTechnicians } from './sessions';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const resultsDir = path.join(root, 'bench/results');
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
/** The servers' PostgreSQL pool as they run here (PG_POOL_SIZE of this environment, else the app's default). */
const APP_POOL_SIZE = loadConfig({ PG_POOL_SIZE: process.env.PG_POOL_SIZE ?? '' }).PG_POOL_SIZE;

interface Row {
  name: string;
  area: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  bareReqPerSec: number;
  ratio: number;
  /** CPU per request of the server and of PostgreSQL over the measured load (Linux). */
  cpu?: CpuPerRequest | null;
  /**
   * The same load with READ_CACHE=false: every answer computed (the miss path), sessions kept in memory as in
   * production (SESSION_CACHE, decision 030): a first visit, a read right after a write, a read on another instance.
   */
  uncached?: { reqPerSec: number; p50: number; p99: number; errors: number; cpu?: CpuPerRequest | null | undefined };
  /** And with SESSION_CACHE=false too: each request also looks its session up (the column of earlier runs). */
  noCache?: { reqPerSec: number; p50: number; p99: number; errors: number; cpu?: CpuPerRequest | null | undefined };
  /** PGlite rows: the share of the PostgreSQL throughput for the same read. */
  ofPostgres?: number;
}

/**
 * Every session's answer checked (status and shape) before and after the load, so that errors count a wrong answer and
 * not only a failed request: under wrk the answers of the load itself are not parsed (a C client, decision 036).
 */
async function shapeErrors(base: string, endpoint: Endpoint, sessions: Session[]): Promise<number> {
  let errors = 0;
  for (const session of sessions) {
    try {
      const response = await fetch(`${base}${endpoint.path(session)}`, { headers: { cookie: session.cookie } });
      if (!response.ok || !endpoint.check(await response.json())) errors += 1;
    } catch {
      errors += 1;
    }
  }
  return errors;
}

/** An answer's status, bytes and Content-Encoding as they come on the wire (fetch would decompress them). */
function rawAnswer(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: Buffer; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const encoding = response.headers['content-encoding'];
          resolve({ status: response.statusCode ?? 0, bytes: Buffer.concat(chunks), encoding: typeof encoding === 'string' ? encoding : undefined });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function benchEndpoint(
  base: string,
  endpoint: Endpoint,
  sessions: Session[],
  connections: number,
  barePort: number | null,
  serverPid: number | undefined,
): Promise<Row> {
  const requests = endpointRequests(endpoint, sessions);
  // The bytes the app sends for these headers (compressed when over 1 KiB), from memory on a bare Fastify route: the
  // ceiling of this machine for that answer.
  const sample = await rawAnswer(`${base}${endpoint.path(sessions[0]!)}`, requests[0]!.headers);
  if (sample.status !== 200) throw new Error(`${endpoint.name}: ${sample.status} ${sample.bytes.toString()}`);
  let bareReqPerSec = 0;
  if (barePort !== null) {
    const bare = Fastify();
    bare.get('/*', (_req, reply) => {
      if (sample.encoding) reply.header('content-encoding', sample.encoding);
      return reply.type('application/json; charset=utf-8').send(sample.bytes);
    });
    await bare.listen({ port: barePort, host: '127.0.0.1' });
    const bareBase = `http://127.0.0.1:${barePort}`;
    await load(bareBase, connections, Math.max(1, Math.round(WARMUP_S / 2)), requests);
    bareReqPerSec = (await load(bareBase, connections, DURATION_S, requests)).reqPerSec;
    await bare.close();
  }

  let errors = await shapeErrors(base, endpoint, sessions);
  await load(base, connections, WARMUP_S, requests);
  const cpu = startCpuSample(serverPid);
  const result = await load(base, connections, DURATION_S, requests);
  const perRequest = cpu.stop(result.total);
  errors += result.errors + (await shapeErrors(base, endpoint, sessions));
  return {
    name: endpoint.name,
    area: endpoint.area,
    reqPerSec: Math.round(result.reqPerSec),
    p50: result.p50,
    p99: result.p99,
    errors,
    bareReqPerSec: Math.round(bareReqPerSec),
    ratio: bareReqPerSec ? result.reqPerSec / bareReqPerSec : 0,
    cpu: perRequest && { ...perRequest, client: result.clientCpu },
  };
}

async function benchLogin(base: string, connections: number): Promise<Row> {
  // Logins of 400 technicians from many client addresses (the per-address limit stays out of the way, as for a crowd).
  const requests: LoadRequest[] = Array.from({ length: 2000 }, (_, i) => ({
    method: 'POST',
    path: '/api/auth/login',
    headers: {
      'content-type': 'application/json',
      origin: base,
      'x-forwarded-for': `10.${i % 250}.${Math.floor(i / 250)}.${1 + Math.floor(Math.random() * 250)}`,
    },
    body: JSON.stringify({ email: `tech${1 + Math.floor(Math.random() * 400)}@bench.maillon.test`, password: SCALE_PASSWORD }),
  }));
  const result = await load(base, connections, DURATION_S, requests);
  return {
    name: 'Connexion (scrypt 32 Mio)',
    area: 'auth',
    reqPerSec: Math.round(result.reqPerSec),
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    bareReqPerSec: 0,
    ratio: 0,
  };
}

const percent = (value: number | undefined) => (value ? `${(value * 100).toFixed(1)} %` : '—');

function table(title: string, rows: Row[]): string {
  const ofPostgres = rows.some((r) => r.ofPostgres !== undefined);
  const lines = [
    `### ${title}`,
    '',
    `| endpoint | area | req/s | p50 ms | p99 ms | errors | bare req/s | ratio |${ofPostgres ? ' vs PostgreSQL |' : ''}`,
    `| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |${ofPostgres ? ' ---: |' : ''}`,
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.area} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.bareReqPerSec || '—'} | ${percent(r.ratio)} |` +
        (ofPostgres ? ` ${percent(r.ofPostgres)} |` : ''),
    ),
  ];
  return lines.join('\n');
}

/**
 * The miss path: the read cache off with sessions in memory (what production pays on a first visit, right after a
 * write, on another instance), the CPU each request cost the server and PostgreSQL, and the same with no cache at all.
 */
function uncachedTable(title: string, rows: Row[]): string {
  const lines = [
    `### ${title}`,
    '',
    '| endpoint | area | sans cache req/s | p50 ms | p99 ms | errors | CPU Node ms/req | CPU PostgreSQL ms/req | CPU client ms/req | sans aucun cache req/s | p50 ms | p99 ms |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows
      .filter((r) => r.uncached)
      .map((r) => {
        const miss = r.uncached!;
        const none = r.noCache;
        return (
          `| ${r.name} | ${r.area} | ${miss.reqPerSec} | ${miss.p50} | ${miss.p99} | ${miss.errors} | ${cpuMs(miss.cpu?.node)} | ${cpuMs(miss.cpu?.postgres)} | ${cpuMs(miss.cpu?.client)} |` +
          ` ${none ? `${none.reqPerSec} | ${none.p50} | ${none.p99}` : '— | — | —'} |`
        );
      }),
  ];
  return lines.join('\n');
}

/** Issue 10's targets, each checked against this run's figures. */
function targets(pgRows: Row[], pgliteRows: Row[]): string {
  const lines = ['### Cibles (issue 10)', '', '| cible | endpoint | mesure | atteinte |', '| --- | --- | --- | :---: |'];
  const add = (target: string, name: string, measure: string, ok: boolean) => lines.push(`| ${target} | ${name} | ${measure} | ${ok ? 'oui' : '**non**'} |`);
  for (const r of pgRows.filter((row) => row.area === 'technicien')) {
    add('technicien : p99 ≤ 25 ms et ≥ 20 % du bare', r.name, `p99 ${r.p99} ms, ${percent(r.ratio)}`, r.p99 <= 25 && r.ratio >= 0.2);
  }
  for (const r of pgRows.filter((row) => row.area === 'admin')) {
    if (r.name === 'Compteurs admin') add('compteurs admin : p50 ≤ 5 ms', r.name, `p50 ${r.p50} ms`, r.p50 <= 5);
    else add('listes admin : p99 ≤ 50 ms', r.name, `p99 ${r.p99} ms`, r.p99 <= 50);
  }
  for (const r of pgliteRows.filter((row) => row.area === 'technicien')) {
    add('PGlite : ≥ 25 % de PostgreSQL et p99 ≤ 50 ms', r.name, `${percent(r.ofPostgres)}, p99 ${r.p99} ms`, (r.ofPostgres ?? 0) >= 0.25 && r.p99 <= 50);
  }
  return lines.join('\n');
}

/**
 * Issue 22's targets, read cache off (the `sans cache` columns: a first visit, a read right after a write, a read on
 * another instance), each checked against this run: the targets live here, not in timed tests.
 */
function uncachedTargets(pgRows: Row[], extras: Extras['json']): string {
  const lines = ['### Cibles (issue 22, sans cache)', '', '| cible | endpoint | mesure | atteinte |', '| --- | --- | --- | :---: |'];
  const add = (target: string, name: string, measure: string, ok: boolean) => lines.push(`| ${target} | ${name} | ${measure} | ${ok ? 'oui' : '**non**'} |`);
  for (const r of pgRows) {
    const miss = r.uncached;
    if (!miss) continue;
    if (r.area === 'technicien') {
      add('technicien : p99 ≤ 50 ms et ≥ 1 000 req/s', r.name, `p99 ${miss.p99} ms, ${miss.reqPerSec} req/s`, miss.p99 <= 50 && miss.reqPerSec >= 1000);
      const plan = extras.explain.find((e) => e.name === r.name);
      if (plan) add('technicien : aucune requête SQL > 2 ms', r.name, `${plan.slowestMs.toFixed(2)} ms`, plan.slowestMs <= 2);
    } else if (r.name === 'Compteurs admin') {
      add('compteurs admin : p50 ≤ 5 ms', r.name, `p50 ${miss.p50} ms`, miss.p50 <= 5);
    } else if (r.area === 'admin') {
      add('listes admin : p99 ≤ 100 ms', r.name, `p99 ${miss.p99} ms`, miss.p99 <= 100);
    }
    const pgbench = extras.pgbench.find((p) => p.name === r.name);
    if (pgbench?.tps) add('sans cache ≥ 50 % de pgbench', r.name, percent(miss.reqPerSec / pgbench.tps), miss.reqPerSec / pgbench.tps >= 0.5);
    // What that target means (« the Node process adds at most as much as the database »), measured directly.
    const cpu = miss.cpu;
    if (cpu?.postgres) add('CPU Node ≤ CPU PostgreSQL par requête', r.name, `${cpuMs(cpu.node)} ms / ${cpuMs(cpu.postgres)} ms`, cpu.node <= cpu.postgres);
  }
  return lines.join('\n');
}

async function ensureSeeded(target: { DATABASE_URL?: string; DATA_DIR: string }, factor: number): Promise<void> {
  const database = openDatabase(target);
  await database.migrate();
  // Counters of a previous run would throttle this run's logins.
  await database.db.execute(sql`delete from rate_limits`);
  const [row] = await database.db.select({ n: count() }).from(missions);
  if ((row?.n ?? 0) === 0) {
    console.log(`Remplissage (${database.kind}, facteur ${factor})…`);
    await seedScale(database.db, factor === 1 ? FULL_SCALE : scaled(factor), (l) => console.log(l));
  }
  // The state autovacuum keeps a production database in: visibility map set (index-only scans), GIN pending lists
  // merged, statistics current. A freshly seeded database has none of these and would measure plans nobody runs.
  console.log(`vacuum analyze (${database.kind})…`);
  await database.db.execute(sql`vacuum analyze`);
  await database.close();
}

async function runPass(
  label: string,
  env: Record<string, string>,
  connections: number,
  port: number,
  options: { bare: boolean; login: boolean } = { bare: true, login: true },
): Promise<Row[]> {
  const server = startServer(env, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/api/public/config`);
    const technicians = await loginTechnicians(base, 32);
    const admin = [await loginAs(base)];
    const rows: Row[] = [];
    for (const endpoint of selectedEndpoints()) {
      console.log(`${label} — ${endpoint.name}…`);
      const sessions = endpointSessions(endpoint, admin, technicians);
      rows.push(await benchEndpoint(base, endpoint, sessions, connections, options.bare ? port + 1 : null, server.pid));
    }
    if (options.login) {
      console.log(`${label} — connexion…`);
      rows.push(await benchLogin(base, Math.min(connections, 8)));
    }
    return rows;
  } finally {
    server.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/maillon_bench';
  const admin = new pg.Client({ connectionString: new URL('/postgres', baseUrl).toString() });
  await admin.connect();
  const dbName = new URL(baseUrl).pathname.slice(1);
  const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
  if (exists.rowCount === 0) await admin.query(`create database ${dbName}`);
  await admin.end();
  await ensureSeeded({ DATABASE_URL: baseUrl, DATA_DIR: os.tmpdir() }, 1);
  // The machine's state at the start of the PostgreSQL measures, after each of their passes and at their end, which the
  // figures are read against: a drift in the middle of the run shows even when it is over by its end.
  const state = await startMachineState(baseUrl);
  // The first pass with the read cache on (READ_CACHE=true, off by default since decision 090): issue 10's targets.
  const pgRows = await runPass('PostgreSQL', { DATABASE_URL: baseUrl, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), READ_CACHE: 'true' }, 32, 3300);
  await state.between('le passage avec cache');
  // The same reads with the read cache off (docs/decisions/014, 030): what a first visit, a read right after a write or
  // a read on another instance costs; sessions stay in memory as they do in production (SESSION_CACHE).
  const uncachedRows = await runPass(
    'PostgreSQL sans cache',
    { DATABASE_URL: baseUrl, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), READ_CACHE: 'false' },
    32,
    3330,
    { bare: false, login: false },
  );
  await state.between('le passage sans cache');
  // And with no cache at all (SESSION_CACHE=false): every request also reads its session, as earlier runs measured.
  const noCacheRows = await runPass(
    'PostgreSQL sans aucun cache',
    { DATABASE_URL: baseUrl, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-')), READ_CACHE: 'false', SESSION_CACHE: 'false' },
    32,
    3340,
    { bare: false, login: false },
  );
  await state.between('le passage sans aucun cache');
  const figures = (row: Row | undefined) =>
    row && { reqPerSec: row.reqPerSec, p50: row.p50, p99: row.p99, errors: row.errors, cpu: row.cpu };
  for (const row of pgRows) {
    row.uncached = figures(uncachedRows.find((r) => r.name === row.name));
    row.noCache = figures(noCacheRows.find((r) => r.name === row.name));
  }
  // pgbench ceiling, plans and first content on the same data (server/bench/extras.ts); the browser step is on in full runs.
  const extras = await runPostgresExtras({
    databaseUrl: baseUrl,
    endpoints: selectedEndpoints(),
    rows: pgRows,
    clients: 32,
    poolSize: APP_POOL_SIZE,
    warmupS: WARMUP_S,
    durationS: DURATION_S,
    port: 3320,
    explainFile: process.env.BENCH_ONLY ? path.join(os.tmpdir(), 'maillon-bench-explain.json') : path.join(resultsDir, 'explain.json'),
    browser: (process.env.BENCH_BROWSER ?? (process.env.BENCH_ONLY ? 'false' : 'true')) === 'true',
  });
  const machineState = await state.finish('les plafonds, les plans et le premier contenu');
  const stateSection = machineStateMarkdown('État de la machine', machineState, earlierMachineState(path.join(resultsDir, 'latest.json')));

  if (process.env.BENCH_ONLY) {
    // A partial run (one optimisation at a time) prints its table without touching the published results.
    console.log(
      `\n${stateSection}\n\n${table('PostgreSQL — run partiel', pgRows)}\n\n${uncachedTable('PostgreSQL — sans cache (run partiel)', pgRows)}\n\n${extras.markdown}\n\n${uncachedTargets(pgRows, extras.json)}\n`,
    );
    return;
  }
  const embeddedDir = process.env.BENCH_PGLITE_DIR ?? path.join(os.tmpdir(), 'maillon-bench-pglite');
  await ensureSeeded({ DATA_DIR: embeddedDir }, 0.1);
  const pgliteRows = await runPass('PGlite', { DATABASE_URL: '', DATA_DIR: embeddedDir, READ_CACHE: 'true' }, 20, 3310);
  for (const row of pgliteRows) {
    const onPostgres = pgRows.find((r) => r.name === row.name);
    if (onPostgres && row.bareReqPerSec) row.ofPostgres = row.reqPerSec / Math.max(1, onPostgres.reqPerSec);
  }

  fs.mkdirSync(resultsDir, { recursive: true });
  const machine = `${os.cpus().length} cœurs, ${Math.round(os.totalmem() / 2 ** 30)} Gio, Node ${process.version}`;
  const markdown = [
    `## Benchmark du ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${machine})`,
    '',
    `Charge : ${loadGeneratorLabel()}, ${WARMUP_S} s de chauffe puis ${DURATION_S} s ; chaque requête demande une réponse compressée comme Chromium (Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}) ; « bare » = route Fastify nue renvoyant les mêmes octets (compressés au-delà de 1 Kio) depuis la mémoire ; « errors » compte aussi chaque réponse de chaque session vérifiée (statut et forme) avant et après la charge.`,
    '',
    stateSection,
    '',
    table('PostgreSQL — pleine échelle (100 000 missions, 32 connexions)', pgRows),
    '',
    uncachedTable('PostgreSQL — sans cache de lecture (READ_CACHE=false), puis sans aucun cache (SESSION_CACHE=false aussi)', pgRows),
    '',
    extras.markdown,
    '',
    table('PGlite embarqué — échelle 1/10 (20 connexions)', pgliteRows),
    '',
    targets(pgRows, pgliteRows),
    '',
    uncachedTargets(pgRows, extras.json),
  ].join('\n');
  fs.writeFileSync(path.join(resultsDir, 'latest.md'), `${markdown}\n`);
  fs.writeFileSync(path.join(resultsDir, 'latest.json'), JSON.stringify({ date: new Date().toISOString(), machine, loader: loadGeneratorLabel(), machineState, postgres: pgRows, postgresExtras: extras.json, pglite: pgliteRows }, null, 2));
  console.log(`\n${markdown}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
