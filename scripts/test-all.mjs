// The whole test suite, in order: engines of the installed packages, type-check, lint, unit and API tests on PGlite,
// the same API tests on PostgreSQL when TEST_DATABASE_URL is set, the build and its first-load budgets,
// `NODE_ENV=production npm start` in a fresh clone of HEAD (scripts/smoke-production.mjs), then Playwright on the built app.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

// Each runner also writes a JSON report; the totals are printed last as one "N passed, N failed" line.
const reports = 'test-results/reports';
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });
const vitest = (root, name) => ['vitest', 'run', '--root', root, '--reporter=default', '--reporter=json', `--outputFile.json=${process.cwd()}/${reports}/vitest-${name}.json`];

const steps = [
  ['Dépendances compatibles avec Node.js (engines)', 'node', ['scripts/check-engines.mjs']],
  ['Type-check', 'npm', ['run', 'typecheck']],
  ['Lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['Tests shared (Vitest)', 'npx', vitest('common', 'common')],
  ['Tests web (Vitest)', 'npx', vitest('web', 'web')],
  ['Tests scripts (Vitest)', 'npx', vitest('scripts', 'scripts')],
  ['Tests API sur PGlite (Vitest)', 'npx', vitest('server', 'server-pglite'), { TEST_DATABASE_URL: '' }],
];
if (process.env.TEST_DATABASE_URL) {
  steps.push(['Tests API sur PostgreSQL (Vitest)', 'npx', vitest('server', 'server-postgres'), {}]);
} else {
  console.log('TEST_DATABASE_URL absent : la passe PostgreSQL est sautée (CI la lance toujours).');
}
steps.push(['Build', 'npm', ['run', 'build']]);
steps.push(['Poids JavaScript par écran', 'node', ['scripts/bundle-report.mjs', 'web/dist']]);
steps.push(['Démarrage en production depuis un clone neuf', 'node', ['scripts/smoke-production.mjs']]);
steps.push(['Tests navigateur (Playwright)', 'npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts'], { PLAYWRIGHT_JSON_OUTPUT_NAME: `${process.cwd()}/${reports}/playwright.json` }]);

function totals() {
  let passed = 0;
  let failed = 0;
  for (const file of fs.readdirSync(reports)) {
    const report = JSON.parse(fs.readFileSync(`${reports}/${file}`, 'utf8'));
    if (file.startsWith('vitest')) {
      passed += report.numPassedTests ?? 0;
      failed += report.numFailedTests ?? 0;
    } else {
      passed += (report.stats?.expected ?? 0) + (report.stats?.flaky ?? 0);
      failed += report.stats?.unexpected ?? 0;
    }
  }
  return `Tests: ${passed} passed, ${failed} failed`;
}

const results = [];
for (const [name, cmd, args, env] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...(env ?? {}) } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push(`${result.status === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)`);
  if (result.status !== 0) {
    console.log(`\n${results.join('\n')}`);
    console.log(totals());
    console.error(`\nÉchec : ${name}`);
    process.exit(result.status ?? 1);
  }
}
console.log(`\n${results.join('\n')}`);
console.log(totals());
