// Every installed package must accept the Node.js we promise: reads package-lock.json and exits 1 listing each package
// whose `engines.node` excludes the running Node.js or the lowest version of the root `engines.node` (README: the
// oldest supported Node). Run early by scripts/test-all.mjs, so a dependency bump that drops Node 20 fails CI.
//   node scripts/check-engines.mjs [path/to/package-lock.json]
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const lockPath = path.resolve(process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'package-lock.json'));
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const rootRange = lock.packages?.['']?.engines?.node;
const promised = rootRange ? semver.minVersion(rootRange)?.version : undefined;
const targets = [...new Set([process.versions.node, promised].filter(Boolean))];

const problems = [];
for (const [location, meta] of Object.entries(lock.packages ?? {})) {
  if (!location) continue;
  // Very old packages wrote engines as an array of strings; a range is all that matters here.
  const engines = meta.engines;
  const range = Array.isArray(engines) ? engines.find((e) => /^node\b/.test(e))?.replace(/^node\s*/, '') : engines?.node;
  if (!range) continue;
  const refused = targets.filter((version) => !semver.satisfies(version, range, { includePrerelease: true }));
  if (refused.length) {
    const name = location.replace(/^.*node_modules\//, '');
    problems.push(`  - ${name}@${meta.version} (${location}) demande node ${range} : exclut ${refused.join(', ')}`);
  }
}

if (problems.length) {
  console.error(`Paquets incompatibles avec Node.js ${targets.join(' / ')} (${lockPath}) :`);
  console.error(problems.join('\n'));
  console.error('Épinglez une version compatible (ou un override npm) ou relevez engines.node du package.json racine et le README.');
  process.exit(1);
}
console.log(`engines : ${Object.keys(lock.packages ?? {}).length - 1} paquets acceptent Node.js ${targets.join(' et ')}.`);
