/**
 * npm run bench:mixed — the mixed workload of issue 22: 100 simulated users (99 technicians with a Recruté lot and one
 * admin) for 60 s against two server instances sharing one PostgreSQL (the full-scale bench database), each user
 * alternating reads and writes (about 10 % writes: device toggles, visit dates, the lot comment, applications, admin
 * edits) with a short think time between requests, spread over both instances. Reports p50 / p95 / p99 per endpoint,
 * errors, the read cache's hit ratio when it is on (from each instance's /metrics) and the disk's flush latency over the
 * same minute (disk-probe.ts: a commit's floor), written to bench/results/mixed.md / .json. Beside the client's latencies, the
 * servers' own: per route, the share of requests each instance held over 50 and 100 ms (its duration histogram), and
 * each event loop's lag; and this client's own lag and CPU, which every latency it measures includes. The applications
 * the run makes are withdrawn at its end, so that runs repeat the same mix.
 *
 * Options (environment): BENCH_DATABASE_URL (default postgres://…/maillon_bench), MIXED_USERS (100), MIXED_DURATION
 * (60 s, recorded after MIXED_WARMUP, 10 s), MIXED_WRITE_SHARE (0.1), MIXED_THINK_MS (mean think time, 250), READ_CACHE
 * (false, the app's default since decision 090; true turns the read cache on), MIXED_INSTANCES (2).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import pg from 'pg';
import { startDiskProbe, type DiskFlushes } from './disk-probe';
import { earlierMachineState, machineStateMarkdown, startMachineState } from './machine-state';
import { startServer, waitFor } from './server-process';
import { loginAs } from './sessions';
import type { Session } from './endpoints';

const here = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.resolve(here, '../../bench/results');
const USERS = Number(process.env.MIXED_USERS ?? 100);
const DURATION_S = Number(process.env.MIXED_DURATION ?? 60);
/** Users run this long before anything is recorded: JIT, each connection's first preparing and planning, a cold start. */
const WARMUP_S = Number(process.env.MIXED_WARMUP ?? 10);
/** When the recorded window starts (set once the warm-up is over). */
let recordingFrom = Infinity;
const WRITE_SHARE = Number(process.env.MIXED_WRITE_SHARE ?? 0.1);
const THINK_MS = Number(process.env.MIXED_THINK_MS ?? 250);
const READ_CACHE = process.env.READ_CACHE ?? 'false';
const METRICS_TOKEN = crypto.randomBytes(16).toString('hex');
const PORTS = Array.from({ length: Number(process.env.MIXED_INSTANCES ?? 2) }, (_, i) => 3360 + i);

interface Technician extends Session {
  technicianId: string;
  applicationId: string;
  missionIds: string[];
  base: string;
}

interface Action {
  name: string;
  write: boolean;
  method: string;
  path: string;
  body?: unknown;
  /** Statuses that are a correct answer (an application to a lot already applied to is refused with 409). */
  ok?: number[];
}

const samples = new Map<string, { write: boolean; example: Action; latencies: number[]; errors: number; statuses: Map<number, number> }>();

