import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { comparedWith, judgeState, machineStateMarkdown, type MachineState, type Probe } from '../../bench/machine-state';
import { serverMallocVariables, type PostgresSettings, postgresSettingsText, settingsDifference } from '../../bench/postgres-settings';

const stock: PostgresSettings = { sharedBuffers: '128MB', malloc: [] };
const production: PostgresSettings = { sharedBuffers: '6GB', malloc: ['MALLOC_MMAP_THRESHOLD_=4194304', 'MALLOC_TRIM_THRESHOLD_=4194304'] };

describe('the PostgreSQL settings of a bench run', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });
  /** A process's `stat`: pid (name) state ppid, then zeros up to the start time. */
  const stat = (pid: number, name: string, parent: number) => `${pid} (${name}) S ${parent} ${Array.from({ length: 20 }, () => '0').join(' ')}\n`;
  /** A /proc with a backend (its title over its environment) and its postmaster, whose environment is given. */
  const procWith = (backend: number, postmaster: number, environ: string) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-proc-'));
    roots.push(root);
    fs.mkdirSync(path.join(root, String(backend)));
    fs.writeFileSync(path.join(root, String(backend), 'stat'), stat(backend, 'postgres', postmaster));
    fs.writeFileSync(path.join(root, String(backend), 'environ'), 'postgres: 15/main: postgres maillon_bench 127.0.0.1(1) idle\0\0\0');
    fs.mkdirSync(path.join(root, String(postmaster)));
    fs.writeFileSync(path.join(root, String(postmaster), 'environ'), environ);
    return root;
  };

  it('reads glibc variables from the environment of the server a backend belongs to, sorted, and tells none from unreadable', () => {
    const tuned = procWith(41, 7, 'PGDATA=/var/lib/postgresql/15/main\0MALLOC_TRIM_THRESHOLD_=4194304\0LANG=C.UTF-8\0MALLOC_MMAP_THRESHOLD_=4194304\0');
    expect(serverMallocVariables(41, tuned)).toEqual(['MALLOC_MMAP_THRESHOLD_=4194304', 'MALLOC_TRIM_THRESHOLD_=4194304']);
    expect(serverMallocVariables(42, procWith(42, 8, 'PGDATA=/var/lib/postgresql/15/main\0LANG=C.UTF-8\0'))).toEqual([]);
    // No such backend, or a postmaster whose environment cannot be read.
    expect(serverMallocVariables(43, tuned)).toBeNull();
    // The same pid, but not PostgreSQL's (a server on another machine).
    fs.writeFileSync(path.join(tuned, '41', 'stat'), stat(41, 'node', 7));
    expect(serverMallocVariables(41, tuned)).toBeNull();
    fs.writeFileSync(path.join(tuned, '41', 'stat'), stat(41, 'postgres', 7));
    expect(serverMallocVariables(41, tuned)).toEqual(['MALLOC_MMAP_THRESHOLD_=4194304', 'MALLOC_TRIM_THRESHOLD_=4194304']);
    fs.rmSync(path.join(tuned, '7'), { recursive: true });
    expect(serverMallocVariables(41, tuned)).toBeNull();
  });

  it('says the settings, and how two runs settings differ', () => {
    expect(postgresSettingsText(production)).toBe(
      '`shared_buffers` 6GB, seuils de glibc du serveur : MALLOC_MMAP_THRESHOLD_=4194304, MALLOC_TRIM_THRESHOLD_=4194304',
    );
    expect(postgresSettingsText({ sharedBuffers: '128MB', malloc: null })).toBe('`shared_buffers` 128MB, seuils de glibc du serveur : non lu');
    expect(settingsDifference(stock, { ...stock })).toBeNull();
    expect(settingsDifference(production, stock)).toBe(
      'shared_buffers 6GB contre 128MB, seuils de glibc MALLOC_MMAP_THRESHOLD_=4194304, MALLOC_TRIM_THRESHOLD_=4194304 contre aucun',
    );
    expect(settingsDifference({ ...stock, sharedBuffers: '1GB' }, stock)).toBe('shared_buffers 1GB contre 128MB');
    // An environment that could not be read is unknown, not different; a run before decision 082 recorded nothing.
    expect(settingsDifference({ ...stock, malloc: null }, production)).toBe('shared_buffers 128MB contre 6GB');
    expect(settingsDifference({ ...production, malloc: null }, production)).toBeNull();
    expect(settingsDifference(production, undefined)).toBeNull();
  });

  it('makes two runs on the same machine state but different settings not comparable, and shows the settings', () => {
    const start: Probe = { at: '2026-12-07T01:11:00.000Z', loadAverage: [1, 1, 1], pgbenchTps: 55000, pgbenchTextTps: 10000, nodeLoopMps: 560 };
    const run = (settings?: PostgresSettings, textTps = 10000): MachineState => {
      const state = judgeState({ ...start, pgbenchTextTps: textTps }, { ...start, pgbenchTextTps: textTps }, null);
      return settings ? { ...state, postgresSettings: settings } : state;
    };
    const now = run(production);
    const figures = 'pgbench select 1 55000 contre 55000 tps, pgbench texte 60 Kio 10000 contre 10000 tps, boucle Node 560 contre 560 M tours/s';
    expect(comparedWith(now, run(stock))).toEqual({
      comparable: false,
      text: `**Non comparable** au run du 2026-12-07 01:11 UTC (${figures}) : réglages de PostgreSQL différents (shared_buffers 6GB contre 128MB, seuils de glibc MALLOC_MMAP_THRESHOLD_=4194304, MALLOC_TRIM_THRESHOLD_=4194304 contre aucun).`,
    });
    expect(comparedWith(now, run(production))).toEqual({ comparable: true, text: `Comparable au run du 2026-12-07 01:11 UTC (${figures}).` });
    // A run before decision 082 is compared on its probes alone.
    expect(comparedWith(now, run()).comparable).toBe(true);
    // Both the settings and the machine differ: both reasons.
    expect(comparedWith(now, run({ ...production, sharedBuffers: '128MB' }, 1000)).text).toMatch(
      /: réglages de PostgreSQL différents \(shared_buffers 6GB contre 128MB\) ; leurs écarts mesurent aussi la machine\.$/,
    );

    const lines = machineStateMarkdown('État de la machine', now).split('\n');
    expect(lines).toContain(
      'Réglages de PostgreSQL au début (décision 082) : `shared_buffers` 6GB, seuils de glibc du serveur : MALLOC_MMAP_THRESHOLD_=4194304, MALLOC_TRIM_THRESHOLD_=4194304.',
    );
    expect(machineStateMarkdown('État de la machine', run())).not.toContain('Réglages de PostgreSQL');
  });
});
