/**
 * Where an uncached read's time goes, as CPU spent per request by the Node server and by PostgreSQL's processes over a
 * measured load (Linux: /proc/<pid>/stat, user + system ticks), and by the load generator (load.ts). The client, the
 * server and PostgreSQL share this machine's cores, so requests per second alone cannot say which side a change
 * helped; CPU per request can.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** Linux's clock ticks per second, the unit of /proc's CPU times. */
export const TICKS_PER_SECOND = 100;

/**
 * A process's name, parent, user + system CPU ticks and start time (ticks since boot, as written), from
 * `<proc>/<pid>/stat`; null when it cannot be read (not Linux, process gone). `proc` is /proc but in tests.
 */
export function processStat(pid: number | string, proc = '/proc'): { name: string; parent: number; ticks: number; started: string } | null {
  try {
    const stat = fs.readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // `pid (name) state ppid …`: the name may hold spaces and parentheses, so it ends at the last `) `. After it,
    // ppid is the 2nd field, utime and stime the 12th and 13th, starttime the 20th.
    const close = stat.lastIndexOf(') ');
    const fields = stat.slice(close + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, close), parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), started: fields[19]! };
  } catch {
    return null;
  }
}

/** User + system CPU ticks of a process, or null when it cannot be read (not Linux, process gone). */
const processTicks = (pid: number): number | null => processStat(pid)?.ticks ?? null;

/** Every PostgreSQL process of this machine (backends, background workers): the database side of the load. */
function postgresTicks(): number | null {
  if (os.platform() !== 'linux') return null;
  let pids: number[];
  try {
    pids = execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return null;
  }
  return pids.reduce((sum, pid) => sum + (processTicks(pid) ?? 0), 0);
}

export interface CpuPerRequest {
  /** ms of CPU per request in the Node server. */
  node: number;
  /** ms of CPU per request in PostgreSQL (null on PGlite, which runs inside the server). */
  postgres: number | null;
  /** ms of CPU per request in the load generator (load.ts), where it was measured. */
  client?: number | null;
}

/** Starts measuring; `stop(requests)` gives the CPU per request since, or null where /proc is not there. */
export function startCpuSample(serverPid: number | undefined): { stop(requests: number): CpuPerRequest | null } {
  const node0 = serverPid ? processTicks(serverPid) : null;
  const pg0 = postgresTicks();
  return {
    stop(requests: number) {
      if (!serverPid || node0 === null || requests <= 0) return null;
      const node1 = processTicks(serverPid);
      const pg1 = postgresTicks();
      if (node1 === null) return null;
      const perRequest = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND / requests;
      return { node: perRequest(node1 - node0), postgres: pg0 !== null && pg1 !== null ? perRequest(pg1 - pg0) : null };
    },
  };
}

/** A CPU figure of the results' tables: ms with two decimals, « — » where it was not measured. */
export const cpuMs = (value: number | null | undefined) => (value === null || value === undefined ? '—' : value.toFixed(2));
