/**
 * npm run bench:quick -w server -- '<endpoint name regex>' — one short load (load.ts: wrk, else autocannon) per selected endpoint against
 * one server (BENCH_DATABASE_URL, READ_CACHE off unless BENCH_CACHE=true): for working on one read at a time on a
 * shared machine, without the full bench. BENCH_DURATION (s, default 5) after BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 32), BENCH_TECHNICIANS (signed-in technicians, homes spread over France; default 32 as the
 * full bench); prints the CPU each request cost the server and PostgreSQL (cpu.ts).
 */
import { startCpuSample } from './cpu';
import { endpointRequests, endpointSessions, selectedEndpoints } from './endpoints';
import { load, loadGeneratorLabel } from './load';
import { loginAs, loginTechnicians } from './sessions';
import { startServer, waitFor } from './server-process';

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/maillon_bench';
  const port = Number(process.env.BENCH_PORT ?? 3340);
  const duration = Number(process.env.BENCH_DURATION ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
  const warmup = Number(process.env.BENCH_WARMUP ?? 2);
  const server = startServer({ DATABASE_URL: databaseUrl, READ_CACHE: process.env.BENCH_CACHE === 'true' ? 'true' : 'false' }, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/api/public/config`);
    const technicians = await loginTechnicians(base, Number(process.env.BENCH_TECHNICIANS ?? 32));
    const admin = [await loginAs(base)];
    console.log(`Charge : ${loadGeneratorLabel()}, ${connections} connexions.`);
    for (const endpoint of selectedEndpoints(process.argv[2])) {
      const sessions = endpointSessions(endpoint, admin, technicians);
      const requests = endpointRequests(endpoint, sessions);
      // Warm-up (JIT, each connection preparing its statements), not counted.
      await load(base, connections, warmup, requests);
      const cpu = startCpuSample(server.pid);
      const result = await load(base, connections, duration, requests);
      const perRequest = cpu.stop(result.total);
      const cpuText = perRequest
        ? `, CPU per request: Node ${perRequest.node.toFixed(3)} ms, PostgreSQL ${perRequest.postgres?.toFixed(3) ?? '?'} ms, client ${result.clientCpu?.toFixed(2) ?? '?'} ms`
        : '';
      console.log(
        `${endpoint.name}: ${Math.round(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, errors ${result.errors}${cpuText}`,
      );
    }
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
