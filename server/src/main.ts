import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { ensureAdmin } from './modules/auth/auth.service';
import { DEMO_ADMIN, seedDemoIfEmpty } from './db/seed/demo';
import { Scheduler } from './lib/scheduler';
import { scheduledTasks } from './scheduled-tasks';
import { backfillPositions } from './lib/positions';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const database = openDatabase(config);
  await database.migrate();
  const db = database.db;

  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const result = await ensureAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    if (result === 'created') console.log(`Compte administrateur créé : ${config.ADMIN_EMAIL}`);
  }
  if (config.SEED_DEMO) {
    const seeded = await seedDemoIfEmpty(db);
    if (seeded) {
      console.log('Données de démonstration chargées.');
      console.log(`  Administrateur : ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
      console.log(`  Technicien     : ${seeded.technicianEmail} / ${seeded.technicianPassword}`);
    }
  }
  // Homes, approximate sites and lot geometry that older rows lack (docs/decisions/018); nothing to do on later starts.
  const placed = await backfillPositions(db);
  if (placed.technicians + placed.missions > 0) {
    console.log(`Positions complétées : ${placed.technicians} technicien(s), ${placed.missions} mission(s), ${placed.lots} lot(s).`);
  }
  const app = await buildApp({ config, db, serveWeb: true });
  // Outbox, purges and sweeps: each due run happens on one instance only, however many are started.
  const scheduler = new Scheduler(db, scheduledTasks(app), app.log);

  const close = async (signal: string) => {
    app.log.info(`${signal} reçu, arrêt en cours`);
    await scheduler.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  await scheduler.start();
  console.log(`${config.PRODUCT_NAME} est prêt : http://localhost:${config.PORT} (base ${database.kind})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
