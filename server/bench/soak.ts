/**
 * npm run soak — 100 simulated users (99 technicians and an admin) doing their journeys through the API for 60 s
 * against the built server on PostgreSQL, then a consistency check: every lot's figures, the open invoices' amounts
 * and the one-recruit-per-lot rule recomputed from scratch must equal what is stored.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { hashPassword } from '../src/lib/passwords';
import { productionNodeFlags } from './server-process';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const DURATION_MS = Number(process.env.SOAK_SECONDS ?? 60) * 1000;
const USERS = 100;
const PORT = Number(process.env.SOAK_PORT ?? 3400);
const PASSWORD = 'Soak-Password-2026';
const base = `http://127.0.0.1:${PORT}`;

interface Stats {
  requests: number;
  errors: string[];
  byStatus: Record<number, number>;
}
const stats: Stats = { requests: 0, errors: [], byStatus: {} };

async function call(method: string, url: string, cookie: string, body?: unknown, allowed: number[] = [200, 201]): Promise<{ status: number; json: unknown }> {
  stats.requests += 1;
  try {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { cookie, origin: base, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    stats.byStatus[response.status] = (stats.byStatus[response.status] ?? 0) + 1;
    if (!allowed.includes(response.status)) stats.errors.push(`${method} ${url} → ${response.status} ${text.slice(0, 160)}`);
    return { status: response.status, json: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null };
  } catch (error) {
    stats.errors.push(`${method} ${url} → ${(error as Error).message}`);
    return { status: 0, json: null };
  }
}

async function loginAs(email: string, password: string): Promise<{ cookie: string; technicianId: string | null }> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login ${email}: ${response.status}`);
  const body = (await response.json()) as { technician: { id: string } | null };
  return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0]!, technicianId: body.technician?.id ?? null };
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
const DEPARTMENTS = ['75', '92', '93', '69', '13', '33', '67'];

async function technicianJourney(user: { cookie: string; technicianId: string }, until: number): Promise<void> {
  const t = user.technicianId;
  while (Date.now() < until) {
    await call('GET', `/api/technicians/${t}/counts`, user.cookie);
    const lots = await call('GET', `/api/mission-batches/available-for-application?technicianId=${t}&limit=20${Math.random() < 0.5 ? `&department=${pick(DEPARTMENTS)}` : ''}`, user.cookie);
    await call('GET', `/api/applications?technicianId=${t}`, user.cookie);
    await call('GET', `/api/technician/${t}/invoices`, user.cookie);
    const open = ((lots.json as { id: string; hasApplied: boolean }[] | null) ?? []).filter((l) => !l.hasApplied);
    if (open.length > 0 && Math.random() < 0.3) {
      // 201 applied; 409 someone was recruited meanwhile or already applied.
      await call('POST', '/api/applications/batch', user.cookie, { batchId: pick(open).id, technicianId: t, status: 'En attente' }, [201, 409]);
    }
    const work = (await call('GET', `/api/applications?technicianId=${t}&status=Recrut%C3%A9`, user.cookie)).json as { id: string }[] | null;
    if (work && work.length > 0) {
      const detail = (await call('GET', `/api/applications/${work[0]!.id}/work`, user.cookie)).json as { missions?: { id: string }[] } | null;
      const device = detail?.missions?.length ? pick(detail.missions) : null;
      if (device) await call('PATCH', `/api/technician-mission-data/${device.id}/${t}`, user.cookie, { isCompleted: Math.random() < 0.5 }, [200, 201, 409]);
    }
  }
}

async function adminJourney(admin: { cookie: string }, until: number): Promise<void> {
  while (Date.now() < until) {
    await call('GET', '/api/admin/counts', admin.cookie);
    await call('GET', `/api/missions?search=${encodeURIComponent(pick(['Pharmacie', 'Mairie', 'Gymnase', 'SN-']))}&limit=20`, admin.cookie);
    const lots = (await call('GET', '/api/mission-batches?limit=20', admin.cookie)).json as { id: string }[] | null;
    await call('GET', '/api/technicians?status=active&limit=20', admin.cookie);
    await call('GET', '/api/invoices?limit=20', admin.cookie);
    if (lots && lots.length > 0) {
      const lot = pick(lots);
      const apps = (await call('GET', `/api/applications/with-technicians?batchId=${lot.id}`, admin.cookie)).json as { id: string; status: string }[] | null;
      const waiting = (apps ?? []).filter((a) => a.status === 'En attente');
      // 200 selected; 409 "Déjà assigné" when another selection won the race.
      if (waiting.length > 0 && Math.random() < 0.5) await call('PATCH', `/api/applications/${pick(waiting).id}/status`, admin.cookie, { status: 'Recruté' }, [200, 409]);
    }
  }
}

async function consistency(client: pg.Client): Promise<string[]> {
  const problems: string[] = [];
  const figures = await client.query(`
    with recruit as (
      select batch_id, technician_id from applications where status in ('Recruté', 'Terminé')
    ), actual as (
      select b.id, b.title, b.defibrillators_sum, b.defibrillators_done, b.price_cents, b.amount_per_defib_cents,
        (select count(*) from missions m where m.batch_id = b.id)::int as sum_now,
        (select count(*) from missions m join recruit r on r.batch_id = b.id
           join technician_mission_data d on d.mission_id = m.id and d.technician_id = r.technician_id and d.is_completed
         where m.batch_id = b.id)::int as done_now
      from mission_batches b where b.status = 'active' and not b.is_system
    )
    select * from actual where defibrillators_sum <> sum_now or defibrillators_done <> done_now
      or amount_per_defib_cents <> case when sum_now = 0 then 0 else round(price_cents::numeric / sum_now) end`);
  for (const row of figures.rows) problems.push(`lot « ${row.title} » : stocké ${row.defibrillators_done}/${row.defibrillators_sum}, recalculé ${row.done_now}/${row.sum_now}`);
  const invoices = await client.query(`
    select i.id, i.validated_amount_cents, i.progression, b.defibrillators_done, b.defibrillators_sum, b.price_cents
    from invoices i join mission_batches b on b.id = i.batch_id
    where i.status = 'Mission à terminer'
      and (i.validated_amount_cents <> case when b.defibrillators_sum = 0 then 0 else round(b.price_cents::numeric * b.defibrillators_done / b.defibrillators_sum) end
        or i.progression <> b.defibrillators_done || '/' || b.defibrillators_sum)`);
  for (const row of invoices.rows) problems.push(`facture ${row.id} : ${row.validated_amount_cents} c, ${row.progression}`);
  const recruits = await client.query(`select batch_id, count(*) from applications where status in ('Recruté', 'Terminé') group by batch_id having count(*) > 1`);
  for (const row of recruits.rows) problems.push(`lot ${row.batch_id} : ${row.count} techniciens recrutés`);
  const invoiceCount = await client.query(`
    select a.batch_id from applications a where a.status = 'Recruté'
      and (select count(*) from invoices i where i.batch_id = a.batch_id and i.technician_id = a.technician_id) <> 1`);
  for (const row of invoiceCount.rows) problems.push(`lot ${row.batch_id} : recrutement sans facture unique`);
  return problems;
}

async function main(): Promise<void> {
  const adminUrl = process.env.SOAK_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `maillon_soak_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const server = spawn(process.execPath, [...productionNodeFlags(), path.join(root, 'server/dist/main.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1', SEED_DEMO: 'true', LOG_LEVEL: 'warn', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'soak-')) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    for (let i = 0; i < 240; i += 1) {
      try {
        if ((await fetch(`${base}/api/public/config`)).ok) break;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    await client.connect();
    // 99 trained, active technicians in the demo's departments (direct inserts: the journeys are what we measure).
    const hash = await hashPassword(PASSWORD);
    await client.query(`
      with u as (
        insert into users (email, password_hash, role)
        select 'soak' || i || '@maillon.test', $1, 'technician' from generate_series(1, ${USERS - 1}) i returning id, email
      ), t as (
        insert into technicians (user_id, first_name, last_name, email, departments, status, formation_completed, formation_status, iban)
        select id, 'Soak', email, email, array[(array['75','92','93','69','13','33','67'])[1 + (random() * 6)::int]], 'active', true,
          'Formation complétée', 'FR7630006000011234567890189' from u returning id
      )
      insert into resource_views (resource_id, technician_id) select r.id, t.id from learning_resources r cross join t`, [hash]);
    const rows = (await client.query(`select email from users where email like 'soak%@maillon.test' order by email`)).rows as { email: string }[];
    const technicians = [];
    for (const row of rows) technicians.push((await loginAs(row.email, PASSWORD)) as { cookie: string; technicianId: string });
    const adminSession = await loginAs('admin@maillon.fr', 'Maillon-Admin-2026');
    console.log(`Soak : ${technicians.length} techniciens et 1 administrateur pendant ${DURATION_MS / 1000} s…`);
    const until = Date.now() + DURATION_MS;
    const started = Date.now();
    await Promise.all([...technicians.map((t) => technicianJourney(t, until)), adminJourney(adminSession, until)]);
    const seconds = (Date.now() - started) / 1000;
    const problems = await consistency(client);
    console.log(`\nRequêtes : ${stats.requests} (${Math.round(stats.requests / seconds)}/s)`);
    console.log(`Statuts : ${Object.entries(stats.byStatus).map(([s, n]) => `${s}×${n}`).join(', ')}`);
    console.log(`Erreurs : ${stats.errors.length}`);
    for (const error of stats.errors.slice(0, 10)) console.log(`  ${error}`);
    console.log(`Cohérence : ${problems.length === 0 ? 'OK (chiffres des lots, factures et recrutements recalculés = stockés)' : `${problems.length} écart(s)`}`);
    for (const problem of problems.slice(0, 10)) console.log(`  ${problem}`);
    process.exitCode = stats.errors.length === 0 && problems.length === 0 ? 0 : 1;
  } finally {
    server.kill('SIGTERM');
    await client.end().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1000));
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
