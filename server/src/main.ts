import pino from 'pino';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { ensureAdmin, purgeExpiredSessions } from './modules/auth/auth.service';
import { DEMO_ADMIN, seedDemoIfEmpty } from './db/seed/demo';
import { startOutboxWorker } from './lib/outbox';
import { sweepOrphanFiles } from './lib/files';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // One JSON line per event, start-up included (the requests' lines carry their requestId).
  const log = pino({ level: config.LOG_LEVEL });
  const database = openDatabase(config);
  await database.migrate();
  const db = database.db;

  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const result = await ensureAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    if (result === 'created') log.info(`Compte administrateur créé : ${config.ADMIN_EMAIL}`);
  }
  if (config.SEED_DEMO) {
    const seeded = await seedDemoIfEmpty(db);
    if (seeded) {
      log.info('Données de démonstration chargées.');
      log.info(`Administrateur : ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
      log.info(`Technicien : ${seeded.technicianEmail} / ${seeded.technicianPassword}`);
    }
  }
  await purgeExpiredSessions(db);
  const orphans = await sweepOrphanFiles(db, config.uploadsDir);
  if (orphans > 0) log.info(`${orphans} fichier(s) orphelin(s) supprimé(s) du stockage.`);

  const app = await buildApp({ config, db, serveWeb: true, logger: log });
  const stopWorkers = startWorkers(app);

  const close = async (signal: string) => {
    app.log.info(`${signal} reçu, arrêt en cours`);
    stopWorkers();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  log.info(`${config.PRODUCT_NAME} est prêt : http://localhost:${config.PORT} (base ${database.kind})`);
}

function startWorkers(app: Awaited<ReturnType<typeof buildApp>>): () => void {
  const timers: NodeJS.Timeout[] = [];
  const stopOutbox = startOutboxWorker(app.db, app.config, app.log);
  timers.push(
    setInterval(() => {
      purgeExpiredSessions(app.db).catch((error) => app.log.error(error));
      sweepOrphanFiles(app.db, app.config.uploadsDir).catch((error) => app.log.error(error));
    }, 60 * 60_000),
  );
  return () => {
    stopOutbox();
    timers.forEach(clearInterval);
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
