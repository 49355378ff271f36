import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Several instances sharing one database: only meaningful on PostgreSQL, so only in the PostgreSQL pass.
    exclude: process.env.TEST_DATABASE_URL ? [] : ['test/cluster/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/no-concurrent-queries.ts'],
  },
});
