import { describe, expect, it } from 'vitest';
import { comparedWith, judgeState, machineStateMarkdown, type MiddleProbe, type Probe } from '../../bench/machine-state';
import { pgbenchTps } from '../../bench/pgbench';

const probe = (at: string, pgbenchTps: number | null, nodeLoopMps: number): Probe => ({ at, loadAverage: [0.5, 0.4, 0.3], pgbenchTps, nodeLoopMps });
const calm = { busy: 0.6, iowait: 0.01, steal: 0.01, idle: 0.38 };

describe('the machine state around a bench run', () => {
  it('is stable when both probes agree within 20 % and the host stole little', () => {
    const state = judgeState(probe('2026-12-06T05:00:00.000Z', 30000, 80), probe('2026-12-06T06:20:00.000Z', 26000, 72), calm);
    expect(state.stable).toBe(true);
    expect(state.reasons).toEqual([]);
  });

  it('is unsteady when pgbench dropped, when Node slowed, when the host stole time or when pgbench could not run', () => {
    const start = probe('2026-12-06T05:00:00.000Z', 30000, 80);
    expect(judgeState(start, probe('2026-12-06T06:20:00.000Z', 20000, 80), calm).reasons).toEqual(['pgbench select 1 : 30000 tps au début, 20000 à la fin']);
    expect(judgeState(start, probe('2026-12-06T06:20:00.000Z', 30000, 50), calm).reasons).toEqual(['boucle Node : 80 M tours/s au début, 50 à la fin']);
    expect(judgeState(start, probe('2026-12-06T06:20:00.000Z', 30000, 80), { ...calm, steal: 0.08 }).reasons).toEqual([
      "8.0 % du temps des cœurs pris par l'hôte (steal)",
    ]);
    const noPgbench = judgeState(start, probe('2026-12-06T06:20:00.000Z', null, 80), calm);
    expect(noPgbench.stable).toBe(false);
    expect(noPgbench.reasons).toEqual(['pgbench select 1 : 30000 tps au début, — à la fin']);
  });

  it('is unsteady when a probe between the passes strayed, even when the last one is back', () => {
    const between = (at: string, pgbenchTps: number, after: string): MiddleProbe => ({ ...probe(at, pgbenchTps, 80), after });
    const start = probe('2026-12-06T05:00:00.000Z', 30000, 80);
    const end = probe('2026-12-06T06:20:00.000Z', 29000, 80);
    const calmMiddle = [between('2026-12-06T05:20:00.000Z', 28000, 'le passage avec cache'), between('2026-12-06T05:40:00.000Z', 31000, 'le passage sans cache')];
    const steady = judgeState(start, end, calm, calmMiddle);
    expect(steady.stable).toBe(true);
    expect(steady.middle).toEqual(calmMiddle);
    // Each probe against every other: 24 000 is within 20 % of 28 000 but not of 31 000.
    const dipped = [between('2026-12-06T05:20:00.000Z', 24000, 'le passage avec cache'), between('2026-12-06T05:40:00.000Z', 31000, 'le passage sans cache')];
    const state = judgeState(start, end, calm, dipped);
    expect(state.reasons).toEqual([
      'pgbench select 1 : 30000 tps au début, 24000 après le passage avec cache, 31000 après le passage sans cache, 29000 à la fin',
    ]);
    const lines = machineStateMarkdown('État de la machine', state).split('\n');
    expect(lines[2]).toMatch(/^Les mêmes sondes au début, entre les passages et à la fin : /u);
    expect(lines.slice(6, 10)).toEqual([
      '| début | 05:00:00 | 0.50 / 0.40 / 0.30 | 30000 | — | 80 |',
      '| après le passage avec cache | 05:20:00 | 0.50 / 0.40 / 0.30 | 24000 | — | 80 |',
      '| après le passage sans cache | 05:40:00 | 0.50 / 0.40 / 0.30 | 31000 | — | 80 |',
      '| fin | 06:20:00 | 0.50 / 0.40 / 0.30 | 29000 | — | 80 |',
    ]);
    expect(machineStateMarkdown('État de la machine', steady)).toContain('État **stable** : les 4 relevés concordent à 20 % près.');
  });

  it('is unsteady when the probe that builds a 60 KB text strayed, and judges it only in runs that took it', () => {
    const withText = (at: string, textTps: number | null): Probe => ({ ...probe(at, 30000, 80), pgbenchTextTps: textTps });
    const strayed = judgeState(withText('2026-12-06T16:41:00.000Z', 9400), withText('2026-12-06T18:03:00.000Z', 1200), calm);
    expect(strayed.reasons).toEqual(['pgbench texte 60 Kio : 9400 tps au début, 1200 à la fin']);
    expect(judgeState(withText('2026-12-06T16:41:00.000Z', 9400), withText('2026-12-06T18:03:00.000Z', 9000), calm).stable).toBe(true);
    expect(judgeState(withText('2026-12-06T16:41:00.000Z', 9400), withText('2026-12-06T18:03:00.000Z', null), calm).reasons).toEqual([
      'pgbench texte 60 Kio : 9400 tps au début, — à la fin',
    ]);
    const lines = machineStateMarkdown('État de la machine', strayed).split('\n');
    expect(lines[4]).toBe('| relevé | heure UTC | load average 1 / 5 / 15 min | pgbench select 1 tps | pgbench texte 60 Kio tps | boucle Node M tours/s |');
    expect(lines).toContain('| début | 16:41:00 | 0.50 / 0.40 / 0.30 | 30000 | 9400 | 80 |');
    expect(lines).toContain('| fin | 18:03:00 | 0.50 / 0.40 / 0.30 | 30000 | 1200 | 80 |');
  });

  it('compares the 60 KB text probes of two runs only when both took it', () => {
    const run = (at: string, textTps?: number) => {
      const start: Probe = { ...probe(at, 30000, 80), ...(textTps === undefined ? {} : { pgbenchTextTps: textTps }) };
      return judgeState(start, start, calm);
    };
    const now = run('2026-12-07T05:00:00.000Z', 9400);
    expect(comparedWith(now, run('2026-12-06T18:03:00.000Z', 1200))).toEqual({
      comparable: false,
      text: '**Non comparable** au run du 2026-12-06 18:03 UTC (pgbench select 1 30000 contre 30000 tps, pgbench texte 60 Kio 9400 contre 1200 tps, boucle Node 80 contre 80 M tours/s) : leurs écarts mesurent aussi la machine.',
    });
    expect(comparedWith(now, run('2026-12-06T18:03:00.000Z', 9000)).comparable).toBe(true);
    expect(comparedWith(now, run('2026-12-06T15:32:00.000Z'))).toEqual({
      comparable: true,
      text: 'Comparable au run du 2026-12-06 15:32 UTC (pgbench select 1 30000 contre 30000 tps, boucle Node 80 contre 80 M tours/s).',
    });
  });

  it('reads the rate pgbench printed, and nothing from an output without it', () => {
    const output = [
      'transaction type: /tmp/maillon-bench-state.sql',
      'number of clients: 8',
      'latency average = 0.152 ms',
      'initial connection time = 9.870 ms',
      'tps = 52617.403112 (without initial connection time)',
    ].join('\n');
    expect(pgbenchTps(output)).toBe(52617.403112);
    expect(pgbenchTps('pgbench: error: connection to server failed')).toBeNull();
  });

  it('compares two runs only when their starting probes agree', () => {
    const now = judgeState(probe('2026-12-06T05:00:00.000Z', 30000, 80), probe('2026-12-06T06:20:00.000Z', 30000, 80), calm);
    const calmEarlier = judgeState(probe('2026-12-05T22:12:00.000Z', 32000, 85), probe('2026-12-05T23:30:00.000Z', 31000, 84), calm);
    const slowEarlier = judgeState(probe('2026-12-06T01:10:00.000Z', 19000, 80), probe('2026-12-06T02:30:00.000Z', 19500, 80), calm);
    expect(comparedWith(now, calmEarlier).comparable).toBe(true);
    expect(comparedWith(now, slowEarlier)).toEqual({
      comparable: false,
      text: '**Non comparable** au run du 2026-12-06 01:10 UTC (pgbench select 1 30000 contre 19000 tps, boucle Node 80 contre 80 M tours/s) : leurs écarts mesurent aussi la machine.',
    });
    expect(comparedWith(now, undefined).comparable).toBe(false);
  });

  it('writes both probes, the cores time and the verdict into the results', () => {
    const state = judgeState(probe('2026-12-06T05:00:00.000Z', 30000, 80), probe('2026-12-06T06:20:00.000Z', 18000, 80), calm);
    const lines = machineStateMarkdown('État de la machine', state).split('\n');
    expect(lines[0]).toBe('### État de la machine');
    expect(lines).toContain('| début | 05:00:00 | 0.50 / 0.40 / 0.30 | 30000 | — | 80 |');
    expect(lines).toContain('| fin | 06:20:00 | 0.50 / 0.40 / 0.30 | 18000 | — | 80 |');
    expect(lines.at(-1)).toBe(
      "Temps des cœurs entre le premier et le dernier relevé : occupé 60.0 %, attente disque 1.0 %, pris par l'hôte (steal) 1.0 %, libre 38.0 %. " +
        'État **instable** : pgbench select 1 : 30000 tps au début, 18000 à la fin. Les chiffres de ce run mesurent aussi la machine. ' +
        "Le run précédent n'a pas relevé l'état de la machine : pas de comparaison.",
    );
  });
});
