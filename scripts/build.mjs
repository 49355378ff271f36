// The production build: the web app (Vite), its precompressed copies, then the server bundle (esbuild).
//   node scripts/build.mjs             builds
//   node scripts/build.mjs --if-stale  builds unless the last build came from the same sources (what `npm start` runs)
// A build is skipped only when the inputs hash and the outputs fingerprint both match the stamp the last finished
// build wrote (scripts/build-stamp.mjs): an edited source, a pulled commit, a partial rebuild of one workspace or a
// removed dist all rebuild.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputsHash, isBuildUpToDate, removeStamp, writeStamp } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function step(label, cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`Échec du build (${label}).`);
    process.exit(result.status ?? 1);
  }
}

const inputs = inputsHash();
if (process.argv.includes('--if-stale') && isBuildUpToDate(inputs)) {
  console.log('Build à jour (sources inchangées depuis le dernier build) : étape sautée.');
  process.exit(0);
}
removeStamp();
const started = Date.now();
step('web', 'npm', ['run', 'build', '-w', 'web']);
step('compression', 'node', ['scripts/precompress.mjs', 'web/dist']);
step('serveur', 'npm', ['run', 'build', '-w', 'server']);
writeStamp(inputs);
console.log(`Build terminé en ${((Date.now() - started) / 1000).toFixed(1)} s.`);
