/**
 * The machine's state around a bench run (decision 073). On this shared machine runs of one build differ by two to
 * five times from one hour to the next, so a result is only read against the state it was measured in: the same
 * probes at the run's start, between its parts (the full bench's PostgreSQL passes) and at its end (pgbench on a
 * statement that reads no table: PostgreSQL's round trips and the cores' scheduling; pgbench on a statement that
 * builds a 60 KB text: the memory a backend takes and gives back on each call, whose page faults are dear on some
 * virtual machines, decision 078; a loop in Node that allocates nothing: one core's speed), the load average, and how
 * the cores' time was spent in between (steal: time the host gave to other machines). The run is « stable » when all
 * its probes agree and little time was stolen, and two runs are comparable only when their first probes agree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pgbenchTps, runCommand } from './pgbench';
import { type PostgresCpuPart, startPostgresCpuSampler } from './postgres-cpu';
import { type PostgresSettings, postgresSettingsText, readPostgresSettings, settingsDifference } from './postgres-settings';

/** Two probes agree when they differ by at most this share. */
const PROBE_TOLERANCE = 0.2;
/** A run is unsteady when more than this share of the cores' time was stolen by the host. */
const STEAL_LIMIT = 0.05;
const PGBENCH_CLIENTS = 8;
const PGBENCH_SECONDS = Number(process.env.BENCH_STATE_PROBE_S ?? 3);
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

export interface Probe {
  at: string;
  /** Load average over 1, 5 and 15 minutes. */
  loadAverage: number[];
  /** pgbench `select 1`, 8 clients: transactions per second (median of three runs), null when pgbench could not run. */
  pgbenchTps: number | null;
  /**
   * pgbench on a statement that builds a 60 KB text (500 pieces of 120 bytes joined, the size of the lots' map), 8
   * clients, median of three; null when pgbench could not run, absent from runs before decision 078.
   */
  pgbenchTextTps?: number | null;
  /** Node: millions of turns per second of a loop that allocates nothing (one core's speed). */
  nodeLoopMps: number;
}

/** Shares of the cores' time between the two probes (/proc/stat), null off Linux. */
export interface CpuShares {
  busy: number;
  iowait: number;
  steal: number;
  idle: number;
}

/** A probe between two parts of a run, after the part it names (« le passage avec cache »). */
export interface MiddleProbe extends Probe {
  after: string;
}

export interface MachineState {
  start: Probe;
  /** The probes between the run's parts, in order (none in the mixed run, and in runs before they were taken). */
  middle?: MiddleProbe[];
  end: Probe;
  cpu: CpuShares | null;
  stable: boolean;
  /** Why the run is not stable (empty when it is). */
  reasons: string[];
  /**
   * PostgreSQL's CPU by kind of process over each part of the run, the probes left out (postgres-cpu.ts); absent off
   * Linux and in runs before decision 081.
   */
  postgresCpu?: PostgresCpuPart[];
  /**
   * PostgreSQL's `shared_buffers` and glibc's thresholds at the run's start (postgres-settings.ts); absent when they
   * could not be read and in runs before decision 082.
   */
  postgresSettings?: PostgresSettings;
}

/** The cores' cumulative ticks by kind, from the first line of /proc/stat. */
function cpuTicks(): number[] | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    return line.trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return null;
  }
}

function cpuShares(before: number[] | null, after: number[] | null): CpuShares | null {
  if (!before || !after) return null;
  // user nice system idle iowait irq softirq steal
  const delta = after.map((value, i) => value - before[i]!);
  const total = delta.reduce((sum, value) => sum + value, 0);
  if (total <= 0) return null;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = delta as [number, number, number, number, number, number, number, number];
  return { busy: (user + nice + system + irq + softirq) / total, iowait: iowait / total, steal: steal / total, idle: idle / total };
}

