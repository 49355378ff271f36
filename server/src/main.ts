import pino from 'pino';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { requestLogSerializer } from './lib/log-redaction';
import { ensureAdmin } from './modules/auth/auth.service';
import { DEMO_ADMIN, seedDemoIfEmpty } from './db/seed/demo';
import { Scheduler } from './lib/scheduler';
import { scheduledTasks } from './scheduled-tasks';
import { backfillPositions } from './lib/positions';
import { loadGeocoder } from './lib/geo';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // One JSON line per event, start-up included (the requests' lines carry their requestId).
  // Request lines keep the path without the secret tokens some addresses carry (lib/log-redaction.ts).
  const log = pino({
    level: config.LOG_LEVEL,
    serializers: { req: requestLogSerializer, res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }), err: pino.stdSerializers.err },
  });
  const database = openDatabase(config);
  await database.migrate();
  const opened = await database.open();
  if (database.kind === 'postgres' && opened < config.PG_POOL_SIZE) {
    log.warn(`PostgreSQL : ${opened} connexion(s) ouverte(s) sur ${config.PG_POOL_SIZE} (max_connections ?), les autres le seront à la demande.`);
  }
  const db = database.db;

  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const result = await ensureAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    if (result === 'created') log.info(`Compte administrateur créé : ${config.ADMIN_EMAIL}`);
  }
  const app = await buildApp({ config, db, serveWeb: true, logger: log });
  // After the app, whose file store the demo's visit report (photos, signature, PV) is written to.
  if (config.SEED_DEMO) {
    const seeded = await seedDemoIfEmpty(db, { storage: app.storage, config });
    if (seeded) {
      log.info('Données de démonstration chargées.');
      log.info(`Administrateur : ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
      log.info(`Technicien : ${seeded.technicianEmail} / ${seeded.technicianPassword}`);
    }
  }
  // Homes, approximate sites and lot geometry that older rows lack (docs/decisions/025); nothing to do on later starts.
  const placed = await backfillPositions(db);
  if (placed.technicians + placed.missions > 0) {
    log.info(`Positions complétées : ${placed.technicians} technicien(s), ${placed.missions} mission(s), ${placed.lots} lot(s).`);
  }
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

  // Built before the first request, which would otherwise wait for it with every other request of this instance.
  loadGeocoder();
  await app.listen({ port: config.PORT, host: config.HOST });
  await scheduler.start();
  log.info(`${config.PRODUCT_NAME} est prêt : http://localhost:${config.PORT} (base ${database.kind})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
