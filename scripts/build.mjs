// The production build: the web app (Vite), its precompressed copies, then the server bundle (esbuild).
//   node scripts/build.mjs             builds
//   node scripts/build.mjs --if-stale  builds unless the last build came from the same sources (what `npm start` runs)
// After a build that finished, server/dist/.build-stamp.json holds a hash of every input (sources, lock file, build
// scripts, the environment variables the build reads) and a fingerprint of the outputs (paths, sizes, dates): a build
// is skipped only when both still match, so an edited source, a pulled commit, a partial rebuild of one workspace or a
// removed dist all rebuild. The stamp is removed before building: an interrupted build is never taken as done.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'server', 'dist', '.build-stamp.json');

/** What the build reads. Folders are walked without node_modules and build outputs. */
const INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'scripts/build.mjs',
  'scripts/precompress.mjs',
  'common',
  'web',
  'server/src',
  'server/build.mjs',
  'server/package.json',
  'server/tsconfig.json',
];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.vite', 'test-results']);
const OUTPUTS = ['web/dist', 'server/dist'];

function walk(target, visit) {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isFile()) return visit(target, full);
  for (const entry of fs.readdirSync(full, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    walk(path.join(target, entry.name), visit);
  }
}

function inputsHash() {
  const hash = crypto.createHash('sha256');
  for (const input of INPUTS) {
    walk(input, (relative, full) => {
      hash.update(`${relative}\0`);
      hash.update(fs.readFileSync(full));
      hash.update('\0');
    });
  }
  // Vite reads NODE_ENV and VITE_*; the server bundle SERVER_OUTFILE.
  const env = Object.entries(process.env)
    .filter(([name]) => name === 'NODE_ENV' || name === 'SERVER_OUTFILE' || name.startsWith('VITE_'))
    .sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify(env));
  hash.update(process.version);
  return hash.digest('hex');
}

function outputsFingerprint() {
  const hash = crypto.createHash('sha256');
  let files = 0;
  for (const output of OUTPUTS) {
    walk(output, (relative, full) => {
      if (full === stampFile) return;
      const stat = fs.statSync(full);
      hash.update(`${relative}\0${stat.size}\0${stat.mtimeMs}\n`);
      files += 1;
    });
  }
  return { hash: hash.digest('hex'), files };
}

function isUpToDate(inputs) {
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html')) || !fs.existsSync(path.join(root, 'server', 'dist', 'main.js'))) return false;
  try {
    const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
    return stamp.inputs === inputs && stamp.outputs === outputsFingerprint().hash;
  } catch {
    return false;
  }
}

function step(label, cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`Échec du build (${label}).`);
    process.exit(result.status ?? 1);
  }
}

const inputs = inputsHash();
if (process.argv.includes('--if-stale') && isUpToDate(inputs)) {
  console.log('Build à jour (sources inchangées depuis le dernier build) : étape sautée.');
  process.exit(0);
}
fs.rmSync(stampFile, { force: true });
const started = Date.now();
step('web', 'npm', ['run', 'build', '-w', 'web']);
step('compression', 'node', ['scripts/precompress.mjs', 'web/dist']);
step('serveur', 'npm', ['run', 'build', '-w', 'server']);
fs.writeFileSync(stampFile, `${JSON.stringify({ inputs, outputs: outputsFingerprint().hash, builtAt: new Date().toISOString() }, null, 2)}\n`);
console.log(`Build terminé en ${((Date.now() - started) / 1000).toFixed(1)} s.`);
