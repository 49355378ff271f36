/**
 * The load generator of the bench (decision 036): wrk, a load generator written in C like pgbench, when it is on the
 * PATH; autocannon, in this Node process, otherwise or with BENCH_LOADER=autocannon. The client shares this machine's
 * two cores with the server and PostgreSQL, so its own CPU per request is measured and reported with the rest.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  reqPerSec: number;
  /** Latency percentiles in ms (one decimal with wrk, whole ms with autocannon). */
  p50: number;
  p99: number;
  total: number;
  /** Socket errors, timeouts and answers other than 2xx. */
  errors: number;
  /** ms of CPU the load generator spent per request (null where it cannot be read). */
  clientCpu: number | null;
}

export type LoadGenerator = 'wrk' | 'autocannon';

let chosen: LoadGenerator | null = null;

/** BENCH_LOADER=wrk|autocannon, else wrk when it runs here. */
export function loadGenerator(): LoadGenerator {
  if (chosen) return chosen;
  const wanted = process.env.BENCH_LOADER;
  if (wanted === 'autocannon' || wanted === 'wrk') return (chosen = wanted);
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    chosen = 'wrk';
  } catch (error) {
    // wrk --version prints its version and exits with status 1: it is there.
    chosen = (error as { status?: number }).status === 1 ? 'wrk' : 'autocannon';
  }
  if (chosen === 'autocannon') console.log('wrk introuvable : charge générée par autocannon (apt install wrk pour la mesure de référence).');
  return chosen;
}

/** A human line for the results: which client loaded the server. */
export function loadGeneratorLabel(): string {
  return loadGenerator() === 'wrk' ? 'wrk (C, 1 thread)' : 'autocannon (Node, dans le processus du bench)';
}

/** A Lua string literal that holds any bytes: a long bracket whose level does not occur in the text. */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}

function wrkScript(requests: LoadRequest[]): string {
  const formatted = requests.map((r) => {
    const headers = Object.entries(r.headers).map(([k, v]) => `[ ${luaString(k)} ] = ${luaString(v)}`).join(', ');
    return `    wrk.format(${luaString(r.method)}, ${luaString(r.path)}, { ${headers} }, ${r.body === undefined ? 'nil' : luaString(r.body)}),`;
  });
  // The requests are formatted in init(), in each thread's state: wrk.format fails in the main state, which loads the
  // script before the target is known, and would leave done() undefined.
  return `
local requests = {}
local n = 0
init = function(_)
  requests = {
${formatted.join('\n')}
  }
  n = #requests
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
end
request = function()
  return requests[math.random(n)]
end
done = function(summary, latency, _)
  local stat = io.open('/proc/self/stat', 'r')
  local ticks = -1
  if stat then
    local line = stat:read('*l')
    stat:close()
    local fields = {}
    for field in line:gsub('^.*%) ', ''):gmatch('%S+') do fields[#fields + 1] = field end
    ticks = tonumber(fields[12]) + tonumber(fields[13])
  end
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"errors":%d,"p50Us":%d,"p99Us":%d,"ticks":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99), ticks))
end
`;
}

async function runWrk(base: string, connections: number, durationS: number, requests: LoadRequest[]): Promise<LoadResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-wrk-'));
  const script = path.join(dir, 'load.lua');
  fs.writeFileSync(script, wrkScript(requests));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', ['-t', '1', '-c', String(connections), '-d', `${durationS}s`, '--timeout', '10s', '-s', script, base], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`wrk a échoué (${code}) : ${stderr || stdout}`))));
    });
    const line = output.split('\n').find((l) => l.startsWith('WRK_RESULT '));
    if (!line) throw new Error(`wrk n'a pas donné de résultat : ${output}`);
    const r = JSON.parse(line.slice('WRK_RESULT '.length)) as { requests: number; durationUs: number; errors: number; p50Us: number; p99Us: number; ticks: number };
    const round1 = (us: number) => Math.round(us / 100) / 10;
    return {
      reqPerSec: r.requests / (r.durationUs / 1e6),
      p50: round1(r.p50Us),
      p99: round1(r.p99Us),
      total: r.requests,
      errors: r.errors,
      // /proc ticks are hundredths of a second.
      clientCpu: r.ticks >= 0 && r.requests > 0 ? (r.ticks * 10) / r.requests : null,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function runAutocannon(base: string, connections: number, durationS: number, requests: LoadRequest[]): Promise<LoadResult> {
  const before = process.cpuUsage();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        duration: durationS,
        requests: [
          {
            setupRequest: (req) => {
              const pick = requests[Math.floor(Math.random() * requests.length)]!;
              return { ...req, method: pick.method, path: pick.path, headers: { ...req.headers, ...pick.headers }, ...(pick.body === undefined ? {} : { body: pick.body }) };
            },
          },
        ],
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    );
  });
  const used = process.cpuUsage(before);
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    clientCpu: result.requests.total > 0 ? (used.user + used.system) / 1000 / result.requests.total : null,
  };
}

/** `connections` keep-alive connections for `durationS` seconds, each request picked at random from `requests`. */
export function load(base: string, connections: number, durationS: number, requests: LoadRequest[]): Promise<LoadResult> {
  if (requests.length === 0) throw new Error('aucune requête à charger');
  return loadGenerator() === 'wrk' ? runWrk(base, connections, durationS, requests) : runAutocannon(base, connections, durationS, requests);
}
