import { afterAll, beforeAll, expect } from 'vitest';

/**
 * Setup of every server test file: a statement sent on a connection that is still running another one (a Promise.all
 * on a transaction's connection) is a warning in pg 8 and an error in pg 9. Any such warning fails the file it came
 * from. pg warns once per process, so the first file that does it is the one named.
 */
const key = Symbol.for('maillon.concurrent-query-warnings');
const host = process as unknown as Record<symbol, string[] | undefined>;
const seen = (host[key] ??= (() => {
  const warnings: string[] = [];
  process.on('warning', (warning) => {
    if (warning.message.includes('already executing a query')) warnings.push(warning.stack ?? warning.message);
  });
  return warnings;
})());

beforeAll(() => {
  seen.length = 0;
});

afterAll(() => {
  expect(seen, 'two statements at once on one connection (Promise.all inside a transaction?)').toEqual([]);
});
