// Run first by `npm start` and `npm test` (prestart/pretest): one clear French line and exit 1 when this Node.js is
// older than the root package.json `engines.node`. No dependency and old syntax on purpose: it must work on the very
// Node.js versions it refuses.
import fs from 'fs';

const root = new URL('../package.json', import.meta.url);
const range = JSON.parse(fs.readFileSync(root, 'utf8')).engines.node;
// The root range is kept to the form ">=MAJOR.MINOR[.PATCH]" (scripts/check-engines.mjs checks every package's range).
const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
if (!match) {
  console.error(`package.json : engines.node doit avoir la forme ">=20.19" (trouvé "${range}").`);
  process.exit(1);
}
const wanted = [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
const current = process.versions.node.split('.').map(Number);
let older = false;
for (let i = 0; i < 3; i += 1) {
  if (current[i] !== wanted[i]) {
    older = current[i] < wanted[i];
    break;
  }
}
if (older) {
  console.error(`Maillon demande Node.js ${wanted.join('.')} ou plus récent (vous avez ${process.versions.node}) : installez une version à jour depuis https://nodejs.org/fr puis relancez la commande.`);
  process.exit(1);
}