/** The probes' statements: one that reads nothing, and one that builds a 60 KB text (decision 078). */
const SELECT_ONE = 'select 1;';
const TEXT_60_KB = "select length(array_to_string(array(select repeat('x', 120) from generate_series(1, 500)), ','));";

/** pgbench on one statement: the median of three short runs, so that one passing hiccup does not make the probe. */
async function pgbenchMedian(databaseUrl: string, name: string, statement: string): Promise<number | null> {
  const script = path.join(os.tmpdir(), `maillon-bench-state-${name}.sql`);
  fs.writeFileSync(script, `${statement}\n`);
  const bin = process.env.BENCH_PGBENCH ?? 'pgbench';
  const args = ['-n', '-M', 'prepared', '-c', String(PGBENCH_CLIENTS), '-j', '2', '-T', String(PGBENCH_SECONDS), '-f', script, databaseUrl];
  const runs: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    try {
      const output = await runCommand(bin, args);
      const tps = pgbenchTps(output.stdout);
      if (output.code !== 0 || tps === null) return null;
      runs.push(tps);
    } catch {
      return null;
    }
  }
  return Math.round(runs.sort((a, b) => a - b)[1]!);
}

/**
 * One core's speed for Node: a xorshift loop, in millions of turns per second, the median of five timings after a
 * warm-up. It allocates nothing, so no garbage collection lands in it (writing and parsing JSON, tried first, varied by
 * half on an idle machine for that reason).
 */
function nodeLoopMps(): number {
  const turns = (count: number) => {
    let x = 1;
    for (let i = 0; i < count; i += 1) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
    }
    return x;
  };
  turns(5e6); // warm-up: the JIT compiles the loop before it is timed
  const speeds = Array.from({ length: 5 }, () => {
    const started = process.hrtime.bigint();
    // The result is used, so that the loop cannot be dropped as dead code.
    const count = turns(2e7) === 0 ? 0 : 2e7;
    return count / 1e6 / (Number(process.hrtime.bigint() - started) / 1e9);
  }).sort((a, b) => a - b);
  return Math.round(speeds[2]!);
}

async function probe(databaseUrl: string): Promise<Probe> {
  return {
    at: new Date().toISOString(),
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
    pgbenchTps: await pgbenchMedian(databaseUrl, 'select-one', SELECT_ONE),
    pgbenchTextTps: await pgbenchMedian(databaseUrl, 'text', TEXT_60_KB),
    nodeLoopMps: nodeLoopMps(),
  };
}

/** Whether figures of one probe agree within the tolerance, the highest against the lowest (a missing one agrees with nothing). */
function agree(...figures: (number | null)[]): boolean {
  if (figures.some((figure) => figure === null)) return false;
  const values = figures as number[];
  return Math.max(...values) - Math.min(...values) <= PROBE_TOLERANCE * Math.max(...values);
}

/**
 * Probes the machine now; `between(after)` probes it again between two parts of the run, after the part it names;
 * `finish(lastPart)` probes it a last time and judges the run. PostgreSQL's CPU is sampled by kind of process over each
 * part, the probes' own time left out.
 */
export async function startMachineState(
  databaseUrl: string,
): Promise<{ between(after: string): Promise<void>; finish(lastPart: string): Promise<MachineState> }> {
  const settings = await readPostgresSettings(databaseUrl);
  const start = await probe(databaseUrl);
  const ticks = cpuTicks();
  const middle: MiddleProbe[] = [];
  const sampler = startPostgresCpuSampler(new URL(databaseUrl).pathname.slice(1));
  const postgresCpu: PostgresCpuPart[] = [];
  const cut = (part: string) => {
    const figures = sampler.cut(part);
    if (figures) postgresCpu.push(figures);
  };
  return {
    async between(after) {
      cut(after);
      middle.push({ ...(await probe(databaseUrl)), after });
      // The probe's own time is not part of the next part.
      sampler.skip();
    },
    async finish(lastPart) {
      cut(lastPart);
      sampler.stop();
      const cpu = cpuShares(ticks, cpuTicks());
      const state = judgeState(start, await probe(databaseUrl), cpu, middle);
      return { ...state, ...(postgresCpu.length > 0 ? { postgresCpu } : {}), ...(settings ? { postgresSettings: settings } : {}) };
    },
  };
}

