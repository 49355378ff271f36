/**
 * Issue 10's browser target: the technician dashboard ("Trouver des missions") with every visible lot of the full-scale
 * data shows its first content within 1 s in headless Chromium on this machine. The production server runs on the
 * bench database, a scale technician logs in through the real login page, then each measured navigation opens a new
 * browser context (empty cache) carrying only the session cookie.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { SESSION_COOKIE } from '../src/plugins/access';
import { SCALE_PASSWORD } from '../src/db/seed/scale';
import { startServer, waitFor } from './server-process';

export const FIRST_CONTENT_TARGET_MS = 1000;
const TECHNICIAN_EMAIL = 'tech7@bench.maillon.test';
const DASHBOARD_PATH = '/technician/dashboard?tab=find-missions';
const LOT_CARD = 'ul[aria-label="Lots de missions"] > li';

export interface FirstContentRun {
  fcpMs: number;
  firstLotMs: number;
}

export interface FirstContentResult {
  visibleLots: number;
  technician: string;
  url: string;
  runs: FirstContentRun[];
  fcpMedianMs: number;
  firstLotMedianMs: number;
  /** A returning technician: the same cold HTTP cache, with the browser storage the login left (the stored session). */
  returning: { runs: FirstContentRun[]; fcpMedianMs: number; firstLotMedianMs: number };
  targetMs: number;
  withinTarget: boolean;
}

// Runs in the page before its own scripts (a string: the server's TypeScript has no DOM types). Times are from the
// navigation start; the lot card time is taken one frame after the card enters the DOM, when it has been painted.
const PROBE = `(() => {
  const bench = { fcp: null, firstLot: null };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') bench.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  const observer = new MutationObserver(() => {
    if (!document.querySelector(${JSON.stringify(LOT_CARD)})) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { bench.firstLot = performance.now(); }));
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function countVisibleLots(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      "select count(*)::int as n from mission_batches where visibility = 'visible' and status <> 'completed' and not is_system",
    );
    return result.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

async function loginThroughPage(browser: Browser, base: string): Promise<{ token: string; storage: StorageState }> {
  const context = await browser.newContext({ baseURL: base });
  try {
    const page = await context.newPage();
    await page.goto('/technician/login');
    await page.getByLabel('Email').fill(TECHNICIAN_EMAIL);
    await page.getByLabel('Mot de passe').fill(SCALE_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/technician\/dashboard/);
    const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
    if (!cookie) throw new Error('premier contenu : pas de cookie de session après la connexion');
    return { token: cookie.value, storage: await context.storageState() };
  } finally {
    await context.close();
  }
}

async function measureOnce(browser: Browser, base: string, sessionToken: string, storage?: StorageState): Promise<FirstContentRun> {
  const context = await browser.newContext(storage ? { baseURL: base, storageState: storage } : { baseURL: base });
  try {
    if (!storage) await context.addCookies([{ name: SESSION_COOKIE, value: sessionToken, url: base, httpOnly: true, sameSite: 'Lax' }]);
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    await page.goto(DASHBOARD_PATH);
    await page.locator(LOT_CARD).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForFunction('window.__bench.fcp !== null && window.__bench.firstLot !== null', undefined, { timeout: 30_000 });
    const probe = (await page.evaluate('window.__bench')) as { fcp: number; firstLot: number };
    return { fcpMs: Math.round(probe.fcp), firstLotMs: Math.round(probe.firstLot) };
  } finally {
    await context.close();
  }
}

export async function measureFirstContent(options: {
  databaseUrl: string;
  port: number;
  runs?: number;
  log?: (line: string) => void;
}): Promise<FirstContentResult> {
  const runs = options.runs ?? 5;
  const executablePath = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath))
    throw new Error(`premier contenu : Chromium introuvable (${executablePath}, BENCH_CHROMIUM)`);
  const visibleLots = await countVisibleLots(options.databaseUrl);
  const base = `http://127.0.0.1:${options.port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-browser-'));
  const server = startServer({ DATABASE_URL: options.databaseUrl, DATA_DIR: dataDir }, options.port);
  let browser: Browser | undefined;
  try {
    await waitFor(`${base}/api/public/config`);
    browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    options.log?.(`premier contenu — connexion de ${TECHNICIAN_EMAIL} par la page de connexion…`);
    const { token, storage } = await loginThroughPage(browser, base);
    // One navigation unmeasured: a production server has its code compiled and its pool open, a fresh process does not.
    await measureOnce(browser, base, token);
    const measured: FirstContentRun[] = [];
    for (let i = 0; i < runs; i += 1) measured.push(await measureOnce(browser, base, token));
    options.log?.(`premier contenu — ${measured.map((r) => `FCP ${r.fcpMs} ms / lot ${r.firstLotMs} ms`).join(' ; ')}`);
    const firstLotMedianMs = median(measured.map((r) => r.firstLotMs));
    const returningRuns: FirstContentRun[] = [];
    for (let i = 0; i < runs; i += 1) returningRuns.push(await measureOnce(browser, base, token, storage));
    options.log?.(`premier contenu (revenant) — ${returningRuns.map((r) => `FCP ${r.fcpMs} ms / lot ${r.firstLotMs} ms`).join(' ; ')}`);
    return {
      visibleLots,
      technician: TECHNICIAN_EMAIL,
      url: DASHBOARD_PATH,
      runs: measured,
      fcpMedianMs: median(measured.map((r) => r.fcpMs)),
      firstLotMedianMs,
      returning: {
        runs: returningRuns,
        fcpMedianMs: median(returningRuns.map((r) => r.fcpMs)),
        firstLotMedianMs: median(returningRuns.map((r) => r.firstLotMs)),
      },
      targetMs: FIRST_CONTENT_TARGET_MS,
      withinTarget: firstLotMedianMs <= FIRST_CONTENT_TARGET_MS,
    };
  } finally {
    await browser?.close();
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function firstContentTable(title: string, result: FirstContentResult): string {
  const verdict = (ms: number) => (ms <= result.targetMs ? 'yes' : '**no**');
  return [
    `### ${title}`,
    '',
    `${result.visibleLots} lots visibles, ${result.technician}, \`${result.url}\`, navigation à froid (nouveau contexte, cache vide), médiane de ${result.runs.length}.`,
    '',
    '| measure | median ms | runs ms | target | within target |',
    '| --- | ---: | --- | ---: | :---: |',
    `| First Contentful Paint | ${result.fcpMedianMs} | ${result.runs.map((r) => r.fcpMs).join(', ')} | ≤ ${result.targetMs} | ${verdict(result.fcpMedianMs)} |`,
    `| First lot card visible | ${result.firstLotMedianMs} | ${result.runs.map((r) => r.firstLotMs).join(', ')} | ≤ ${result.targetMs} | ${verdict(result.firstLotMedianMs)} |`,
    `| Returning technician (stored session): First Contentful Paint | ${result.returning.fcpMedianMs} | ${result.returning.runs.map((r) => r.fcpMs).join(', ')} | ≤ ${result.targetMs} | ${verdict(result.returning.fcpMedianMs)} |`,
    `| Returning technician (stored session): first lot card visible | ${result.returning.firstLotMedianMs} | ${result.returning.runs.map((r) => r.firstLotMs).join(', ')} | ≤ ${result.targetMs} | ${verdict(result.returning.firstLotMedianMs)} |`,
  ].join('\n');
}