function record(action: Action, ms: number, status: number): void {
  if (Date.now() < recordingFrom) return;
  let entry = samples.get(action.name);
  if (!entry) samples.set(action.name, (entry = { write: action.write, example: action, latencies: [], errors: 0, statuses: new Map() }));
  entry.latencies.push(ms);
  entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  if (!(action.ok ?? [200, 201]).includes(status)) entry.errors += 1;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function technicianAction(t: Technician, lotIds: string[]): Action {
  const id = t.technicianId;
  if (Math.random() < WRITE_SHARE) {
    const missionId = pick(t.missionIds);
    return pick<Action>([
      { name: 'écriture — appareil fait / à faire', write: true, method: 'PATCH', path: `/api/technician-mission-data/${missionId}/${id}`, body: { isCompleted: Math.random() < 0.5 } },
      { name: 'écriture — date de visite', write: true, method: 'PATCH', path: `/api/technician-mission-data/${missionId}/${id}`, body: { plannedVisitDate: day(1 + Math.floor(Math.random() * 30)) } },
      { name: 'écriture — commentaire du lot', write: true, method: 'PUT', path: `/api/applications/${t.applicationId}/technician-comment`, body: { content: `Passage prévu ${day(2)}` } },
      ...(lotIds.length
        ? [{ name: 'écriture — candidature', write: true, method: 'POST', path: '/api/applications/batch', body: { batchId: pick(lotIds), technicianId: id }, ok: [201, 409] }]
        : []),
    ]);
  }
  return pick<Action>([
    { name: 'Trouver des missions (les plus proches)', write: false, method: 'GET', path: `/api/mission-batches/available-for-application?technicianId=${id}&limit=20` },
    { name: 'Trouver des missions (les plus récents)', write: false, method: 'GET', path: `/api/mission-batches/available-for-application?technicianId=${id}&sort=recent&limit=20` },
    { name: 'Candidatures', write: false, method: 'GET', path: `/api/applications?technicianId=${id}` },
    { name: "Compteurs d'onglets", write: false, method: 'GET', path: `/api/technicians/${id}/counts` },
    { name: 'Factures', write: false, method: 'GET', path: `/api/technician/${id}/invoices` },
    { name: 'Terrain (lot recruté)', write: false, method: 'GET', path: `/api/applications/${t.applicationId}/work` },
    // What « Trouver des missions » reads beside its page, and every screen's first read (decision 036).
    { name: 'Filtres des lots', write: false, method: 'GET', path: '/api/mission-batches/available-filters' },
    { name: 'Carte des lots', write: false, method: 'GET', path: `/api/mission-batches/available-for-application/map?technicianId=${id}` },
    { name: 'Session', write: false, method: 'GET', path: '/api/auth/me' },
  ]);
}

function adminAction(missions: { id: string; body: Record<string, unknown> }[]): Action {
  if (Math.random() < WRITE_SHARE && missions.length) {
    const mission = pick(missions);
    return { name: 'écriture — admin modifie une mission', write: true, method: 'PUT', path: `/api/missions/${mission.id}`, body: { ...mission.body, observations: `Revu ${new Date().toISOString()}` } };
  }
  return pick<Action>([
    { name: 'Compteurs admin', write: false, method: 'GET', path: '/api/admin/counts' },
    { name: 'Liste des missions (page 1)', write: false, method: 'GET', path: '/api/missions' },
    { name: 'Recherche missions', write: false, method: 'GET', path: '/api/missions?search=Site%201234&limit=20' },
    { name: 'Page des lots', write: false, method: 'GET', path: '/api/mission-batches?limit=20' },
    { name: 'Recherche lots', write: false, method: 'GET', path: '/api/mission-batches?search=Lot%2012&limit=20' },
    { name: 'À trier', write: false, method: 'GET', path: '/api/missions?unbatched=true&limit=50&offset=0' },
    { name: 'Page des factures', write: false, method: 'GET', path: '/api/invoices?limit=20' },
    { name: 'Page des techniciens', write: false, method: 'GET', path: '/api/technicians?status=active&limit=20' },
    { name: 'Page des techniciens (écran admin)', write: false, method: 'GET', path: '/api/technicians/enhanced?status=active&limit=10' },
    // Expéditions' first page: a lot whose devices the technicians just toggled is computed again (decision 060).
    { name: 'Propositions de colis', write: false, method: 'GET', path: '/api/admin/parts/proposals' },
  ]);
}

/**
 * The load generator shares this machine's two cores with the servers and PostgreSQL: it sends with node:http over
 * kept-alive connections (fetch cost about 1.1 ms of CPU per request here, a third of a core at this load, taken from
 * the system under test). It asks for compressed answers as a browser does (the servers pay brotli or gzip as in
 * production) and decompresses only the bodies it reads.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function decoded(encoding: string | undefined, raw: Buffer): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(raw).toString();
  return raw.toString();
}

async function send(base: string, cookie: string, action: Action, readBody = false): Promise<{ status: number; body: unknown }> {
  const started = performance.now();
  const payload = action.body !== undefined ? JSON.stringify(action.body) : undefined;
  const { status, body } = await new Promise<{ status: number; body: unknown }>((resolve) => {
    const request = http.request(
      `${base}${action.path}`,
      {
        method: action.method,
        agent,
        headers: {
          cookie,
          origin: base,
          'accept-encoding': 'br, gzip',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let parsed: unknown = null;
          if (readBody) {
            try {
              const text = decoded(response.headers['content-encoding'], Buffer.concat(chunks));
              parsed = text ? JSON.parse(text) : null;
            } catch {
              parsed = null;
            }
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
        response.on('error', () => resolve({ status: 0, body: null }));
      },
    );
    request.on('error', () => resolve({ status: 0, body: null }));
    request.end(payload);
  });
  record(action, performance.now() - started, status);
  return { status, body };
}

interface ServerCounters {
  hits: number;
  misses: number;
  /** The instance's event-loop lag since the previous scrape (prom-client resets its histogram on each), in ms. */
  lagP99: number;
  lagMax: number;
  /** Its garbage collections so far, all kinds: their time (ms) and how many took over 10 ms (prom-client's buckets). */
  gcMs: number;
  gcOver10: Record<string, number>;
  /** Per method and route pattern: the requests the instance answered, and those that took over 50 and 100 ms. */
  durations: Map<string, { count: number; over50: number; over100: number }>;
}

