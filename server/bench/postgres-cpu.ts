/**
 * Which of PostgreSQL's processes a bench run's database time went to (decision 081). The bench's CPU figures sum
 * every PostgreSQL process of the machine (cpu.ts), so a slow run could not tell the bench's own statements from an
 * autovacuum, a checkpoint or another database's sessions. This sampler reads each PostgreSQL process's CPU ticks and
 * title (/proc/<pid>/stat and cmdline) once a second and sums them by kind over each part of the run. A process that
 * ends between two samples loses the ticks of its last second, and one that lives less than a second is not seen.
 */
import fs from 'node:fs';
import { processStat, TICKS_PER_SECOND } from './cpu';

const SAMPLE_MS = 1000;

export const PROCESS_KINDS = ['bench', 'otherDatabases', 'autovacuum', 'background'] as const;
/**
 * `bench`: the sessions of the bench's database and their parallel workers; `otherDatabases`: sessions of any other
 * database; `autovacuum`: its launcher and workers; `background`: the postmaster, checkpointer, writers and the rest.
 */
export type ProcessKind = (typeof PROCESS_KINDS)[number];

/** PostgreSQL's CPU over one part of a run. */
export interface PostgresCpuPart {
  /** The part, as the machine state names it (« le passage avec cache »). */
  part: string;
  /** Seconds of CPU all PostgreSQL processes used over the part. */
  seconds: number;
  /** Share of those seconds by kind of process (0 when `seconds` is 0). */
  shares: Record<ProcessKind, number>;
}

/**
 * The kind of a PostgreSQL process from its title: `postgres: [cluster: ]<what>`, where a session's <what> is
 * `<user> <database> <host>(<port>) <state>` or `<user> <database> [local] <state>`. A parallel worker's kind is its
 * leader's (`leader` gives it), and the postmaster keeps its command line as its title.
 */
export function processKind(title: string, benchDatabase: string, leader: (pid: number) => ProcessKind | undefined): ProcessKind {
  const match = /^postgres: (?:[^\s:]+: )?(.*)$/.exec(title.trim());
  if (!match) return 'background';
  const what = match[1]!;
  if (what.startsWith('autovacuum')) return 'autovacuum';
  const parallel = /^parallel worker for PID (\d+)/.exec(what);
  if (parallel) return leader(Number(parallel[1])) ?? 'background';
  const words = what.split(/\s+/);
  if (words.length >= 3 && (words[2] === '[local]' || /\(\d+\)$/.test(words[2]!))) return words[1] === benchDatabase ? 'bench' : 'otherDatabases';
  return 'background';
}

interface Seen {
  /** The process's start time, in ticks since boot: a pid used again is another process. */
  started: string;
  kind: ProcessKind;
  ticks: number;
}

interface Sampled {
  pid: number;
  started: string;
  ticks: number;
  title: string;
}

/** The PostgreSQL processes of this machine with their start time, CPU ticks and title, or null off Linux. */
function postgresProcesses(proc: string): Sampled[] | null {
  let entries: string[];
  try {
    entries = fs.readdirSync(proc);
  } catch {
    return null;
  }
  const found: Sampled[] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    try {
      const stat = processStat(entry, proc);
      if (stat?.name !== 'postgres') continue;
      const title = fs.readFileSync(`${proc}/${entry}/cmdline`, 'utf8').replace(/\0+/g, ' ');
      found.push({ pid: Number(entry), started: stat.started, ticks: stat.ticks, title });
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

const emptyTicks = (): Record<ProcessKind, number> => ({ bench: 0, otherDatabases: 0, autovacuum: 0, background: 0 });

/**
 * Samples PostgreSQL's processes once a second from now on. `cut(part)` closes the part running since the last cut
 * (or the start) and returns its figures, null off Linux; `skip()` closes it and throws its figures away (the probes'
 * own time); `stop()` ends the sampling. `proc` is /proc but in tests.
 */
export function startPostgresCpuSampler(
  benchDatabase: string,
  proc = '/proc',
): { cut(part: string): PostgresCpuPart | null; skip(): void; stop(): void } {
  const seen = new Map<number, Seen>();
  let ticks = emptyTicks();
  let available = true;
  const sample = (first: boolean) => {
    const processes = postgresProcesses(proc);
    if (processes === null) {
      available = false;
      return;
    }
    const live = new Set<number>();
    const kindOf = (pid: number) => seen.get(pid)?.kind;
    for (const found of processes) {
      live.add(found.pid);
      const before = seen.get(found.pid);
      if (before && before.started === found.started) {
        ticks[before.kind] += found.ticks - before.ticks;
        before.ticks = found.ticks;
        continue;
      }
      const kind = processKind(found.title, benchDatabase, kindOf);
      // A process there at the first sample counts from then; one that started since, from its start.
      if (!first) ticks[kind] += found.ticks;
      seen.set(found.pid, { started: found.started, kind, ticks: found.ticks });
    }
    for (const pid of seen.keys()) if (!live.has(pid)) seen.delete(pid);
  };
  sample(true);
  const timer = setInterval(() => sample(false), SAMPLE_MS);
  timer.unref();
  return {
    cut(part) {
      sample(false);
      const partTicks = ticks;
      ticks = emptyTicks();
      return available ? postgresCpuPart(part, partTicks) : null;
    },
    skip() {
      sample(false);
      ticks = emptyTicks();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** A part's figures from its ticks by kind. */
export function postgresCpuPart(part: string, ticks: Record<ProcessKind, number>): PostgresCpuPart {
  const total = PROCESS_KINDS.reduce((sum, kind) => sum + ticks[kind], 0);
  const shares = emptyTicks();
  for (const kind of PROCESS_KINDS) shares[kind] = total > 0 ? ticks[kind] / total : 0;
  return { part, seconds: total / TICKS_PER_SECOND, shares };
}
