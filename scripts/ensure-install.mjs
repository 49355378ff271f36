// Installs what is missing: the npm dependencies and, with --browser, the Debian packages of the tests (Chromium, never a
// browser build of its own; poppler-utils). Decision record: docs/decisions/019-install-and-start.md.
//   node scripts/ensure-install.mjs [--browser]   every dependency, dev ones included (tests, build)
//   node scripts/ensure-install.mjs --bench       the same, and wrk for `npm run bench` (best-effort)
//   node scripts/ensure-install.mjs --start       what `npm start` needs: the runtime dependencies when the build is up
//                                                 to date (scripts/build-stamp.mjs), everything when it must run
//
// "Installed" means: our own marker (written only after an install that finished, holding the hash of
// package-lock.json) matches the lock file, or npm's own record of a finished install (node_modules/.package-lock.json,
// written last) covers every package needed; and, either way, each of them is on disk at its locked version, and the
// build tools load when the build is needed. Anything else (no node_modules, a production-only install when building,
// an interrupted install, a package removed by hand, a newer lock file) gets `npm ci --include=dev`, which starts from
// an empty node_modules and installs the build tools whatever NODE_ENV says. The marker is removed before installing,
// so an install that stops half-way is retried by the next run.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuildUpToDate } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockFile = path.join(root, 'package-lock.json');
const marker = path.join(root, 'node_modules', '.maillon-install.json');
/** Packages the build runs, resolved from the workspace that runs them. */
const BUILD_TOOLS = [
  ['web', 'vite'],
  ['web', '@vitejs/plugin-react'],
  ['web', '@tailwindcss/vite'],
  ['server', 'esbuild'],
];

const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...env },
  });