/** The collections over 10 ms between two scrapes, per kind (minor: scavenges of the young generation). */
function gcPauses(after: Record<string, number>, before: Record<string, number>): string {
  const kinds = Object.entries(after).map(([kind, n]) => [kind, n - (before[kind] ?? 0)] as const).filter(([, n]) => n > 0);
  return kinds.length ? kinds.map(([kind, n]) => `${n} (${kind})`).join(', ') : 'aucune';
}

/** The sum of a metric's series (the first group of `pattern`, a global multiline regex) in a Prometheus text. */
function sumOf(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].reduce((sum, match) => sum + Number(match[1]), 0);
}

async function serverCounters(base: string): Promise<ServerCounters> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? 0);
  // The histogram of observability.ts, summed over status codes: its buckets at 0.05 and 0.1 s tell how many
  // requests the server itself held longer than that, whatever the client's own delays.
  const durations = new Map<string, { count: number; le50: number; le100: number }>();
  for (const match of text.matchAll(/^http_request_duration_seconds_(bucket|count)\{([^}]*)\} ([0-9.e+]+)$/gm)) {
    const labels = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const key = `${labels.method} ${labels.route}`;
    const entry = durations.get(key) ?? { count: 0, le50: 0, le100: 0 };
    const n = Number(match[3]);
    if (match[1] === 'count') entry.count += n;
    else if (labels.le === '0.05') entry.le50 += n;
    else if (labels.le === '0.1') entry.le100 += n;
    durations.set(key, entry);
  }
  return {
    hits: value('maillon_read_cache_hits_total'),
    misses: value('maillon_read_cache_misses_total'),
    lagP99: value('nodejs_eventloop_lag_p99_seconds') * 1000,
    lagMax: value('nodejs_eventloop_lag_max_seconds') * 1000,
    gcMs: sumOf(text, /^nodejs_gc_duration_seconds_sum\{[^}]*\} ([0-9.e+-]+)$/gm) * 1000,
    gcOver10: Object.fromEntries(
      [...text.matchAll(/^nodejs_gc_duration_seconds_count\{kind="(\w+)"\} ([0-9.e+-]+)$/gm)].map((m) => [
        m[1]!,
        Number(m[2]) - sumOf(text, new RegExp(`^nodejs_gc_duration_seconds_bucket\\{le="0\\.01",kind="${m[1]}"\\} ([0-9.e+-]+)$`, 'gm')),
      ]),
    ),
    durations: new Map([...durations].map(([key, d]) => [key, { count: d.count, over50: d.count - d.le50, over100: d.count - d.le100 }])),
  };
}

