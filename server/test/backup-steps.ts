/**
 * Steps of the embedded backup round trip, each run in its own process as `npm run backup` would be: PGlite has a
 * single owner per data directory, and a process re-opening a directory it migrated earlier can stall.
 */
import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { openPglite } from '../src/db/client';
import { missionBatches, users } from '../src/db/schema';

const [step, dataDir] = process.argv.slice(2) as [string, string];
const database = openPglite(path.join(dataDir, 'pglite'));
if (step === 'fill') {
  await database.migrate();
  await database.db.insert(users).values({ email: 'sauvegarde@maillon.test', passwordHash: 'x', role: 'admin' });
  await database.db.insert(missionBatches).values([{ title: 'Lot A' }, { title: 'Lot B' }]);
  fs.mkdirSync(path.join(dataDir, 'uploads', 'cv'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'uploads', 'cv', 'abc.pdf'), '%PDF-1.4 contenu\n%%EOF');
} else if (step === 'damage') {
  await database.db.delete(missionBatches).where(eq(missionBatches.title, 'Lot A'));
  await database.db.insert(missionBatches).values({ title: 'Lot après la sauvegarde' });
  fs.rmSync(path.join(dataDir, 'uploads'), { recursive: true, force: true });
} else if (step === 'snapshot') {
  const lots = await database.db.select({ title: missionBatches.title }).from(missionBatches).orderBy(missionBatches.title);
  const [admins] = await database.db.select({ n: count() }).from(users);
  process.stdout.write(JSON.stringify({ lots: lots.map((l) => l.title), users: admins?.n }));
}
await database.close();