function lockHash() {
  return crypto.createHash('sha256').update(fs.readFileSync(lockFile)).digest('hex');
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const libc = process.report?.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl';
/** npm's os/cpu/libc fields: a list of allowed values, or of excluded ones prefixed with "!". */
function matches(allowed, value) {
  if (!allowed?.length) return true;
  if (allowed.includes(`!${value}`)) return false;
  const listed = allowed.filter((a) => !a.startsWith('!'));
  return listed.length === 0 || listed.includes(value);
}

/** Without the build, only what the server loads at run time: the lock file's non-dev packages. */
const devNeeded = !process.argv.includes('--start') || !isBuildUpToDate();

/** Whether npm installs this lock entry on this machine, and a failure to would break something. */
function isNeededHere(entry) {
  if (entry.dev && !devNeeded) return false;
  const forPlatform = Boolean(entry.os || entry.cpu || entry.libc);
  if (
    forPlatform &&
    !(
      matches(entry.os, process.platform) &&
      matches(entry.cpu, process.arch) &&
      (process.platform !== 'linux' || matches(entry.libc, libc))
    )
  ) {
    return false;
  }
  // An optional package without a platform may fail to build and be left out; one made for this platform is the
  // binary its parent needs (esbuild, rollup, lightningcss…).
  if (entry.optional) return forPlatform;
  if (entry.devOptional) return devNeeded || forPlatform;
  return true;
}

/** The lock file's packages this machine needs: [path in the tree, locked entry]. */
function neededPackages(lock) {
  return Object.entries(lock.packages ?? {}).filter(([key, entry]) => key.includes('node_modules/') && isNeededHere(entry));
}

/** Lock entries missing from disk or at another version (at most a few names, for the message). */
function missingOnDisk(lock) {
  const missing = [];
  for (const [key, entry] of neededPackages(lock)) {
    const dir = path.join(root, key);
    if (entry.link) {
      if (!fs.existsSync(path.join(dir, 'package.json'))) missing.push(key);
      continue;
    }
    const installed = readJson(path.join(dir, 'package.json'));
    if (!installed || (entry.version && installed.version !== entry.version)) missing.push(key);
    if (missing.length >= 5) break;
  }
  return missing;
}

/** npm writes node_modules/.package-lock.json last, when an install finished: it must hold every needed package. */
function npmFinishedInstall(lock) {
  const hidden = readJson(path.join(root, 'node_modules', '.package-lock.json'));
  if (!hidden?.packages) return false;
  return neededPackages(lock).every(([key, entry]) => {
    const recorded = hidden.packages[key];
    return (
      recorded && (entry.link ? recorded.link : recorded.version === entry.version && recorded.integrity === entry.integrity)
    );
  });
}

function buildToolsLoad() {
  return BUILD_TOOLS.every(([workspace, name]) => {
    try {
      createRequire(path.join(root, workspace, 'package.json')).resolve(name);
      return true;
    } catch {
      return false;
    }
  });
}

/** Why the dependencies need installing, or null when they are in place. */
function installProblem() {
  if (!fs.existsSync(path.join(root, 'node_modules'))) return 'node_modules absent';
  const lock = readJson(lockFile);
  if (!lock) return 'package-lock.json illisible';
  const recorded = readJson(marker);
  if (recorded?.lockHash !== lockHash() && !npmFinishedInstall(lock)) {
    return recorded
      ? 'package-lock.json a changé depuis la dernière installation'
      : 'installation incomplète ou sans les dépendances de build';
  }
  const missing = missingOnDisk(lock);
  if (missing.length) return `paquets absents ou à une autre version : ${missing.join(', ')}`;
  if (devNeeded && !buildToolsLoad()) return 'outils de build introuvables';
  return null;
}

function installDependencies() {
  const problem = installProblem();
  if (!problem) return;
  console.log(`Installation des dépendances npm (${problem})…`);
  fs.rmSync(marker, { force: true });
  try {
    // --include=dev: NODE_ENV=production would otherwise leave out Vite and esbuild, which the build needs.
    run('npm', ['ci', '--include=dev', '--no-audit', '--no-fund']);
  } catch {
    console.error('L’installation des dépendances a échoué ; la prochaine exécution la recommencera.');
    process.exit(1);
  }
  const after = installProblem();
  if (after) {
    console.error(`Installation terminée mais incomplète (${after}) ; la prochaine exécution la recommencera.`);
    process.exit(1);
  }
  fs.writeFileSync(marker, `${JSON.stringify({ lockHash: lockHash(), installedAt: new Date().toISOString() }, null, 2)}\n`);
}

/** True when `command` is on the PATH. */
function onPath(command) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

/**
 * The Debian packages the test command needs: Chromium and its fonts (Playwright) and poppler-utils (`pdftoppm`: the
 * tests render the PDFs they produce to PNG). Installed with apt when missing. Debian's Chromium speaks only English
 * without chromium-l10n: its native date fields would read 11/27/2026 in the screenshots where a French phone shows
 * 27/11/2026 (the journeys run it with LANGUAGE=fr); installed as well, but the tests do not depend on it.
 */
function installTestTools() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const packages = [];
  if (!fs.existsSync(chromium)) packages.push('chromium', 'fonts-liberation');
  if (!onPath('pdftoppm')) packages.push('poppler-utils');
  const french = chromium === '/usr/bin/chromium' && !fs.existsSync('/usr/lib/chromium/locales/fr.pak') ? ['chromium-l10n'] : [];
  if (packages.length === 0 && french.length === 0) return;
  console.log(`Installation des paquets Debian des tests : ${[...packages, ...french].join(', ')}…`);
  aptUpdate();
  if (packages.length > 0) aptInstall(packages);
  if (french.length === 0) return;
  try {
    aptInstall(french);
  } catch {
    console.warn('chromium-l10n non installé : les champs de date des captures resteront au format anglais.');
  }
}

const sudo = process.getuid && process.getuid() !== 0 ? ['sudo'] : [];
const apt = (args) => (sudo.length ? run('sudo', args) : run(args[0], args.slice(1)));
const aptUpdate = () => apt(['apt-get', 'update', '-qq']);
const aptInstall = (names) => apt(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', ...names]);

/**
 * The bench's load generator, wrk (decision 036): a client in C, as pgbench is. Best-effort: without it the bench
 * loads with autocannon and says so.
 */
function installBenchTools() {
  if (onPath('wrk')) return;
  console.log('Installation du paquet Debian du bench : wrk…');
  try {
    aptUpdate();
    aptInstall(['wrk']);
  } catch {
    console.warn('wrk non installé : le bench chargera le serveur avec autocannon.');
  }
}

installDependencies();
if (process.argv.includes('--browser')) installTestTools();
if (process.argv.includes('--bench')) installBenchTools();
