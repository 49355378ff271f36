import path from 'node:path';
import { copyObjects } from './index';
import { LocalStorage } from './local';
import { parseStorageUrl, S3Storage } from './s3';

/**
 * npm run storage:migrate — copies the local file store (DATA_DIR/uploads) into the S3 bucket of STORAGE_URL, key for
 * key; objects already in the bucket are skipped, so it can run again after an interruption. Then start the servers
 * with STORAGE_URL set; the local folder can be archived once the copy is checked.
 */
async function main(): Promise<void> {
  const url = process.env.STORAGE_URL;
  if (!url) throw new Error('Définissez STORAGE_URL (s3+https://CLE:SECRET@hote/bucket) : la destination de la copie.');
  const from = new LocalStorage(path.resolve(process.env.DATA_DIR ?? './data', 'uploads'));
  const to = new S3Storage(parseStorageUrl(url));
  try {
    await to.check();
    const { copied, skipped } = await copyObjects(from, to, (key, wasCopied) => {
      if (wasCopied) console.log(`copié  ${key}`);
    });
    console.log(`${copied} fichier(s) copié(s) vers ${to.description}, ${skipped} déjà présent(s).`);
  } finally {
    await to.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
