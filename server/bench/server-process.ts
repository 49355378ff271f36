import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Node's flags in `npm start` (`exec node <flags> server/dist/main.js`, decision 035): the bench starts the server
 * as production does.
 */
export function productionNodeFlags(): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const match = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+server\/dist\/main\.js/.exec(start);
  if (!match) throw new Error(`npm start ne lance pas server/dist/main.js : ${start}`);
  return match[1]!.split(/\s+/).filter(Boolean);
}

/** The production bundle the bench starts; BENCH_SERVER_ENTRY points elsewhere (a second build beside the first). */
export function serverEntry(): string {
  return path.resolve(root, process.env.BENCH_SERVER_ENTRY ?? 'server/dist/main.js');
}

/** BENCH_NODE_ARGS: flags for the server's Node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a read). */
export function startServer(env: Record<string, string>, port: number): ChildProcess {
  const nodeArgs = [...productionNodeFlags(), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  return spawn(process.execPath, [...nodeArgs, serverEntry()], {
    // TRUST_PROXY lets the login load spread over many client addresses (X-Forwarded-For) instead of hitting the
    // per-IP login limit, which is what a real crowd of technicians looks like.
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

export async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server not ready: ${url}`);
}
