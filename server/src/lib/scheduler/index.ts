import crypto from 'node:crypto';
import os from 'node:os';
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { scheduledTasks } from '../../db/schema';
import { nextDailyRun } from './time';

/**
 * Background work that runs once per due time whatever the number of server instances: the outbox, reminders, purges
 * and sweeps. Each instance polls; a due run is claimed by exactly one of them with a conditional update (due, and not
 * leased by a live run), leased for `leaseMs`, then released with its next due time. A run that crashed is taken again
 * once its lease has passed, so a task must be safe to run again for the same items: it marks each item it handles in
 * the same transaction as its effect (an e-mail enqueued with a unique "sent" row, a row claimed with SKIP LOCKED).
 */
export interface ScheduledTask {
  name: string;
  schedule: { everyMs: number } | { dailyAt: string; timeZone?: string };
  /** The longest a run may take: after it another instance may start the task again. */
  leaseMs: number;
  run(): Promise<unknown>;
}

export interface SchedulerLog {
  info(obj: unknown, message?: string): void;
  error(obj: unknown, message?: string): void;
}

export const DEFAULT_TIME_ZONE = 'Europe/Paris';

export function nextRunAfter(task: ScheduledTask, after: Date): Date {
  if ('everyMs' in task.schedule) return new Date(after.getTime() + task.schedule.everyMs);
  return nextDailyRun(after, task.schedule.dailyAt, task.schedule.timeZone ?? DEFAULT_TIME_ZONE);
}

export class Scheduler {
  /** Names this instance in scheduled_tasks.locked_by (host, process, random part). */
  readonly instanceId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<string[]> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly tasks: ScheduledTask[],
    private readonly log: SchedulerLog,
    private readonly pollMs = 1_000,
  ) {}

  /** Makes sure every task has its row (a new task is due at once), then polls until stop. */
  async start(): Promise<void> {
    await this.register();
    const loop = () => {
      if (this.stopped) return;
      this.ticking = this.tick().catch((error) => {
        this.log.error(error, 'planificateur');
        return [];
      });
      void this.ticking.finally(() => {
        this.ticking = null;
        if (!this.stopped) this.timer = setTimeout(loop, this.pollMs);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  async register(): Promise<void> {
    if (this.tasks.length === 0) return;
    await this.db
      .insert(scheduledTasks)
      .values(
        this.tasks.map((task) => ({
          name: task.name,
          nextRunAt: 'everyMs' in task.schedule ? new Date() : nextRunAfter(task, new Date()),
        })),
      )
      .onConflictDoNothing();
  }

  /** Claims and runs every due task once (in order); returns the names this instance ran. */
  async tick(): Promise<string[]> {
    // One cheap read per poll; a claim (a write) only for what looks due.
    const rows = await this.db
      .select({
        name: scheduledTasks.name,
        due: sql<boolean>`${scheduledTasks.nextRunAt} <= now() and (${scheduledTasks.lockedUntil} is null or ${scheduledTasks.lockedUntil} < now())`,
      })
      .from(scheduledTasks);
    const due = new Set(rows.filter((row) => row.due).map((row) => row.name));
    const ran: string[] = [];
    for (const task of this.tasks) {
      if (this.stopped) break;
      if (due.has(task.name) && (await this.runIfDue(task))) ran.push(task.name);
    }
    return ran;
  }

  private async runIfDue(task: ScheduledTask): Promise<boolean> {
    const [claim] = await this.db
      .update(scheduledTasks)
      .set({
        lockedBy: this.instanceId,
        lockedUntil: sql`now() + ${`${task.leaseMs} milliseconds`}::interval`,
        lastStartedAt: sql`now()`,
      })
      .where(
        and(
          eq(scheduledTasks.name, task.name),
          lte(scheduledTasks.nextRunAt, sql`now()`),
          or(isNull(scheduledTasks.lockedUntil), lt(scheduledTasks.lockedUntil, sql`now()`)),
        ),
      )
      .returning({ name: scheduledTasks.name });
    if (!claim) return false;
    let error: unknown = null;
    try {
      await task.run();
    } catch (caught) {
      error = caught;
      this.log.error(caught, `tâche planifiée ${task.name}`);
    }
    await this.db
      .update(scheduledTasks)
      .set({
        nextRunAt: nextRunAfter(task, new Date()),
        lockedBy: null,
        lockedUntil: null,
        lastFinishedAt: sql`now()`,
        lastError: error ? String(error instanceof Error ? error.message : error).slice(0, 1000) : null,
        runs: sql`${scheduledTasks.runs} + 1`,
      })
      .where(and(eq(scheduledTasks.name, task.name), eq(scheduledTasks.lockedBy, this.instanceId)));
    return true;
  }

  /** Stops polling and waits for the run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking?.catch(() => undefined);
  }
}