/** Each probe with its row's label in the table and when it was taken, as the reasons say it. */
const probesInOrder = (start: Probe, middle: readonly MiddleProbe[], end: Probe) => [
  { label: 'début', when: 'au début', probe: start },
  ...middle.map((probe) => ({ label: `après ${probe.after}`, when: `après ${probe.after}`, probe })),
  { label: 'fin', when: 'à la fin', probe: end },
];

/** A run is stable when all its probes agree and the host stole little of the cores' time. */
export function judgeState(start: Probe, end: Probe, cpu: CpuShares | null, middle: MiddleProbe[] = []): MachineState {
  const probes = probesInOrder(start, middle, end);
  const reasons: string[] = [];
  // One figure of every probe: the reason lists them in order, the first with its unit.
  const check = (name: string, unit: string, figure: (probe: Probe) => number | null) => {
    if (agree(...probes.map(({ probe }) => figure(probe)))) return;
    reasons.push(`${name} : ${probes.map(({ when, probe }, i) => `${figure(probe) ?? '—'}${i === 0 ? ` ${unit}` : ''} ${when}`).join(', ')}`);
  };
  check('pgbench select 1', 'tps', (probe) => probe.pgbenchTps);
  // A probe built without the text figure (as the tests' probes are) is judged on the other two alone.
  if (probes.some(({ probe }) => probe.pgbenchTextTps !== undefined)) {
    check('pgbench texte 60 Kio', 'tps', (probe) => probe.pgbenchTextTps ?? null);
  }
  check('boucle Node', 'M tours/s', (probe) => probe.nodeLoopMps);
  if (cpu && cpu.steal > STEAL_LIMIT) reasons.push(`${percent(cpu.steal)} du temps des cœurs pris par l'hôte (steal)`);
  return { start, ...(middle.length > 0 ? { middle } : {}), end, cpu, stable: reasons.length === 0, reasons };
}

/**
 * Whether this run's state matches an earlier run's (its probes at the start agree, and PostgreSQL's settings where
 * both runs recorded them), and why not.
 */
export function comparedWith(state: MachineState, earlier: MachineState | undefined): { comparable: boolean; text: string } {
  if (!earlier) return { comparable: false, text: "Le run précédent n'a pas relevé l'état de la machine : pas de comparaison." };
  // The text probe counts only when both runs took it (decision 078).
  const bothText = state.start.pgbenchTextTps !== undefined && earlier.start.pgbenchTextTps !== undefined;
  const same =
    agree(state.start.pgbenchTps, earlier.start.pgbenchTps) &&
    (!bothText || agree(state.start.pgbenchTextTps ?? null, earlier.start.pgbenchTextTps ?? null)) &&
    agree(state.start.nodeLoopMps, earlier.start.nodeLoopMps);
  const text = bothText ? `, pgbench texte 60 Kio ${state.start.pgbenchTextTps ?? '—'} contre ${earlier.start.pgbenchTextTps ?? '—'} tps` : '';
  const figures = `pgbench select 1 ${state.start.pgbenchTps ?? '—'} contre ${earlier.start.pgbenchTps ?? '—'} tps${text}, boucle Node ${state.start.nodeLoopMps} contre ${earlier.start.nodeLoopMps} M tours/s`;
  const when = `au run du ${earlier.start.at.slice(0, 16).replace('T', ' ')} UTC (${figures})`;
  const settings = settingsDifference(state.postgresSettings, earlier.postgresSettings);
  if (same && !settings) return { comparable: true, text: `Comparable ${when}.` };
  const why = [settings ? `réglages de PostgreSQL différents (${settings})` : null, same ? null : 'leurs écarts mesurent aussi la machine'];
  return { comparable: false, text: `**Non comparable** ${when} : ${why.filter(Boolean).join(' ; ')}.` };
}

