import path from 'node:path';
import { backup, restore } from './backup';

/**
 * npm run backup [-- <dir>]   → DATA_DIR/backups/<timestamp> by default
 * npm run restore -- <dir>
 * Uses DATABASE_URL when set, else the embedded database in DATA_DIR (stop the server first); the files come from
 * STORAGE_URL (S3) when set, else DATA_DIR/uploads.
 */
let finished = false;
// A stalled database leaves no pending work and Node would exit quietly with 0: a backup must never fail silently.
process.on('beforeExit', () => {
  if (!finished) {
    console.error('La sauvegarde ou la restauration ne s’est pas terminée.');
    process.exit(1);
  }
});

async function main(): Promise<void> {
  const [command, dirArg] = process.argv.slice(2);
  const target = {
    DATABASE_URL: process.env.DATABASE_URL || undefined,
    DATA_DIR: process.env.DATA_DIR ?? './data',
    STORAGE_URL: process.env.STORAGE_URL || undefined,
  };
  if (command === 'backup') {
    const dir = dirArg ?? path.resolve(target.DATA_DIR, 'backups', new Date().toISOString().replace(/[:.]/g, '-'));
    const manifest = await backup(target, dir);
    console.log(`Sauvegarde ${manifest.database} écrite dans ${dir}`);
  } else if (command === 'restore') {
    if (!dirArg) throw new Error('Indiquez le dossier de la sauvegarde : npm run restore -- <dossier>');
    const manifest = await restore(target, path.resolve(dirArg));
    console.log(`Sauvegarde ${manifest.database} du ${manifest.createdAt} restaurée.`);
  } else {
    throw new Error('Usage : backup-cli.ts backup [dossier] | restore <dossier>');
  }
}

main()
  .then(() => {
    finished = true;
  })
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
