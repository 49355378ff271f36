/**
 * npm run bench:quick -w server -- '<endpoint name regex>' — one short autocannon run per selected endpoint against
 * one server (BENCH_DATABASE_URL, READ_CACHE off unless BENCH_CACHE=true): for working on one read at a time on a
 * shared machine, without the full bench. BENCH_DURATION (s, default 5), BENCH_CONNECTIONS (default 32).
 */
import autocannon from 'autocannon';
import { selectedEndpoints } from './endpoints';
import { loginAs, loginTechnicians } from './sessions';
import { startServer, waitFor } from './server-process';

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/maillon_bench';
  const port = Number(process.env.BENCH_PORT ?? 3340);
  const duration = Number(process.env.BENCH_DURATION ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
  const server = startServer({ DATABASE_URL: databaseUrl, READ_CACHE: process.env.BENCH_CACHE === 'true' ? 'true' : 'false' }, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/api/public/config`);
    const technicians = await loginTechnicians(base, 8);
    const admin = [await loginAs(base)];
    for (const endpoint of selectedEndpoints(process.argv[2])) {
      const sessions = endpoint.area === 'admin' ? admin : technicians;
      let bad = 0;
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
      console.log(
        `${endpoint.name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.timeouts + bad}`,
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
