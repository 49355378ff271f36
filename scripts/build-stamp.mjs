// Whether the production build (web/dist, server/dist) was made from the sources as they are now.
// server/dist/.build-stamp.json holds a hash of every input (sources, lock file, build scripts, the environment
// variables the build reads) and a fingerprint of the outputs (paths, sizes, dates), written after a build finished.
// Used by scripts/build.mjs (--if-stale) and scripts/ensure-install.mjs (--start). Decision: docs/decisions/019.
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
  'scripts/build-stamp.mjs',
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

export function inputsHash() {
  const hash = crypto.createHash('sha256');
  for (const input of INPUTS) {
    walk(input, (relative, full) => {
      hash.update(`${relative}\0`);
      hash.update(fs.readFileSync(full));
      hash.update('\0');
    });
  }
  // Vite reads NODE_ENV (unset builds as production) and VITE_*; the server bundle SERVER_OUTFILE.
  const env = Object.entries({ ...process.env, NODE_ENV: process.env.NODE_ENV || 'production' })
    .filter(([name]) => name === 'NODE_ENV' || name === 'SERVER_OUTFILE' || name.startsWith('VITE_'))
    .sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify(env));
  hash.update(process.version);
  return hash.digest('hex');
}

function outputsFingerprint() {
  const hash = crypto.createHash('sha256');
  for (const output of OUTPUTS) {
    walk(output, (relative, full) => {
      if (full === stampFile) return;
      const stat = fs.statSync(full);
      hash.update(`${relative}\0${stat.size}\0${stat.mtimeMs}\n`);
    });
  }
  return hash.digest('hex');
}

export function isBuildUpToDate(inputs = inputsHash()) {
  if (
    !fs.existsSync(path.join(root, 'web', 'dist', 'index.html')) ||
    !fs.existsSync(path.join(root, 'server', 'dist', 'main.js'))
  )
    return false;
  try {
    const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
    return stamp.inputs === inputs && stamp.outputs === outputsFingerprint();
  } catch {
    return false;
  }
}

/** Before building: an interrupted build must never be taken as done. */
export function removeStamp() {
  fs.rmSync(stampFile, { force: true });
}

export function writeStamp(inputs) {
  fs.writeFileSync(
    stampFile,
    `${JSON.stringify({ inputs, outputs: outputsFingerprint(), builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
}
