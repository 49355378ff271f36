// Writes a brotli (.br) and a gzip (.gz) copy next to each text asset of the web build, so the server sends them as
// they are (@fastify/static preCompressed) instead of compressing on every request. Usage: node scripts/precompress.mjs web/dist
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'web/dist');
const TEXT = /\.(js|css|html|svg|json|txt|webmanifest)$/;
let files = 0;
let before = 0;
let after = 0;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (TEXT.test(entry.name)) compress(full);
  }
}

function compress(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.length < 1024) return;
  const br = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  files += 1;
  before += bytes.length;
  after += br.length;
}

walk(dist);
console.log(`Précompression : ${files} fichiers, ${(before / 1024).toFixed(0)} Kio → ${(after / 1024).toFixed(0)} Kio (brotli)`);
