import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3210);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-e2e-'));
const root = path.resolve(import.meta.dirname, '..');

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // list for people; json (PLAYWRIGHT_JSON_OUTPUT_NAME) for the totals line of scripts/test-all.mjs.
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Native date fields follow the browser's own language (LANGUAGE on Linux; Debian's chromium-l10n), not the
      // page's locale: in French they read 27/11/2026, as on a French phone.
      env: { ...process.env, LANGUAGE: 'fr' },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    command: `node ${process.env.E2E_SERVER_ENTRY ?? 'server/dist/main.js'}`,
    cwd: root,
    url: `http://localhost:${PORT}/api/public/config`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      INGEST_API_KEY: 'cle-ingestion-e2e-0123456789',
      // The charity's identity for Factur-X checks and the SEPA debtor account (payouts.spec.ts).
      CHARITY_SIRET: '73282932000074',
      CHARITY_IBAN: 'FR7630004000031234567890143',
      CHARITY_BIC: 'BNPAFRPPXXX',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      PUBLIC_URL: `http://localhost:${PORT}`,
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST_DIR: process.env.E2E_WEB_DIST } : {}),
    },
  },
});
