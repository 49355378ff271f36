// The production start as an operator runs it, from a fresh clone of this repository's HEAD:
//   git clone → NODE_ENV=production npm start (install with the build tools, build, migrate, seed, listen)
//   → GET /readyz 200 → GET / the web app → SIGTERM → clean exit (code 0).
// Part of `npm test` after the build (scripts/test-all.mjs); fails when the server does not come up in time.
// Uncommitted changes are not in the clone. The npm cache (~/.npm) keeps the install fast.
// Usage: node scripts/smoke-production.mjs   (SMOKE_TIMEOUT_S: wait for /readyz, 360 by default; SMOKE_KEEP=1 keeps the folder)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const timeoutMs = Number(process.env.SMOKE_TIMEOUT_S ?? 360) * 1000;
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-smoke-'));
const clone = path.join(work, 'maillon');
const logFile = path.join(work, 'npm-start.log');
let child = null;

function fail(message) {
  console.error(`\nÉchec du démarrage en production : ${message}`);
  if (fs.existsSync(logFile)) {
    const lines = fs.readFileSync(logFile, 'utf8').trimEnd().split('\n');
    console.error(`--- ${logFile} (${Math.min(lines.length, 80)} dernières lignes) ---\n${lines.slice(-80).join('\n')}\n---`);
  }
  if (child && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  console.error(`Dossier conservé pour examen : ${work}`);
  process.exit(1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The operator's shell: none of the variables npm, the test runner or a developer's database set. */
function operatorEnv(extra) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^npm_|^INIT_CWD$|^VITE_|^NODE_OPTIONS$|^(TEST_)?DATABASE_URL$|^E2E_|^PLAYWRIGHT_|^LOG_LEVEL$|^SEED_DEMO$|^WEB_DIST_DIR$/.test(
          name,
        ),
    ),
  );
  return { ...env, ...extra };
}

async function get(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    requestId: response.headers.get('x-request-id'),
    body: await response.text(),
  };
}

const exited = () =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

try {
  execFileSync('git', ['-C', root, 'rev-parse', '--git-dir'], { stdio: 'ignore' });
} catch {
  fail(`${root} n’est pas un dépôt git : le test clone HEAD`);
}
execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
const head = execFileSync('git', ['-C', clone, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
console.log(`Clone de ${head} dans ${clone} (${seconds(started)})`);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const out = fs.openSync(logFile, 'a');
const startAt = Date.now();
console.log(`NODE_ENV=production npm start (PORT=${port}, DATA_DIR=${path.join(work, 'data')}) ; journal : ${logFile}`);
// Its own process group: on failure the whole tree (npm, the install, the server) is stopped.
child = spawn('npm', ['start'], {
  cwd: clone,
  env: operatorEnv({ NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(work, 'data') }),
  stdio: ['ignore', out, out],
  detached: true,
});

let ready = null;
while (Date.now() - startAt < timeoutMs) {
  if (child.exitCode !== null || child.signalCode !== null)
    fail(`npm start s’est arrêté (code ${child.exitCode ?? child.signalCode}) avant d’être prêt`);
  try {
    const readyz = await get(`${base}/readyz`);
    if (readyz.status === 200) {
      ready = readyz;
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
if (!ready) fail(`/readyz n’a pas répondu 200 en ${timeoutMs / 1000} s`);
console.log(`Prêt (installation, build, migrations, démo) en ${seconds(startAt)} : /readyz ${ready.body}`);

const home = await get(`${base}/`);
if (
  home.status !== 200 ||
  !home.type.startsWith('text/html') ||
  !home.body.includes('<div id="root">') ||
  !/<script[^>]+src="\/assets\//.test(home.body)
) {
  fail(`GET / a répondu ${home.status} (${home.type}) sans l’application web construite`);
}
if (!home.requestId) fail('GET / sans en-tête X-Request-Id');
const again = await get(`${base}/readyz`);
if (again.status !== 200) fail(`/readyz a répondu ${again.status} : ${again.body}`);
const config = await get(`${base}/api/public/config`);
if (config.status !== 200 || !config.type.startsWith('application/json'))
  fail(`GET /api/public/config a répondu ${config.status}`);
console.log('GET / : application web servie ; /readyz 200 ; /api/public/config 200');

const stopAt = Date.now();
child.kill('SIGTERM');
const stopped = await Promise.race([exited(), new Promise((resolve) => setTimeout(() => resolve(null), 20_000).unref())]);
if (!stopped) fail('toujours en marche 20 s après SIGTERM');
if (stopped.code !== 0) fail(`arrêt sur SIGTERM avec le code ${stopped.code ?? stopped.signal}`);
const log = fs.readFileSync(logFile, 'utf8');
if (!log.includes('SIGTERM reçu')) fail('le serveur n’a pas fait d’arrêt propre (pas de « SIGTERM reçu » dans le journal)');
try {
  await get(`${base}/healthz`);
  fail('le port répond encore après l’arrêt');
} catch {
  // closed, as it should be
}
console.log(`Arrêt propre sur SIGTERM (code 0) en ${seconds(stopAt)}`);

console.log(`Démarrage en production depuis un clone neuf : OK en ${seconds(started)}`);
if (process.env.SMOKE_KEEP !== '1') {
  const cleanAt = Date.now();
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`Clone supprimé (${seconds(cleanAt)})`);
}
