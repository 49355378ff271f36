import { count } from 'drizzle-orm';
import { openDatabase } from '../client';
import { missions } from '../schema';
import { FULL_SCALE, scaled, seedScale } from './scale';

/** npm run seed:scale [-- --factor 0.1]: fills an EMPTY database (DATABASE_URL, or the embedded one in DATA_DIR). */
async function main(): Promise<void> {
  const factorArg = process.argv.indexOf('--factor');
  const factor = factorArg > 0 ? Number(process.argv[factorArg + 1]) : 1;
  const database = openDatabase({ DATABASE_URL: process.env.DATABASE_URL || undefined, DATA_DIR: process.env.DATA_DIR ?? './data-scale' });
  await database.migrate();
  const [existing] = await database.db.select({ n: count() }).from(missions);
  if ((existing?.n ?? 0) > 0) {
    console.error('La base contient déjà des missions : seed:scale ne remplit qu’une base vide.');
    process.exit(1);
  }
  const sizes = factor === 1 ? FULL_SCALE : scaled(factor);
  console.log(`Remplissage à l’échelle (${database.kind}, facteur ${factor}) :`);
  const started = Date.now();
  await seedScale(database.db, sizes);
  console.log(`Terminé en ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
