import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The typefaces every generated PDF embeds (subsets only): Liberation Sans 2.1.5, SIL OFL (server/assets/fonts/OFL.txt). */
const FILES = { regular: 'LiberationSans-Regular.ttf', bold: 'LiberationSans-Bold.ttf' } as const;
export type FontWeight = keyof typeof FILES;

/** Finds server/assets/fonts from src/lib/pdf (tests, tsx) and from the bundle in dist* (like migrationsFolder()). */
export function fontsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = path.join(dir, 'assets', 'fonts');
    if (fs.existsSync(path.join(candidate, FILES.regular))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('Dossier des polices introuvable (server/assets/fonts)');
}

let cache: Record<FontWeight, Uint8Array> | null = null;

/** The font files' bytes, read once per process. */
export function fontBytes(): Record<FontWeight, Uint8Array> {
  if (!cache) {
    const folder = fontsFolder();
    cache = { regular: fs.readFileSync(path.join(folder, FILES.regular)), bold: fs.readFileSync(path.join(folder, FILES.bold)) };
  }
  return cache;
}
