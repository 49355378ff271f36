/**
 * npm run bench:quick -w server -- '<endpoint name regex>' — one short autocannon run per selected endpoint against
 * one server (BENCH_DATABASE_URL, READ_CACHE off unless BENCH_CACHE=true): for working on one read at a time on a
 * shared machine, without the full bench. BENCH_DURATION (s, default 5) after BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 32), BENCH_TECHNICIANS (signed-in technicians, homes spread over France; default 32 as the
 * full bench); prints the CPU each request cost the server and PostgreSQL (cpu.ts).
 */
import autocannon from 'autocannon';
import { startCpuSample } from './cpu';
import { selectedEndpoints } from './endpoints';
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
    for (const endpoint of selectedEndpoints(process.argv[2])) {
      const sessions = endpoint.area === 'admin' ? admin : technicians;
      // Warm-up (JIT, each connection preparing its statements), not counted.
      await autocannon({ url: base, connections, duration: warmup, requests: [{ method: 'GET', setupRequest: (req) => {
        const session = sessions[Math.floor(Math.random() * sessions.length)]!;
        return { ...req, path: endpoint.path(session), headers: { ...req.headers, cookie: session.cookie } };
      } }] });
      let bad = 0;
      const cpu = startCpuSample(server.pid);
      const result = await autocannon({
        url: base,
        connections,
        duration,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => {
              const session = sessions[Math.floor(Math.random() * sessions.length)]!;
              return { ...req, path: endpoint.path(session), headers: { ...req.headers, cookie: session.cookie } };
            },
            onResponse: (status) => {
              if (status !== 200) bad += 1;
            },
          },
        ],
      });
      const perRequest = cpu.stop(result.requests.total);
      const cpuText = perRequest ? `, CPU per request: Node ${perRequest.node.toFixed(2)} ms, PostgreSQL ${perRequest.postgres?.toFixed(2) ?? '?'} ms` : '';
      console.log(
        `${endpoint.name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.timeouts + bad}${cpuText}`,
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
