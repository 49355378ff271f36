/**
 * The stack's own ceiling for each bench endpoint (stack-ceiling.ts starts it): a Fastify route with nothing of the app
 * in it that runs the endpoint's captured SQL through node-postgres, as the app does (the same pool size, prepared
 * statements named by db/prepared-statements.ts, no JIT), and sends the app's answer bytes, compressed once at start
 * as the app compresses them. What is left between this and pgbench is what any Node server on Fastify and pg pays for
 * a request on this machine; what is left between the app and this is the app's own work.
 *
 * Run as `node --import tsx stack-ceiling-server.ts <spec.json>`; prints `ready` when it listens.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import pg from 'pg';
import { PreparingClient } from '../src/db/prepared-statements';

export interface StackCeilingSpec {
  databaseUrl: string;
  poolSize: number;
  port: number;
  endpoints: { queries: { sql: string; params: (string | null)[] }[]; body: string; contentType: string }[];
}

const spec = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as StackCeilingSpec;

const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize, options: '-c jit=off', Client: PreparingClient });

/** The bytes the app sends a browser for this answer: brotli 1 over 1 KiB (plugins/compression.ts). */
function wireBytes(body: string): { bytes: Buffer; encoding: string | null } {
  const plain = Buffer.from(body);
  if (plain.length < 1024) return { bytes: plain, encoding: null };
  const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length };
  return { bytes: zlib.brotliCompressSync(plain, { params }), encoding: 'br' };
}

const app = Fastify({ logger: false });
spec.endpoints.forEach((endpoint, i) => {
  const { bytes, encoding } = wireBytes(endpoint.body);
  app.get(`/e/${i}`, async (_request, reply) => {
    // A config object, as Drizzle passes it: PreparingClient names only those (a bare text would stay unnamed).
    for (const query of endpoint.queries) await pool.query({ text: query.sql, values: query.params });
    if (encoding) reply.header('content-encoding', encoding);
    return reply.type(endpoint.contentType).send(bytes);
  });
});

await app.listen({ port: spec.port, host: '127.0.0.1' });
console.log('ready');
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end()).then(() => process.exit(0));
});
