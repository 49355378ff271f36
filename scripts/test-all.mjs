// The whole test suite, in order: type-check, lint, unit and API tests on PGlite, the same API tests on
// PostgreSQL when TEST_DATABASE_URL is set, then Playwright on the built app.
import { spawnSync } from 'node:child_process';

const steps = [
  ['Type-check', 'npm', ['run', 'typecheck']],
  ['Lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['Tests shared (Vitest)', 'npx', ['vitest', 'run', '--root', 'common']],
  ['Tests web (Vitest)', 'npx', ['vitest', 'run', '--root', 'web']],
  ['Tests API sur PGlite (Vitest)', 'npx', ['vitest', 'run', '--root', 'server'], { TEST_DATABASE_URL: '' }],
];
if (process.env.TEST_DATABASE_URL) {
  steps.push(['Tests API sur PostgreSQL (Vitest)', 'npx', ['vitest', 'run', '--root', 'server'], {}]);
} else {
  console.log('TEST_DATABASE_URL absent : la passe PostgreSQL est sautée (CI la lance toujours).');
}
steps.push(['Build', 'npm', ['run', 'build']]);
steps.push(['Poids des bundles par espace', 'node', ['scripts/bundle-report.mjs', 'web/dist']]);
steps.push(['Tests navigateur (Playwright)', 'npx', ['playwright', 'test', '--config', 'e2e/playwright.config.ts']]);

const results = [];
for (const [name, cmd, args, env] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...(env ?? {}) } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push(`${result.status === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)`);
  if (result.status !== 0) {
    console.log(`\n${results.join('\n')}`);
    console.error(`\nÉchec : ${name}`);
    process.exit(result.status ?? 1);
  }
}
console.log(`\n${results.join('\n')}`);