/** The histogram's key (method and route pattern, as observability.ts labels it) that answers an action. */
function routeKeyOf(action: Pick<Action, 'method' | 'path'>, keys: Iterable<string>): string | null {
  const pathname = action.path.split('?')[0]!;
  for (const key of keys) {
    const [method, pattern] = key.split(' ') as [string, string];
    if (method !== action.method) continue;
    const regex = new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}$`);
    if (regex.test(pathname)) return key;
  }
  return null;
}

/** The disk probe's figures (disk-probe.ts): a commit waits for such a flush, so its tail is every write's floor. */
function diskFigures({ where, sameFileSystem, latencies }: DiskFlushes) {
  return {
    where,
    sameFileSystem,
    flushes: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    p999: percentile(latencies, 99.9),
    max: latencies.at(-1) ?? 0,
    over100: latencies.filter((ms) => ms > 100).length,
  };
}

function diskSentence(disk: ReturnType<typeof diskFigures>): string {
  const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
  const place = disk.sameFileSystem === true ? 'sur le système de fichiers de PostgreSQL' : disk.sameFileSystem === false ? 'hors du système de fichiers de PostgreSQL' : `dans ${disk.where}`;
  return (
    `Disque pendant la mesure (8 Kio écrits puis fdatasync toutes les 20 ms, ${place}) : ${disk.flushes} écritures, ` +
    `p50 ${ms(disk.p50)} ms, p99 ${ms(disk.p99)} ms, p99,9 ${ms(disk.p999)} ms, max ${ms(disk.max)} ms, ${disk.over100} au-delà de 100 ms.`
  );
}

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/maillon_bench';
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('delete from rate_limits');
  // Where PostgreSQL keeps its files (a superuser or pg_read_all_settings may read it), for the disk probe.
  const dataDirectory = await client
    .query<{ data_directory: string }>('show data_directory')
    .then((result) => result.rows[0]?.data_directory ?? null)
    .catch(() => null);
  // Technicians with a Recruté lot holding devices: their field writes are allowed.
  const recruited = await client.query<{ email: string; application_id: string; mission_ids: string[] }>(
    `select distinct on (t.id) t.email, a.id as application_id,
       (select array_agg(m.id) from (select id from missions where batch_id = a.batch_id order by id limit 5) m) as mission_ids
     from applications a join technicians t on t.id = a.technician_id join mission_batches b on b.id = a.batch_id
     where a.status = 'Recruté' and b.status = 'active' and t.status = 'active' and exists (select 1 from missions where batch_id = a.batch_id)
     order by t.id, a.id limit $1`,
    [USERS - 1],
  );
  if (recruited.rows.length < USERS - 1) {
    await client.end();
    throw new Error(`only ${recruited.rows.length} recruited technicians in ${databaseUrl}`);
  }
  // The applications the run makes are withdrawn at its end: each run starts from the same lots to apply to (else the
  // technicians run out of lots on their first page after a few runs, and the mix loses its applications).
  const created: string[] = [];

  const env = { DATABASE_URL: databaseUrl, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-mixed-')), READ_CACHE, METRICS_TOKEN };
  // The machine's state before the servers start and once the measured minute is over (machine-state.ts).
  const state = await startMachineState(databaseUrl);
  const servers = PORTS.map((port) => startServer(env, port));
  const bases = PORTS.map((port) => `http://127.0.0.1:${port}`);
  try {
    await Promise.all(bases.map((base) => waitFor(`${base}/api/public/config`)));
    console.log(`Mixte — connexion de ${USERS} utilisateurs…`);
    const technicians: Technician[] = [];
    for (const [i, row] of recruited.rows.entries()) {
      const base = bases[i % bases.length]!;
      const session = await loginAs(base, row.email, `10.9.${Math.floor(i / 250)}.${i % 250}`);
      technicians.push({ ...session, technicianId: session.technicianId!, applicationId: row.application_id, missionIds: row.mission_ids, base });
    }
    const admin = await loginAs(bases[0]!);
    const firstPage = (await (await fetch(`${bases[0]}/api/missions?limit=20`, { headers: { cookie: admin.cookie } })).json()) as Record<string, string | null>[];
    const editable = firstPage.map((m) => ({
      id: m.id!,
      body: {
        serialNumber: m.serialNumber,
        clientName: m.clientName,
        defibrillatorModel: m.defibrillatorModel,
        visitType: m.visitType,
        department: m.department,
        completionLink: m.completionLink,
        address: m.location,
        title: m.title,
        description: m.description,
      },
    }));
    console.log(`Mixte — ${USERS} utilisateurs, ${WARMUP_S} s de chauffe puis ${DURATION_S} s mesurées sur ${bases.length} instances (READ_CACHE=${READ_CACHE})…`);
    const end = Date.now() + (WARMUP_S + DURATION_S) * 1000;
    let before: ServerCounters[] = [];
    let loadBefore = 0;
    // This process's own delays count in every latency it measures: its event loop's lag and its CPU are reported.
    const clientLag = monitorEventLoopDelay({ resolution: 10 });
    let clientCpuBefore = process.cpuUsage();
    const warmedUp = (async () => {
      await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
      before = await Promise.all(bases.map(serverCounters));
      loadBefore = os.loadavg()[0]!;
      recordingFrom = Date.now();
      clientLag.enable();
      clientCpuBefore = process.cpuUsage();
      return startDiskProbe(dataDirectory);
    })();
    const think = () => new Promise((r) => setTimeout(r, THINK_MS * 2 * Math.random()));
    const technicianLoop = async (t: Technician, i: number) => {
      let lotIds: string[] = [];
      let turn = i;
      while (Date.now() < end) {
        // Each request goes to either instance, as behind a load balancer: a write on one, the next read on the other.
        const base = bases[turn++ % bases.length]!;
        const action = technicianAction(t, lotIds);
        const readsLots = !action.write && action.path.includes('available-for-application');
        const applies = action.path === '/api/applications/batch';
        const { status, body } = await send(base, t.cookie, action, readsLots || applies);
        // A technician applies to the lots of the page they read that the screen lets them apply to (not applied to
        // yet, no technician selected): the measured applications are inserts, not refusals.
        if (readsLots && Array.isArray(body)) {
          lotIds = (body as { id: string; hasApplied: boolean; isAssigned: boolean }[])
            .filter((lot) => !lot.hasApplied && !lot.isAssigned)
            .map((lot) => lot.id);
        }
        if (applies && status === 201) {
          created.push((body as { id: string }).id);
          const applied = (action.body as { batchId: string }).batchId;
          lotIds = lotIds.filter((id) => id !== applied);
        }
        await think();
      }
    };
    const adminLoop = async () => {
      let turn = 0;
      while (Date.now() < end) {
        await send(bases[turn++ % bases.length]!, admin.cookie, adminAction(editable));
        await think();
      }
    };
    await Promise.all([...technicians.map(technicianLoop), adminLoop(), warmedUp]);
    clientLag.disable();
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const client = {
      lagP99: clientLag.percentile(99) / 1e6,
      lagMax: clientLag.max / 1e6,
      cpuShare: (clientCpu.user + clientCpu.system) / 1e3 / ((Date.now() - recordingFrom) || 1),
    };
    const loadAfter = os.loadavg()[0]!;
    const disk = diskFigures(await (await warmedUp).stop());
    const after = await Promise.all(bases.map(serverCounters));
    // Once the minute's own figures are read: the probes' load stays out of the disk's flushes and the servers' counters.
    const machineState = await state.finish('la charge mixte, connexions et mise en route comprises');
    const hits = after.reduce((sum, c, i) => sum + c.hits - before[i]!.hits, 0);
    const misses = after.reduce((sum, c, i) => sum + c.misses - before[i]!.misses, 0);

    const rows = [...samples.entries()]
      .map(([name, s]) => {
        const sorted = [...s.latencies].sort((a, b) => a - b);
        return {
          name,
          write: s.write,
          requests: sorted.length,
          perSecond: sorted.length / DURATION_S,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          errors: s.errors,
          statuses: Object.fromEntries(s.statuses),
        };
      })
      .sort((a, b) => Number(a.write) - Number(b.write) || a.name.localeCompare(b.name));
    const total = rows.reduce((sum, r) => sum + r.requests, 0);
    const writes = rows.filter((r) => r.write).reduce((sum, r) => sum + r.requests, 0);
    const errors = rows.reduce((sum, r) => sum + r.errors, 0);
    const hitRatio = hits + misses ? hits / (hits + misses) : 0;
    const fmt = (n: number) => n.toFixed(1);
    // Per route, over both instances: the requests answered during the measured minute and those held over 50 / 100 ms.
    const routeKeys = new Set(after.flatMap((c) => [...c.durations.keys()]));
    const byRoute = new Map<string, { names: string[]; count: number; over50: number; over100: number }>();
    for (const [name, s] of samples) {
      const key = routeKeyOf(s.example, routeKeys);
      if (!key) continue;
      const entry = byRoute.get(key);
      if (entry) {
        entry.names.push(name);
        continue;
      }
      const delta = (field: 'count' | 'over50' | 'over100') =>
        after.reduce((sum, c, i) => sum + (c.durations.get(key)?.[field] ?? 0) - (before[i]!.durations.get(key)?.[field] ?? 0), 0);
      byRoute.set(key, { names: [name], count: delta('count'), over50: delta('over50'), over100: delta('over100') });
    }
    const serverRows = [...byRoute].map(([route, s]) => ({ route, ...s })).sort((a, b) => b.over100 / (b.count || 1) - a.over100 / (a.count || 1) || a.route.localeCompare(b.route));
    const share = (n: number, of: number) => `${n} (${fmt((100 * n) / Math.max(1, of))} %)`;
    const markdown = [
      `## Charge mixte du ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${os.cpus().length} cœurs, Node ${process.version})`,
      '',
      `${USERS} utilisateurs (${USERS - 1} techniciens recrutés, 1 admin), ${WARMUP_S} s de chauffe puis ${DURATION_S} s mesurées, ${bases.length} instances sur un PostgreSQL, ` +
        `pause moyenne ${THINK_MS} ms, READ_CACHE=${READ_CACHE}. ${total} requêtes (${fmt(total / DURATION_S)}/s), ` +
        `${writes} écritures (${fmt((100 * writes) / Math.max(1, total))} %), ${errors} erreurs, ` +
        (READ_CACHE === 'true' ? `cache de lecture : ${hits} succès / ${misses} défauts (${fmt(100 * hitRatio)} %). ` : 'pas de cache de lecture. ') +
        `Charge de la machine (load average 1 min) : ${loadBefore.toFixed(1)} au début, ${loadAfter.toFixed(1)} à la fin.` +
        ` ${diskSentence(disk)}`,
      '',
      '| endpoint | requêtes | req/s | p50 ms | p95 ms | p99 ms | erreurs | statuts |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${r.requests} | ${fmt(r.perSecond)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.errors} | ` +
          `${Object.entries(r.statuses).map(([status, n]) => `${status}×${n}`).join(' ')} |`,
      ),
      '',
      `Côté serveurs (l'histogramme des durées ${bases.length === 1 ? "de l'instance" : `des ${bases.length} instances`}, sans les délais du client) : par route, les requêtes ` +
        `répondues pendant la mesure et celles gardées plus de 50 et de 100 ms ; une part au-delà de 100 ms sous 1 % met ` +
        `le p99 du serveur sous 100 ms. Retard de la boucle d'événements de chaque instance : ` +
        `${after.map((c) => `p99 ${fmt(c.lagP99)} ms, max ${fmt(c.lagMax)} ms`).join(' ; ')} ; leurs ramasse-miettes pendant la mesure : ` +
        `${after.map((c, i) => `${Math.round(c.gcMs - before[i]!.gcMs)} ms, pauses de plus de 10 ms : ${gcPauses(c.gcOver10, before[i]!.gcOver10)}`).join(' ; ')}. Le client (ce processus Node, sur la même machine) : retard de sa boucle ` +
        `d'événements p99 ${fmt(client.lagP99)} ms, max ${fmt(client.lagMax)} ms, ${fmt(100 * client.cpuShare)} % d'un cœur.`,
      '',
      '| route | endpoints | requêtes | > 50 ms | > 100 ms |',
      '| --- | --- | ---: | ---: | ---: |',
      ...serverRows.map((r) => `| ${r.route} | ${r.names.join(', ')} | ${r.count} | ${share(r.over50, r.count)} | ${share(r.over100, r.count)} |`),
      '',
      machineStateMarkdown('État de la machine', machineState, earlierMachineState(path.join(resultsDir, 'mixed.json'))),
    ].join('\n');
    console.log(`\n${markdown}\n`);
    if (process.env.MIXED_WRITE_RESULTS !== 'false') {
      fs.mkdirSync(resultsDir, { recursive: true });
      fs.writeFileSync(path.join(resultsDir, 'mixed.md'), `${markdown}\n`);
      fs.writeFileSync(
        path.join(resultsDir, 'mixed.json'),
        JSON.stringify({ date: new Date().toISOString(), users: USERS, durationS: DURATION_S, readCache: READ_CACHE, machineState, loadBefore, loadAfter, hits, misses, disk, client, rows, serverRows }, null, 2),
      );
    }
  } finally {
    agent.destroy();
    for (const server of servers) server.kill('SIGTERM');
    if (created.length) await client.query('delete from applications where id = any($1::uuid[])', [created]);
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
