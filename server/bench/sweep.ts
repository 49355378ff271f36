/**
 * npm run bench:sweep -w server — every GET route of the app called at full scale, read cache off: the reads the
 * load tests do not cover show here before a user finds them slow (decision 038: the admin's map took 390 ms of SQL
 * and no bench loaded it).
 *
 * The app is built in this process on the scale database (BENCH_DATABASE_URL, seeded by `npm run bench`), signed in
 * as the scale's admin and as one of its technicians. Each route is called through `app.inject` with real ids (the
 * technician's own records where it has some, else any row), once to warm up then SWEEP_CALLS times; the median and
 * the slowest call are printed slowest first, with the answer's status and size. Routes whose record does not exist
 * at scale answer 404 and say so. `SWEEP_ONLY='<regex>'` keeps the routes whose path matches; `SWEEP_URLS` adds
 * calls with query strings (comma-separated, as the admin).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openPostgres, type Db } from '../src/db/client';
import { OWNERSHIP } from '../src/plugins/ownership';
import { paramKind, type EntityKind } from '../test/security/world';

const CALLS = Number(process.env.SWEEP_CALLS ?? 5);
const ADMIN = { email: 'bench-admin@maillon.test', password: 'Bench-Password-2026' };
const TECHNICIAN = { email: process.env.SWEEP_TECHNICIAN ?? 'tech7@bench.maillon.test', password: 'Bench-Password-2026' };

/** One id per kind of record: the technician's own where it has one, else any row (null when the table is empty). */
async function pickIds(db: Db, technicianId: string, userId: string): Promise<Partial<Record<EntityKind, string>>> {
  const first = async (query: ReturnType<typeof sql>) => ((await db.execute<{ id: string }>(query)).rows[0]?.id as string | undefined) ?? undefined;
  const own = async (table: string) =>
    (await first(sql`select id::text from ${sql.identifier(table)} where technician_id = ${technicianId} limit 1`)) ?? (await first(sql`select id::text from ${sql.identifier(table)} limit 1`));
  const any = (table: string) => first(sql`select id::text from ${sql.identifier(table)} limit 1`);
  const batch =
    (await first(sql`select batch_id::text as id from applications where technician_id = ${technicianId} and status = 'Recruté' limit 1`)) ??
    (await first(sql`select batch_id::text as id from applications where technician_id = ${technicianId} limit 1`)) ??
    (await any('mission_batches'));
  const ids: Partial<Record<EntityKind, string | undefined>> = {
    technician: technicianId,
    user: userId,
    // Its « Recruté » application if any, whose field-work screen, route map and comment the technician reads.
    application:
      (await first(sql`select id::text from applications where technician_id = ${technicianId} and status = 'Recruté' limit 1`)) ??
      (await own('applications')),
    invoice: await own('invoices'),
    shipment: await own('shipments'),
    file: await any('stored_files'),
    mission: (await first(sql`select id::text from missions where batch_id = ${batch ?? null}::uuid limit 1`)) ?? (await any('missions')),
    batch,
    resource: await any('learning_resources'),
    job: await any('jobs'),
    payoutBatch: await any('payout_batches'),
    payoutLine: await any('payout_batch_lines'),
    email: await any('email_outbox'),
    device: await any('devices'),
    report: await any('visit_reports'),
    photo: await any('visit_report_photos'),
    consumable: await any('model_consumables'),
  };
  return Object.fromEntries(Object.entries(ids).filter(([, id]) => id !== undefined)) as Partial<Record<EntityKind, string>>;
}

interface Row {
  route: string;
  as: string;
  status: number;
  bytes: number;
  median: number;
  max: number;
  note: string;
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/maillon_bench';
  const only = process.env.SWEEP_ONLY ? new RegExp(process.env.SWEEP_ONLY, 'i') : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-sweep-'));
  const database = openPostgres(url, 4);
  await database.migrate();
  const db = database.db;
  await db.execute(sql`delete from rate_limits`);
  const app = await buildApp({ config: testConfig({ DATA_DIR: dataDir, READ_CACHE: false }), db });
  await app.ready();
  try {
    const login = async (who: { email: string; password: string }) => {
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: who });
      if (response.statusCode !== 200) throw new Error(`Connexion impossible pour ${who.email} (${response.statusCode}) : la base est-elle semée (npm run bench) ?`);
      return response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    };
    const cookies = { admin: await login(ADMIN), technician: await login(TECHNICIAN), anonymous: '' };
    /** One call to warm up, then CALLS timed ones: the last answer's status and size, the median and slowest times. */
    const timed = async (url: string, cookie: string) => {
      const request = { method: 'GET' as const, url, headers: cookie ? { cookie } : {} };
      let response = await app.inject(request);
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const start = process.hrtime.bigint();
        response = await app.inject(request);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      times.sort((a, b) => a - b);
      return { status: response.statusCode, bytes: response.rawPayload.length, median: times[Math.floor(times.length / 2)]!, max: times.at(-1)! };
    };
    const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: cookies.technician } })).json() as { user: { id: string }; technician: { id: string } };
    const ids = await pickIds(db, me.technician.id, me.user.id);
    const routes = app.routeAccess.filter((r) => r.method === 'GET' && r.access !== 'ingest' && (!only || only.test(r.url))).sort((a, b) => a.url.localeCompare(b.url));
    const rows: Row[] = [];
    for (const route of routes) {
      const callers: (keyof typeof cookies)[] =
        route.access === 'public' ? ['anonymous'] : route.access === 'admin' ? ['admin'] : route.access === 'technician-or-admin' || route.access === 'user' ? ['technician', 'admin'] : ['technician'];
      let missing = '';
      let target = route.url;
      for (const match of route.url.matchAll(/:(\w+)/g)) {
        const kind = paramKind(route.url, match[1]!);
        const id = kind ? ids[kind] : undefined;
        if (!id) missing = `pas de ${kind ?? match[1]} à cette échelle`;
        target = target.replace(`:${match[1]}`, id ?? crypto.randomUUID());
      }
      const rule = OWNERSHIP[`${route.method} ${route.url}`];
      for (const caller of callers) {
        const query = rule && 'from' in rule && rule.from === 'query' && caller === 'technician' ? `${target.includes('?') ? '&' : '?'}${rule.key}=${ids.technician}` : '';
        const timing = await timed(`${target}${query}`, cookies[caller]);
        rows.push({ route: route.url, as: caller, ...timing, note: timing.status === 404 ? missing : '' });
      }
    }
    // SWEEP_URLS='/api/invoices?search=Martin,/api/…': more calls as the admin, with the filters a screen sends.
    for (const url of (process.env.SWEEP_URLS ?? '').split(',').filter(Boolean)) rows.push({ route: url, as: 'admin', ...(await timed(url, cookies.admin)), note: '' });
    rows.sort((a, b) => b.median - a.median);
    console.log(`| route GET | appelée par | statut | octets | médiane ms | max ms | note |\n| --- | --- | ---: | ---: | ---: | ---: | --- |`);
    for (const r of rows) console.log(`| ${r.route} | ${r.as} | ${r.status} | ${r.bytes} | ${r.median.toFixed(2)} | ${r.max.toFixed(2)} | ${r.note} |`);
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
