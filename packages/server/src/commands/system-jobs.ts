import { inArray, sql } from 'drizzle-orm';
import type { JobRunState, SystemJob } from '@tankportal/shared/schemas/system-jobs';
import type { Db } from '../db/client.ts';
import { jobSchedules } from '../db/schema.ts';
import { HttpError, notFound } from '../http-error.ts';
import { enqueueRunNow, type RecurringJob } from '../queue/scheduler.ts';

/** A run of the job is still waiting or running: a second one is not started (the web words it). */
export const jobBusy = () => new HttpError(409, 'JobAlreadyRunning');

type LatestRun = {
  name: string;
  id: number;
  status: JobRunState;
  attempts: number;
  max_attempts: number;
  payload: { dueAt?: string } | null;
  created_at: string | Date;
  finished_at: string | Date | null;
  last_error: string | null;
};

const asDate = (value: string | Date | null) => (value === null ? null : new Date(value));

/**
 * GET /v2/system/jobs: every recurring job with its schedule, the last and next due time (the
 * scheduler's row) and its newest run the queue still keeps. The newest run per job is one step
 * back along the primary key per name, however many notifications the table holds.
 */
export async function listSystemJobs(
  db: Db,
  schedules: RecurringJob[],
  now = new Date(),
): Promise<SystemJob[]> {
  const names = schedules.map((schedule) => schedule.name);
  const [rows, runs] = await Promise.all([
    db.select().from(jobSchedules).where(inArray(jobSchedules.name, names)),
    db.execute<LatestRun>(sql`
      SELECT n.name, j.id, j.status, j.attempts, j.max_attempts, j.payload, j.created_at, j.finished_at,
        j.last_error
      FROM unnest(${`{${names.join(',')}}`}::text[]) AS n(name)
      JOIN LATERAL (
        SELECT * FROM jobs WHERE jobs.name = n.name ORDER BY jobs.id DESC LIMIT 1
      ) j ON true`),
  ]);
  const lastDue = new Map(rows.map((row) => [row.name, row.lastDueAt]));
  const latest = new Map(runs.rows.map((run) => [run.name, run]));
  return schedules.map((schedule) => {
    const last = lastDue.get(schedule.name) ?? null;
    const run = latest.get(schedule.name);
    return {
      name: schedule.name,
      schedule: schedule.schedule,
      timeZone: schedule.timeZone,
      lastDueAt: last,
      // Before a process first ticked it, the schedule starts at that tick: its next time after now.
      nextDueAt: schedule.next(last ?? now),
      lastRun: run
        ? {
            id: Number(run.id),
            state: run.status,
            attempts: run.attempts,
            maxAttempts: run.max_attempts,
            dueAt: run.payload?.dueAt ? new Date(run.payload.dueAt) : null,
            createdAt: asDate(run.created_at)!,
            finishedAt: asDate(run.finished_at),
            lastError: run.last_error,
          }
        : null,
    };
  });
}

/**
 * POST /v2/system/jobs/{name}/run: one run of the recurring job now, as its schedule would start it
 * (queue/scheduler.ts `enqueueRunNow`); 404 for a name no schedule has, 409 while a run is waiting
 * or running. A second start within the same second is the same run.
 */
export async function runSystemJobNow(db: Db, schedules: RecurringJob[], name: string, now = new Date()) {
  const schedule = schedules.find((candidate) => candidate.name === name);
  if (!schedule) throw notFound();
  const result = await db.transaction((tx) => enqueueRunNow(tx, schedule, now));
  if (result === 'busy') throw jobBusy();
}
