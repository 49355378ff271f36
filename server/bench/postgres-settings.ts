/**
 * The PostgreSQL settings a run was measured with (decision 082). Two of README › Production's settings change the
 * bench's figures by more than the code does on some states of this machine: `shared_buffers` (decision 080) and
 * glibc's thresholds in the server's environment (decision 078). A run records both at its start, so that its results
 * say what they were measured on, and two runs measured on different settings are not compared as if they were alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { processStat } from './cpu';

export interface PostgresSettings {
  /** `shared_buffers` as PostgreSQL shows it (« 128MB »). */
  sharedBuffers: string;
  /**
   * The server's glibc variables (`MALLOC_…`, « MALLOC_MMAP_THRESHOLD_=4194304 »), sorted; empty when it has none;
   * null when its environment could not be read (a server on another machine, or run by another user).
   */
  malloc: string[] | null;
}

/**
 * The glibc variables of the server that runs a session's backend, null when they cannot be read. A backend writes its
 * title over its own environment (`ps` shows « postgres: … SELECT »), so they are read from its parent, the
 * postmaster, whose environment is the one the server was started with (`/proc/<parent>/environ`, NUL-separated).
 */
export function serverMallocVariables(backendPid: number, proc = '/proc'): string[] | null {
  const backend = processStat(backendPid, proc);
  // A server on another machine: the pid here, if any, is some other process.
  if (backend?.name !== 'postgres') return null;
  try {
    const environ = fs.readFileSync(path.join(proc, String(backend.parent), 'environ'), 'utf8');
    return environ
      .split('\0')
      .filter((entry) => entry.startsWith('MALLOC_'))
      .sort();
  } catch {
    return null;
  }
}

/** Reads the settings through one session, its server's environment read while the session is open. */
export async function readPostgresSettings(databaseUrl: string): Promise<PostgresSettings | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ shared_buffers: string; pid: number }>(
      "select current_setting('shared_buffers') as shared_buffers, pg_backend_pid() as pid",
    );
    const row = rows[0]!;
    return { sharedBuffers: row.shared_buffers, malloc: serverMallocVariables(row.pid) };
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server's glibc variables as the results say them. */
function mallocText(malloc: string[] | null): string {
  return malloc === null ? 'non lu' : malloc.length === 0 ? 'aucun' : malloc.join(', ');
}

/** The settings as the results say them. */
export function postgresSettingsText(settings: PostgresSettings): string {
  return `\`shared_buffers\` ${settings.sharedBuffers}, seuils de glibc du serveur : ${mallocText(settings.malloc)}`;
}

/**
 * How two runs' settings differ, as a clause of the comparison (« shared_buffers 6GB contre 128MB »); null when they
 * agree or when either run did not record them (an environment not read counts as unknown, not as different).
 */
export function settingsDifference(now: PostgresSettings | undefined, earlier: PostgresSettings | undefined): string | null {
  if (!now || !earlier) return null;
  const differences: string[] = [];
  if (now.sharedBuffers !== earlier.sharedBuffers) differences.push(`shared_buffers ${now.sharedBuffers} contre ${earlier.sharedBuffers}`);
  if (now.malloc !== null && earlier.malloc !== null && now.malloc.join(',') !== earlier.malloc.join(',')) {
    differences.push(`seuils de glibc ${mallocText(now.malloc)} contre ${mallocText(earlier.malloc)}`);
  }
  return differences.length > 0 ? differences.join(', ') : null;
}
