import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { scheduledTasks } from '../../db/schema';
import { createTestContext, type TestContext } from '../../../test/helpers';
import { nextRunAfter, Scheduler, type ScheduledTask } from './index';
import { nextDailyRun, timeZoneOffsetMinutes } from './time';

let ctx: TestContext;
const quiet = { info: () => undefined, error: () => undefined };
beforeAll(async () => {
  ctx = await createTestContext({}, { poolSize: 6 });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.delete(scheduledTasks);
});

function countingTask(name: string, runs: string[], options: Partial<ScheduledTask> = {}): ScheduledTask {
  return {
    name,
    schedule: { everyMs: 60_000 },
    leaseMs: 60_000,
    run: async () => {
      runs.push(name);
      // Long enough for the other instance to try while this run holds the lease.
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    ...options,
  };
}

describe('Scheduler with several instances', () => {
  it('runs each due task once, whichever of four instances polls first', async () => {
    const runs: string[] = [];
    const tasks = [countingTask('a', runs), countingTask('b', runs)];
    const instances = Array.from({ length: 4 }, () => new Scheduler(ctx.db, tasks, quiet));
    await Promise.all(instances.map((s) => s.register()));
    const ran = await Promise.all(instances.map((s) => s.tick()));
    expect(runs.sort()).toEqual(['a', 'b']);
    expect(ran.flat().sort()).toEqual(['a', 'b']);
    // Not due again until its interval has passed.
    expect((await Promise.all(instances.map((s) => s.tick()))).flat()).toEqual([]);
    const rows = await ctx.db.select().from(scheduledTasks);
    for (const row of rows) {
      expect(row.runs).toBe(1);
      expect(row.lockedBy).toBeNull();
      expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    }
  });

  it('a run that crashed keeps its lease; another instance takes the task once the lease has passed', async () => {
    const runs: string[] = [];
    const task = countingTask('sweep', runs);
    const first = new Scheduler(ctx.db, [task], quiet);
    await first.register();
    // The first instance claims and dies mid-run: its row stays leased.
    await ctx.db
      .update(scheduledTasks)
      .set({ lockedBy: first.instanceId, lockedUntil: sql`now() + interval '1 hour'`, lastStartedAt: sql`now()` })
      .where(eq(scheduledTasks.name, 'sweep'));
    const second = new Scheduler(ctx.db, [task], quiet);
    expect(await second.tick()).toEqual([]);
    await ctx.db
      .update(scheduledTasks)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(scheduledTasks.name, 'sweep'));
    expect(await second.tick()).toEqual(['sweep']);
    expect(runs).toEqual(['sweep']);
    // The dead instance's late release does not touch the row the second one now owns.
    const [row] = await ctx.db.select().from(scheduledTasks).where(eq(scheduledTasks.name, 'sweep'));
    expect(row!.lockedBy).toBeNull();
    expect(row!.runs).toBe(1);
  });

  it('keeps the error of a failed run and schedules the next one', async () => {
    const failing: ScheduledTask = {
      name: 'fails',
      schedule: { everyMs: 1_000 },
      leaseMs: 10_000,
      run: () => Promise.reject(new Error('SMTP en panne')),
    };
    const scheduler = new Scheduler(ctx.db, [failing], quiet);
    await scheduler.register();
    expect(await scheduler.tick()).toEqual(['fails']);
    const [row] = await ctx.db.select().from(scheduledTasks).where(eq(scheduledTasks.name, 'fails'));
    expect(row!.lastError).toBe('SMTP en panne');
    expect(row!.lockedUntil).toBeNull();
  });

  it('start() polls and stop() waits for the run in progress', async () => {
    const runs: string[] = [];
    const scheduler = new Scheduler(ctx.db, [countingTask('poll', runs)], quiet, 10);
    await scheduler.start();
    await expect.poll(() => runs.length, { timeout: 5_000 }).toBe(1);
    await scheduler.stop();
    expect(runs).toEqual(['poll']);
  });
});

describe('daily times in Europe/Paris', () => {
  it('knows the offset in winter and summer', () => {
    expect(timeZoneOffsetMinutes(new Date('2026-01-15T12:00:00Z'), 'Europe/Paris')).toBe(60);
    expect(timeZoneOffsetMinutes(new Date('2026-07-15T12:00:00Z'), 'Europe/Paris')).toBe(120);
  });

  it('gives the next 18:00 Paris time, across the DST changes', () => {
    expect(nextDailyRun(new Date('2026-01-15T10:00:00Z'), '18:00', 'Europe/Paris').toISOString()).toBe(
      '2026-01-15T17:00:00.000Z',
    );
    expect(nextDailyRun(new Date('2026-01-15T17:00:00Z'), '18:00', 'Europe/Paris').toISOString()).toBe(
      '2026-01-16T17:00:00.000Z',
    );
    // Summer time starts on 29 March 2026 and ends on 25 October 2026.
    expect(nextDailyRun(new Date('2026-03-28T18:00:00Z'), '18:00', 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T16:00:00.000Z',
    );
    expect(nextDailyRun(new Date('2026-10-24T17:00:00Z'), '18:00', 'Europe/Paris').toISOString()).toBe(
      '2026-10-25T17:00:00.000Z',
    );
    expect(nextDailyRun(new Date('2026-03-29T00:30:00Z'), '07:30', 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T05:30:00.000Z',
    );
  });

  it('a daily task is first due at its next time, an interval task at once', () => {
    const daily: ScheduledTask = { name: 'd', schedule: { dailyAt: '18:00' }, leaseMs: 1, run: async () => undefined };
    expect(nextRunAfter(daily, new Date('2026-11-24T08:00:00Z')).toISOString()).toBe('2026-11-24T17:00:00.000Z');
  });
});
