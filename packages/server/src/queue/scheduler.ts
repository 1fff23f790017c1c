import { Cron } from 'croner';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import { jobSchedules, jobs } from '../db/schema.ts';
import type { JobDeps } from './deps.ts';
import type { JobObserver } from '../metrics/metrics.ts';
import { SCHEDULE_TIME_ZONE } from '../time/zone.ts';
import { enqueueOnce, type JobDefinition, type JobRun, type JobTicker } from './queue.ts';

/** Payload version 1 of every recurring job: the occurrence it stands for. */
const occurrencePayload = z.object({
  v: z.literal(1),
  dueAt: z.iso.datetime(),
  since: z.iso.datetime(),
});
type OccurrencePayload = z.infer<typeof occurrencePayload>;

/** The occurrence a run of a recurring job stands for. */
export interface Occurrence {
  /** The due time this run is for (after downtime: the latest one missed). */
  dueAt: Date;
  /**
   * The previous due time enqueued, or when the schedule was first seen: the run covers
   * (since, dueAt]. After downtime it spans every occurrence missed (decision 028, catch-up).
   */
  since: Date;
}

/**
 * A job that runs on a schedule. Its handler brings things up to date as of `dueAt` (delete what
 * is older than …, invoice what is due by …) rather than doing "one day's work": after downtime one
 * run covers every occurrence missed. It may run again (a retry, or a run overlapping the next
 * occurrence's), so it must be idempotent.
 */
export interface RecurringJobDefinition {
  name: string;
  /**
   * A cron expression (croner: 5 fields, or 6 with seconds first) read in `timeZone`, or the next
   * due time strictly after a moment (null: none any more).
   */
  schedule: string | ((after: Date) => Date | null);
  /** The zone a cron expression is read in; SCHEDULE_TIME_ZONE unless given. */
  timeZone?: string;
  maxAttempts?: number;
  backoff?: JobDefinition['backoff'];
  run(occurrence: Occurrence, run: JobRun, deps: JobDeps): Promise<void>;
}

/** A recurring job as the process uses it: when it is due, and the queue job that runs it. */
export interface RecurringJob {
  name: string;
  /** The cron expression, or null for a schedule computed by a function (the masters' jobs page). */
  schedule: string | null;
  /** The zone the expression is read in. */
  timeZone: string;
  /** The first due time strictly after `after`, or null. */
  next(after: Date): Date | null;
  /** What the queue claims and runs (retries and give-up as for any job). */
  job: JobDefinition<OccurrencePayload>;
}

export function recurringJob(definition: RecurringJobDefinition): RecurringJob {
  const { schedule } = definition;
  let next: (after: Date) => Date | null;
  if (typeof schedule === 'string') {
    // Parsed once here, so a bad expression stops the start instead of failing every tick. croner
    // places an occurrence in the spring-forward gap at the end of the gap (02:30 -> 03:00 CEST) and
    // one in the repeated autumn hour once (the first 02:30); scheduler.test.ts pins both.
    const cron = new Cron(schedule, { timezone: definition.timeZone ?? SCHEDULE_TIME_ZONE, paused: true });
    next = (after) => cron.nextRun(after);
  } else {
    next = schedule;
  }
  return {
    name: definition.name,
    schedule: typeof schedule === 'string' ? schedule : null,
    timeZone: definition.timeZone ?? SCHEDULE_TIME_ZONE,
    next,
    job: {
      name: definition.name,
      payload: occurrencePayload,
      maxAttempts: definition.maxAttempts ?? 3,
      ...(definition.backoff ? { backoff: definition.backoff } : {}),
      run: ({ dueAt, since }, run, deps) =>
        definition.run({ dueAt: new Date(dueAt), since: new Date(since) }, run, deps),
    },
  };
}

/**
 * The latest due time in (after, now], or null when none is. Looks back from `now` in doubling
 * steps rather than walking forward from `after`, so a long downtime of a frequent schedule costs a
 * few `next` calls, not one per occurrence missed.
 */
export function latestDue(next: (after: Date) => Date | null, after: Date, now: Date): Date | null {
  const first = next(after);
  if (!first || first > now) return null;
  let found = first;
  for (let span = 60_000; ; span *= 2) {
    const from = Math.max(after.getTime(), now.getTime() - span);
    const candidate = next(new Date(from));
    if (candidate && candidate <= now) {
      found = candidate;
      break;
    }
    if (from === after.getTime()) break;
  }
  for (let later = next(found); later && later <= now; later = next(found)) found = later;
  return found;
}

/** What a master's "run now" did: a run added, one already waiting or running, or the same second's. */
export type RunNowResult = 'added' | 'busy' | 'duplicate';

/**
 * Enqueues one run of a recurring job now, as its schedule would (the masters' "run now"): the
 * payload of an occurrence due now, covering the span since the schedule's last due time. The
 * schedule's row is locked as a tick locks it, so a tick and a start by hand, or two starts, take
 * turns; none is added while a run of the job is still waiting or running ('busy'), and a second
 * start within the same second finds its key taken ('duplicate'). The schedule itself is not moved:
 * its next occurrence runs as planned.
 */
