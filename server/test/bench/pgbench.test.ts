import { describe, expect, it } from 'vitest';
import { PLAN_EACH_CALL_AFTER, PLAN_EACH_CALL_BEFORE, pgbenchScript } from '../../bench/pgbench';
import { PLAN_EACH_CALL } from '../../src/db/prepared-statements';

const found = { sql: `select id from missions where search_text like ${PLAN_EACH_CALL} $1 limit $2`, params: ['%maintenance%', 1001] };
const page = { sql: 'select json from page where created_at < $1', params: [new Date('2026-12-06T19:00:00.000Z')] };

describe('the pgbench script of one request', () => {
  it('runs a request the app names with -M prepared and nothing around its statements', () => {
    const { script, defines, mode } = pgbenchScript([page]);
    expect(mode).toBe('prepared');
    expect(script).toBe('select json from page where created_at < :q1_p1;\n');
    expect(defines).toHaveLength(1);
    expect(defines[0]).toMatch(/^q1_p1=2026-12-06T/);
  });

  it('runs a request the app plans on every call with -M extended, as the app sends it unnamed', () => {
    const { script, defines, mode } = pgbenchScript([found]);
    expect(mode).toBe('extended');
    expect(script).not.toContain('plan_cache_mode');
    expect(defines).toEqual(['q1_p1=%maintenance%', 'q1_p2=1001']);
  });

  it('plans only the statement the app plans on every call when a request mixes them', () => {
    const { script, defines, mode } = pgbenchScript([found, page]);
    expect(mode).toBe('prepared');
    const lines = script.trimEnd().split('\n');
    expect(lines).toEqual([
      PLAN_EACH_CALL_BEFORE,
      `select id from missions where search_text like ${PLAN_EACH_CALL} :q1_p1 limit :q1_p2;`,
      PLAN_EACH_CALL_AFTER,
      'select json from page where created_at < :q2_p1;',
    ]);
    expect(defines.map((define) => define.split('=')[0])).toEqual(['q1_p1', 'q1_p2', 'q2_p1']);
    // The setting is back to the server's own before the named statement runs.
    expect(lines.indexOf(PLAN_EACH_CALL_AFTER)).toBeLessThan(lines.findIndex((line) => line.includes(':q2_p1')));
  });

  it('keeps NULL a literal and refuses a text pgbench would read as a variable', () => {
    expect(pgbenchScript([{ sql: 'select $1::text', params: [null] }]).script).toBe('select NULL::text;\n');
    expect(() => pgbenchScript([{ sql: "select 'a:b'", params: [] }])).toThrow(/pgbench prendrait/);
  });
});
