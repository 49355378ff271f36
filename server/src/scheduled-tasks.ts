import type { FastifyInstance } from 'fastify';
import { sweepOrphanFiles } from './lib/files';
import { purgeExpiredIdempotencyKeys } from './lib/idempotency';
import { processOutbox } from './lib/outbox';
import { foldDueDevices } from './lib/row-counts';
import type { ScheduledTask } from './lib/scheduler';
import { sweepStaleInvitations } from './modules/appointments/appointments.service';
import { sendDeadlineDigest, sendEveOfVisitReminders } from './modules/appointments/reminders.service';
import { purgeExpiredSessions } from './modules/auth/auth.service';

const MINUTE = 60_000;

/**
 * Every piece of background work, run by lib/scheduler once per due time across all instances. A module that needs
 * scheduled work exports the function; it is listed here.
 */
export function scheduledTasks(app: FastifyInstance): ScheduledTask[] {
  return [
    {
      name: 'outbox',
      schedule: { everyMs: 5_000 },
      leaseMs: 10 * MINUTE,
      run: async () => {
        // Up to 10 batches per run, so a burst drains without waiting for the next poll.
        for (let batch = 0; batch < 10; batch += 1) {
          const result = await processOutbox(app.db, app.config, { storage: app.storage });
          if (result.sent + result.logged + result.failed + result.retried < 20) break;
        }
      },
    },
    { name: 'idempotency-keys-purge', schedule: { everyMs: 60 * MINUTE }, leaseMs: 10 * MINUTE, run: () => purgeExpiredIdempotencyKeys(app.db).then(() => undefined) },
    // The Parc DAE badge's days that entered the window, into its `due` count (decision 034); the badge is exact either way.
    { name: 'devices-due-fold', schedule: { everyMs: 60 * MINUTE }, leaseMs: 10 * MINUTE, run: () => foldDueDevices(app.db).then(() => undefined) },
    { name: 'sessions-purge', schedule: { everyMs: 60 * MINUTE }, leaseMs: 10 * MINUTE, run: () => purgeExpiredSessions(app.db) },
    {
      name: 'orphan-files-sweep',
      schedule: { everyMs: 60 * MINUTE },
      leaseMs: 30 * MINUTE,
      run: async () => {
        const removed = await sweepOrphanFiles(app.db, app.storage);
        if (removed > 0) app.log.info(`${removed} fichier(s) orphelin(s) supprimé(s) du stockage`);
      },
    },
    // Appointments (decision 022): reminders the eve of visits, the admin's digest of lots due, cancellations to send
    // (the invitations the writes marked each minute, every one each hour: decision 063).
    { name: 'visit-reminders', schedule: { dailyAt: '17:00' }, leaseMs: 30 * MINUTE, run: () => sendEveOfVisitReminders(app.db, app.config) },
    { name: 'deadline-digest', schedule: { dailyAt: '08:00' }, leaseMs: 30 * MINUTE, run: () => sendDeadlineDigest(app.db, app.config) },
    { name: 'visit-cancellations', schedule: { everyMs: MINUTE }, leaseMs: 10 * MINUTE, run: () => sweepStaleInvitations(app.db, app.config) },
    {
      name: 'visit-cancellations-all',
      schedule: { everyMs: 60 * MINUTE },
      leaseMs: 10 * MINUTE,
      run: () => sweepStaleInvitations(app.db, app.config, { everything: true }),
    },
  ];
}
