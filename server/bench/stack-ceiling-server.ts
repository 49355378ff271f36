/**
 * The stack's own ceiling for each bench endpoint (stack-ceiling.ts starts it): a Fastify route with nothing of the app
 * in it that runs the endpoint's captured SQL through node-postgres, as the app does (the same pool size, prepared
 * statements named by db/prepared-statements.ts, no JIT), and sends the app's answer bytes as the app sent them
 * (compressed by the app itself, for the bench's Accept-Encoding). What is left between this and pgbench is what any
 * Node server on Fastify and pg pays for a request on this machine; what is left between the app and this is the app's
 * own work.
 *
 * Run as `node --import tsx stack-ceiling-server.ts <spec.json>`; prints `ready` when it listens.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { PreparingClient } from '../src/db/prepared-statements';

export interface StackCeilingSpec {
  databaseUrl: string;
  poolSize: number;
  port: number;
  /** Each endpoint's SQL with its values as text, and the app's answer as it came on the wire (bytes in base64). */
  endpoints: { queries: { sql: string; params: (string | null)[] }[]; answer: { bytes: string; encoding: string | null; contentType: string } }[];
}

const spec = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as StackCeilingSpec;

const pool = new pg.Pool({ connectionString: spec.databaseUrl, max: spec.poolSize, options: '-c jit=off', Client: PreparingClient });

const app = Fastify({ logger: false });
spec.endpoints.forEach((endpoint, i) => {
  const { encoding, contentType } = endpoint.answer;
  const bytes = Buffer.from(endpoint.answer.bytes, 'base64');
  app.get(`/e/${i}`, async (_request, reply) => {
    // A config object, as Drizzle passes it: PreparingClient names only those (a bare text would stay unnamed).
    for (const query of endpoint.queries) await pool.query({ text: query.sql, values: query.params });
    if (encoding) reply.header('content-encoding', encoding);
    return reply.type(contentType).send(bytes);
  });
});

await app.listen({ port: spec.port, host: '127.0.0.1' });
console.log('ready');
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end()).then(() => process.exit(0));
});