/** The section of the results that says in which state the figures were measured. */
export function machineStateMarkdown(title: string, state: MachineState, earlier?: MachineState): string {
  const middle = state.middle ?? [];
  const row = (label: string, probe: Probe) =>
    `| ${label} | ${probe.at.slice(11, 19)} | ${probe.loadAverage.map((value) => value.toFixed(2)).join(' / ')} | ${probe.pgbenchTps ?? '—'} | ${probe.pgbenchTextTps ?? '—'} | ${probe.nodeLoopMps} |`;
  const cpu = state.cpu
    ? `Temps des cœurs entre le premier et le dernier relevé : occupé ${percent(state.cpu.busy)}, attente disque ${percent(state.cpu.iowait)}, pris par l'hôte (steal) ${percent(state.cpu.steal)}, libre ${percent(state.cpu.idle)}.`
    : 'Temps des cœurs : non relevé (pas de /proc/stat).';
  const verdict = state.stable
    ? `État **stable** : les ${middle.length > 0 ? middle.length + 2 : 'deux'} relevés concordent à ${PROBE_TOLERANCE * 100} % près.`
    : `État **instable** : ${state.reasons.join(' ; ')}. Les chiffres de ce run mesurent aussi la machine.`;
  return [
    `### ${title}`,
    '',
    `Les mêmes sondes ${middle.length > 0 ? 'au début, entre les passages' : 'au début'} et à la fin : pgbench sur \`select 1\` (${PGBENCH_CLIENTS} clients, médiane de trois fois ${PGBENCH_SECONDS} s, aucune table lue), pgbench sur une requête qui assemble un texte de 60 Kio (la mémoire qu'un processus de PostgreSQL prend et rend à chaque appel, décision 078) et une boucle de calcul dans Node qui n'alloue rien (la vitesse d'un cœur).`,
    '',
    '| relevé | heure UTC | load average 1 / 5 / 15 min | pgbench select 1 tps | pgbench texte 60 Kio tps | boucle Node M tours/s |',
    '| --- | --- | --- | ---: | ---: | ---: |',
    ...probesInOrder(state.start, middle, state.end).map(({ label, probe }) => row(label, probe)),
    '',
    `${cpu} ${verdict} ${comparedWith(state, earlier).text}`,
    ...(state.postgresSettings ? ['', `Réglages de PostgreSQL au début (décision 082) : ${postgresSettingsText(state.postgresSettings)}.`] : []),
    ...postgresCpuMarkdown(state.postgresCpu),
  ].join('\n');
}

/** Where PostgreSQL's CPU went over each part of the run, by kind of process; nothing when it was not sampled. */
function postgresCpuMarkdown(parts: readonly PostgresCpuPart[] | undefined): string[] {
  if (!parts || parts.length === 0) return [];
  return [
    '',
    "Le temps de PostgreSQL par sorte de processus, relevé chaque seconde hors des sondes (décision 081) : les connexions à la base du bench et leurs processus parallèles, celles d'autres bases, l'autovacuum, et le reste (postmaster, checkpointer, writers).",
    '',
    '| partie | CPU de PostgreSQL s | connexions du bench | autres bases | autovacuum | autres processus |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...parts.map(
      ({ part, seconds, shares }) =>
        `| ${part} | ${seconds.toFixed(1)} | ${percent(shares.bench)} | ${percent(shares.otherDatabases)} | ${percent(shares.autovacuum)} | ${percent(shares.background)} |`,
    ),
  ];
}

/** The machine state an earlier results file recorded, if it did. */
export function earlierMachineState(file: string): MachineState | undefined {
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { machineState?: MachineState }).machineState;
  } catch {
    return undefined;
  }
}