export async function enqueueRunNow(tx: Tx, schedule: RecurringJob, now: Date): Promise<RunNowResult> {
  await tx.insert(jobSchedules).values({ name: schedule.name, lastDueAt: now }).onConflictDoNothing();
  const [row] = await tx
    .select({ lastDueAt: jobSchedules.lastDueAt })
    .from(jobSchedules)
    .where(eq(jobSchedules.name, schedule.name))
    .for('update');
  const [open] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.name, schedule.name), inArray(jobs.status, ['pending', 'running'])))
    .limit(1);
  if (open) return 'busy';
  const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const payload = { v: 1 as const, dueAt: second.toISOString(), since: row!.lastDueAt.toISOString() };
  // `now@` keeps a start by hand apart from the occurrence of the same second (`<name>@<due>`).
  const added = await enqueueOnce(tx, schedule.job, `${schedule.name}@now@${payload.dueAt}`, payload, {
    runAt: now,
  });
  return added ? 'added' : 'duplicate';
}

export interface SchedulerOptions {
  log?: (message: string) => void;
  /** Told of each occurrence this process enqueues and each schedule that fails (the metrics). */
  observer?: Pick<JobObserver, 'scheduleRun'>;
}

/**
 * Enqueues each due occurrence of the recurring jobs exactly once, however many processes tick
 * (decision 028). The state is the `job_schedules` row: a tick locks it (`FOR UPDATE`), computes
 * the latest due time after `last_due_at` up to now, and in the same transaction enqueues that
 * occurrence (keyed `<name>@<due time>`) and moves `last_due_at` to it. A second process waits for
 * the lock and then finds nothing due; a restart reads the row, not its memory.
 *
 * Catch-up: occurrences missed while no process ticked (downtime) are not run one by one; the
 * latest of them runs once, as soon as a process ticks again, with `since` telling it the span.
 */
export class Scheduler implements JobTicker {
  private readonly db: Db;
  private readonly schedules: RecurringJob[];
  private readonly log: (message: string) => void;
  private readonly observer: Pick<JobObserver, 'scheduleRun'> | null;
  /**
   * The next due time this process knows of per schedule: until then a tick asks the database
   * nothing. Another process can only move a schedule on (never back), so waiting for the time
   * known here never misses an occurrence.
   */
  private readonly knownNext = new Map<string, number | null>();

  constructor(db: Db, schedules: RecurringJob[], options: SchedulerOptions = {}) {
    this.db = db;
    this.schedules = schedules;
    this.log = options.log ?? ((message) => console.warn(message));
    this.observer = options.observer ?? null;
  }

  /** Enqueues what is due at `now`; answers how many occurrences this call enqueued. */
  async tick(now: Date): Promise<number> {
    let enqueued = 0;
    for (const schedule of this.schedules) {
      const known = this.knownNext.get(schedule.name);
      if (known === null || (known !== undefined && known > now.getTime())) continue;
      try {
        if (await this.advance(schedule, now)) {
          enqueued++;
          this.observer?.scheduleRun(schedule.name, 'enqueued');
        }
      } catch (error) {
        this.observer?.scheduleRun(schedule.name, 'failed');
        // One schedule that fails (its function throws, the database is away) does not stop the others.
        this.log(`jobs: schedule ${schedule.name}: ${(error as Error).message}`);
      }
    }
    return enqueued;
  }

  private async advance(schedule: RecurringJob, now: Date): Promise<boolean> {
    const { added, last } = await this.db.transaction(async (tx) => {
      // First sight on this database: the schedule starts now and owes nothing from before.
      await tx.insert(jobSchedules).values({ name: schedule.name, lastDueAt: now }).onConflictDoNothing();
      const [row] = await tx
        .select({ lastDueAt: jobSchedules.lastDueAt })
        .from(jobSchedules)
        .where(eq(jobSchedules.name, schedule.name))
        .for('update');
      const since = row!.lastDueAt;
      const due = latestDue(schedule.next, since, now);
      if (!due) return { added: null, last: since };
      const missed = schedule.next(since);
      if (missed && missed < due)
        this.log(
          `jobs: schedule ${schedule.name}: occurrences from ${missed.toISOString()} were missed; ` +
            `one catch-up run for ${due.toISOString()}`,
        );
      await tx.update(jobSchedules).set({ lastDueAt: due }).where(eq(jobSchedules.name, schedule.name));
      const payload = { v: 1 as const, dueAt: due.toISOString(), since: since.toISOString() };
      // The key is the second guard: one job per schedule and due time, whatever the row says.
      const key = `${schedule.name}@${payload.dueAt}`;
      const added = await enqueueOnce(tx, schedule.job, key, payload, { runAt: due });
      return { added: added ? due : null, last: due };
    });
    this.knownNext.set(schedule.name, schedule.next(last)?.getTime() ?? null);
    return added !== null;
  }
}
