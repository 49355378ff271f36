import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeState, machineStateMarkdown, type Probe } from '../../bench/machine-state';
import { postgresCpuPart, processKind, startPostgresCpuSampler } from '../../bench/postgres-cpu';

const noLeader = () => undefined;

describe('the kind of a PostgreSQL process, from its title', () => {
  it('tells the sessions of the bench database from those of other databases, with or without a cluster name', () => {
    expect(processKind('postgres: 15/main: postgres maillon_bench 127.0.0.1(42554) SELECT', 'maillon_bench', noLeader)).toBe('bench');
    expect(processKind('postgres: postgres maillon_bench [local] idle', 'maillon_bench', noLeader)).toBe('bench');
    expect(processKind('postgres: 15/main: postgres test 127.0.0.1(40000) idle in transaction', 'maillon_bench', noLeader)).toBe(
      'otherDatabases',
    );
  });

  it('counts the autovacuum apart and the server processes as the rest', () => {
    expect(processKind('postgres: 15/main: autovacuum worker maillon_bench', 'maillon_bench', noLeader)).toBe('autovacuum');
    expect(processKind('postgres: autovacuum launcher', 'maillon_bench', noLeader)).toBe('autovacuum');
    for (const title of [
      'postgres: 15/main: checkpointer ',
      'postgres: 15/main: background writer ',
      'postgres: 15/main: walwriter ',
      'postgres: 15/main: logical replication launcher ',
      '/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main -c config_file=/etc/postgresql/15/main/postgresql.conf',
    ]) {
      expect(processKind(title, 'maillon_bench', noLeader)).toBe('background');
    }
  });

  it("gives a parallel worker its leader's kind, and the rest's when its leader is unknown", () => {
    const leaders = new Map([[7702, 'bench' as const]]);
    expect(processKind('postgres: 15/main: parallel worker for PID 7702 ', 'maillon_bench', (pid) => leaders.get(pid))).toBe('bench');
    expect(processKind('postgres: 15/main: parallel worker for PID 9999 ', 'maillon_bench', (pid) => leaders.get(pid))).toBe('background');
  });
});

describe('the sampler of PostgreSQL processes', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  /** A /proc of its own: `write` sets a process's files, `end` removes it. */
  const fakeProc = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-proc-'));
    roots.push(root);
    fs.mkdirSync(path.join(root, 'self'));
    return {
      root,
      write(pid: number, comm: string, title: string, ticks: { user: number; system: number }, started = 1000) {
        const dir = path.join(root, String(pid));
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'cmdline'), `${title}\0\0\0`);
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime … starttime
        const fields = ['S', '1', '1', '1', '0', '-1', '0', '0', '0', '0', '0', String(ticks.user), String(ticks.system), '0', '0', '20', '0', '1', '0', String(started), '0'];
        fs.writeFileSync(path.join(dir, 'stat'), `${pid} (${comm}) ${fields.join(' ')}\n`);
      },
      end(pid: number) {
        fs.rmSync(path.join(root, String(pid)), { recursive: true });
      },
    };
  };

  it('sums the ticks of each kind since the last cut, a process there at the start counting from then', () => {
    const proc = fakeProc();
    proc.write(10, 'postgres', 'postgres: 15/main: postgres maillon_bench 127.0.0.1(1) idle', { user: 500, system: 100 });
    proc.write(11, 'postgres', 'postgres: 15/main: checkpointer ', { user: 40, system: 10 });
    proc.write(12, 'node', 'node dist/main.js', { user: 9000, system: 900 });
    const sampler = startPostgresCpuSampler('maillon_bench', proc.root);
    try {
      proc.write(10, 'postgres', 'postgres: 15/main: postgres maillon_bench 127.0.0.1(1) SELECT', { user: 800, system: 100 });
      proc.write(11, 'postgres', 'postgres: 15/main: checkpointer ', { user: 50, system: 10 });
      // Started since the first sample: all its ticks are the part's.
      proc.write(13, 'postgres', 'postgres: 15/main: autovacuum worker maillon_bench', { user: 60, system: 20 }, 5000);
      proc.write(12, 'node', 'node dist/main.js', { user: 99000, system: 900 });
      const first = sampler.cut('le passage avec cache');
      expect(first).toEqual({
        part: 'le passage avec cache',
        seconds: 3.9,
        shares: { bench: 300 / 390, otherDatabases: 0, autovacuum: 80 / 390, background: 10 / 390 },
      });

      // The autovacuum ends; its pid is taken by another database's session, which counts from its own start.
      proc.end(13);
      proc.write(13, 'postgres', 'postgres: 15/main: postgres test 127.0.0.1(2) idle', { user: 5, system: 5 }, 9000);
      proc.write(10, 'postgres', 'postgres: 15/main: postgres maillon_bench 127.0.0.1(1) idle', { user: 830, system: 100 });
      expect(sampler.cut('le passage sans cache')).toEqual({
        part: 'le passage sans cache',
        seconds: 0.4,
        shares: { bench: 0.75, otherDatabases: 0.25, autovacuum: 0, background: 0 },
      });
      // A skipped stretch (a probe's pgbench) counts in no part.
      proc.write(10, 'postgres', 'postgres: 15/main: postgres maillon_bench 127.0.0.1(1) idle', { user: 930, system: 100 });
      sampler.skip();
      // Nothing moved since: an empty part.
      expect(sampler.cut('la fin')).toEqual({ part: 'la fin', seconds: 0, shares: { bench: 0, otherDatabases: 0, autovacuum: 0, background: 0 } });
    } finally {
      sampler.stop();
    }
  });

  it('gives no figures where there is no /proc to read', () => {
    const sampler = startPostgresCpuSampler('maillon_bench', path.join(os.tmpdir(), 'maillon-no-such-proc'));
    expect(sampler.cut('le passage avec cache')).toBeNull();
    sampler.stop();
  });
});

describe('the machine state with PostgreSQL time by kind of process', () => {
  const probe = (at: string): Probe => ({ at, loadAverage: [0.5, 0.4, 0.3], pgbenchTps: 30000, nodeLoopMps: 80 });
  const calm = { busy: 0.6, iowait: 0.01, steal: 0.01, idle: 0.38 };

  it('shows one row per part, and nothing when it was not sampled', () => {
    const state = judgeState(probe('2026-12-06T05:00:00.000Z'), probe('2026-12-06T06:20:00.000Z'), calm);
    expect(machineStateMarkdown('État de la machine', state)).not.toContain('sorte de processus');
    const sampled = {
      ...state,
      postgresCpu: [
        postgresCpuPart('le passage avec cache', { bench: 99_600, otherDatabases: 0, autovacuum: 300, background: 100 }),
        postgresCpuPart('les plafonds, les plans et le premier contenu', { bench: 5_000, otherDatabases: 5_000, autovacuum: 0, background: 0 }),
      ],
    };
    const lines = machineStateMarkdown('État de la machine', sampled).split('\n');
    const header = lines.indexOf('| partie | CPU de PostgreSQL s | connexions du bench | autres bases | autovacuum | autres processus |');
    expect(header).toBeGreaterThan(0);
    expect(lines.slice(header + 2)).toEqual([
      '| le passage avec cache | 1000.0 | 99.6 % | 0.0 % | 0.3 % | 0.1 % |',
      '| les plafonds, les plans et le premier contenu | 100.0 | 50.0 % | 50.0 % | 0.0 % | 0.0 % |',
    ]);
  });
});
