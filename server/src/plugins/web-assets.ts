import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { etagOf, notModified } from '../lib/http-cache';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

/**
 * The service worker of the technician's field app (decision 023): always revalidated, so a new build reaches the phones
 * on their next visit; its scope is the technician area.
 */
const SERVICE_WORKERS: Record<string, string> = { '/sw.js': '/technician/' };

interface Asset {
  type: string;
  raw: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
  etag: string;
  immutable: boolean;
}

function readVariant(file: string): Buffer | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
}

function collect(dir: string, root: string, assets: Map<string, Asset>): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') collect(full, root, assets);
      continue;
    }
    if (/\.(br|gz)$/.test(entry.name) || entry.name === 'index.html') continue;
    const raw = fs.readFileSync(full);
    const url = `/${path.relative(root, full).split(path.sep).join('/')}`;
    assets.set(url, {
      type: TYPES[path.extname(entry.name)] ?? 'application/octet-stream',
      raw,
      br: readVariant(`${full}.br`),
      gzip: readVariant(`${full}.gz`),
      etag: etagOf(raw, { weak: false }),
      immutable: url.startsWith('/assets/'),
    });
  }
}

/**
 * The built web app's files, read once at start and answered from memory: no file-system call per request, the
 * brotli or gzip copy written by the build (scripts/precompress.mjs) when the browser accepts it. Hashed files under
 * /assets are cached for a year; the others are revalidated (ETag). A first load fetches two dozen small files six at a
 * time, so each one's cost shows in the first content (issue 10).
 */
export async function registerWebAssets(app: FastifyInstance, distDir: string): Promise<number> {
  const assets = new Map<string, Asset>();
  collect(distDir, distDir, assets);
  for (const [url, asset] of assets) {
    app.get(url, { compress: false }, async (request, reply) => {
      reply
        .type(asset.type)
        .header('Vary', 'Accept-Encoding')
        .header('ETag', asset.etag)
        .header('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'public, no-cache');
      const scope = SERVICE_WORKERS[url];
      if (scope) reply.header('Cache-Control', 'no-cache').header('Service-Worker-Allowed', scope);
      if (notModified(request, asset.etag)) return reply.code(304).send();
      const accepted = request.headers['accept-encoding'] ?? '';
      if (asset.br && /\bbr\b/.test(accepted)) return reply.header('Content-Encoding', 'br').send(asset.br);
      if (asset.gzip && /\bgzip\b/.test(accepted)) return reply.header('Content-Encoding', 'gzip').send(asset.gzip);
      return reply.send(asset.raw);
    });
  }
  return assets.size;
}
