/**
 * The disk under PostgreSQL, measured while a load runs (decision 043): every 20 ms a worker thread writes 8 KiB to a
 * file and waits for fdatasync, as a commit waits for its WAL to reach the disk. A commit cannot return before its
 * flush, so the flush's tail bounds every write's tail whatever the server does. The file lives beside PostgreSQL's
 * data directory when the bench may write there (the same file system), else in the temporary directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** The flushes a probe timed, in ms, sorted; where it wrote, and whether that is PostgreSQL's file system (null: unknown). */
export interface DiskFlushes {
  where: string;
  sameFileSystem: boolean | null;
  latencies: number[];
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const fd = fs.openSync(workerData.file, 'w');
const block = Buffer.alloc(8192, 120);
const latencies = [];
let stopping = false;
parentPort.on('message', () => { stopping = true; });
const step = () => {
  if (stopping) {
    fs.closeSync(fd);
    fs.rmSync(workerData.file, { force: true });
    parentPort.postMessage(latencies);
    return;
  }
  const started = process.hrtime.bigint();
  fs.writeSync(fd, block, 0, block.length, 0);
  fs.fdatasyncSync(fd);
  latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  setTimeout(step, 20);
};
step();
`;

/** Where to write: beside `dataDirectory` (PostgreSQL's, when known and writable), else the temporary directory. */
function probeDirectory(dataDirectory: string | null): { dir: string; sameFileSystem: boolean | null } {
  if (dataDirectory) {
    const beside = path.dirname(dataDirectory);
    try {
      fs.accessSync(beside, fs.constants.W_OK);
      return { dir: beside, sameFileSystem: fs.statSync(beside).dev === fs.statSync(dataDirectory).dev };
    } catch {
      // Not ours to write: the temporary directory, compared with the data directory when it can be read.
    }
  }
  const dir = os.tmpdir();
  try {
    return { dir, sameFileSystem: dataDirectory ? fs.statSync(dir).dev === fs.statSync(dataDirectory).dev : null };
  } catch {
    return { dir, sameFileSystem: null };
  }
}

export function startDiskProbe(dataDirectory: string | null): { stop(): Promise<DiskFlushes> } {
  const { dir, sameFileSystem } = probeDirectory(dataDirectory);
  const file = path.join(dir, `maillon-disk-probe-${process.pid}`);
  const worker = new Worker(WORKER, { eval: true, workerData: { file } });
  const done = new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const latencies = (await done).sort((a, b) => a - b);
      await worker.terminate();
      return { where: dir, sameFileSystem, latencies };
    },
  };
}
