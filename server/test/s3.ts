import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3Server {
  /** STORAGE_URL for the app: path-style, the test bucket, the server's fixed test credentials. */
  url: string;
  port: number;
  /** Stops answering (connections refused) until `start`: a bucket outage. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A real S3-compatible HTTP server (s3rver) on a local port, its objects in a temporary folder. */
export async function startTestS3Server(bucket = 'maillon-test'): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'maillon-s3-'));
  let port = 0;
  let server: S3rver | null = null;
  const start = async () => {
    server = new S3rver({
      port,
      address: '127.0.0.1',
      directory,
      silent: true,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    const address = await server.run();
    port = address.port;
  };
  const stop = async () => {
    await server?.close();
    server = null;
  };
  await start();
  return {
    // s3rver accepts any signature made with its default key pair.
    url: `s3+http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}`,
    port,
    stop,
    start,
    close: async () => {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
