import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import type { JobDeps } from './deps.ts';
import type { JobObserver } from '../metrics/metrics.ts';

export type JobRow = typeof jobs.$inferSelect;

/** What a handler learns about the run it is in. */
export interface JobRun {
  id: number;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
}

/**
 * What it takes to enqueue a job: its name, the zod schema of its payload and its attempts. Code
 * below the job definitions (notifications, commands, billing, routes) enqueues by kind, so that
 * it never imports the handlers that run the job (jobs/definitions/, which import it).
 */
export interface JobKind<P = any> {
  name: string;
  payload: z.ZodType<P>;
  maxAttempts?: number;
}

/**
 * A kind of job with its handler: its name, the zod schema of its payload (carrying a version number, so that a
 * payload written by an older release is recognised), and what running it does. A handler that
 * throws is retried with exponential back-off; `PermanentJobError` or the last attempt give up and
 * call `onFailed` once.
 */
export interface JobDefinition<P = any> extends JobKind<P> {
  /** Delay before attempt n+1: min(baseMs * 2^(n-1), maxMs). */
  backoff?: { baseMs: number; maxMs: number };
  run(payload: P, run: JobRun, deps: JobDeps): Promise<void>;
  /** The job is given up: record why (e.g. on the message it was to deliver). */
  onFailed?(payload: P, error: Error, deps: JobDeps): Promise<void>;
}

/** Retrying cannot help (bad address, nothing configured): the job fails at once. */
export class PermanentJobError extends Error {}

export const DEFAULT_BACKOFF = { baseMs: 10_000, maxMs: 30 * 60_000 };

const DAY_MS = 86_400_000;
/** Settled jobs are kept this long (failed ones longer, for the investigation), then purged. */
const KEEP_DONE_MS = 7 * DAY_MS;
const KEEP_FAILED_MS = 30 * DAY_MS;

/** The delay before the attempt after `attempt` (1-based). */
export function backoffDelay(attempt: number, backoff = DEFAULT_BACKOFF): number {
  return Math.min(backoff.baseMs * 2 ** (attempt - 1), backoff.maxMs);
}

/**
 * Adds jobs inside the caller's transaction (the outbox pattern): they exist exactly when the
 * state change that caused them is committed. One statement for any number of payloads.
 */
export async function enqueue<P>(
  tx: Db | Tx,
  definition: JobKind<P>,
  payloads: P[],
  options: { runAt?: Date } = {},
): Promise<void> {
  if (payloads.length === 0) return;
  await tx.insert(jobs).values(
    payloads.map((payload) => ({
      name: definition.name,
      // Validated on the way in too: a bad payload is the caller's bug, not a job that fails later.
      payload: definition.payload.parse(payload) as object,
      maxAttempts: definition.maxAttempts ?? 10,
      ...(options.runAt ? { runAt: options.runAt } : {}),
    })),
  );
}

/**
 * Adds one job unless a job with the same key is still in the table (`ON CONFLICT DO NOTHING` on
 * the unique `dedupe_key`): for work that must exist once, such as a schedule's occurrence. The key
 * guards as long as the job's row is kept (a week once done, a month once failed); what must never
 * happen twice keeps its own unique key in its own table. Answers whether the job was added.
 */
export async function enqueueOnce<P>(
  tx: Db | Tx,
  definition: JobKind<P>,
  key: string,
  payload: P,
  options: { runAt?: Date } = {},
): Promise<boolean> {
  const added = await tx
    .insert(jobs)
    .values({
      name: definition.name,
      payload: definition.payload.parse(payload) as object,
      maxAttempts: definition.maxAttempts ?? 10,
      dedupeKey: key,
      ...(options.runAt ? { runAt: options.runAt } : {}),
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return added.length > 0;
}

/**
 * Removes settled jobs after a while: what they did is in their own records (a notification's
 * Message keeps its status and report), so the queue table stays small. Run hourly by the
 * `purge-jobs` schedule (definitions/purge-jobs.ts).
 */
export async function purgeFinishedJobs(db: Db, now: Date): Promise<number> {
  const result = await db.execute(sql`
    DELETE FROM jobs
    WHERE (status = 'done' AND finished_at < ${new Date(now.getTime() - KEEP_DONE_MS).toISOString()}::timestamptz)
      OR (status = 'failed' AND finished_at < ${new Date(now.getTime() - KEEP_FAILED_MS).toISOString()}::timestamptz)`);
  // PGlite reports affectedRows, node-postgres rowCount.
  const counts = result as unknown as { affectedRows?: number; rowCount?: number | null };
  return counts.affectedRows ?? counts.rowCount ?? 0;
}

/** What enqueues recurring jobs when they are due (scheduler.ts); the queue's loop ticks it. */
export interface JobTicker {
  tick(now: Date): Promise<number>;
}

export interface JobQueueOptions {
  /** Idle wait between looks for due jobs. */
  pollMs?: number;
  /** How long a claimed job is reserved: a worker that died lets it go again after this. */
  leaseMs?: number;
  /** Jobs run at once by this process (each claims its own). Keep it low on PGlite. */
  concurrency?: number;
  /** The queue's clock (tests move it forward to make retries due). */
  clock?: () => Date;
  log?: (message: string) => void;
  /** Ticked before each look for due jobs: recurring jobs are enqueued when due. */
  scheduler?: JobTicker;
  /** Told how each run ended (the metrics). */
  observer?: Pick<JobObserver, 'jobRun'>;
  /** Recorded on each job this process claims (`claimed_by`); host name and pid unless given. */
  worker?: string;
}

/**
 * The durable job queue over the `jobs` table. A job is claimed by one statement
 * (`FOR UPDATE SKIP LOCKED` in a sub-select, committed at once): several processes share the queue,
 * and no transaction stays open while a handler talks to the network (PGlite has one connection).
 * A claimed job carries a lease (`locked_until`): when its process dies, it is claimed again after
 * the lease. Only jobs this process has a definition for are claimed (a newer release's job waits).
 */
export class JobQueue {
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly clock: () => Date;
  private readonly log: (message: string) => void;
  private loops: Promise<void>[] = [];
  private stopping: AbortController | null = null;
  private readonly scheduler: JobTicker | null;
  private readonly observer: Pick<JobObserver, 'jobRun'> | null;
  private readonly worker: string;
  /** One tick at a time per process, though several loops (concurrency) share the scheduler. */
  private ticking = false;

  private readonly db: Db;
  private readonly deps: JobDeps;

  constructor(db: Db, definitions: JobDefinition[], deps: JobDeps, options: JobQueueOptions = {}) {
    this.db = db;
    this.deps = deps;
    for (const definition of definitions) this.definitions.set(definition.name, definition);
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.concurrency = options.concurrency ?? 1;
    this.clock = options.clock ?? (() => new Date());
    this.log = options.log ?? ((message) => console.warn(message));
    this.scheduler = options.scheduler ?? null;
    this.observer = options.observer ?? null;
    // Which process ran a job, where several share the database: whose log tells what happened.
    this.worker = options.worker ?? `${hostname()}:${process.pid}`;
  }

  /** The names of the jobs this process runs. */
  get names(): string[] {
    return [...this.definitions.keys()];
  }

  /** Starts the workers; they poll until `stop()`. */
  start() {
    if (this.stopping) return;
    const stopping = new AbortController();
    this.stopping = stopping;
    this.loops = Array.from({ length: this.concurrency }, () => this.loop(stopping.signal));
  }

  /** Stops polling and waits for the jobs in hand to finish. */
  async stop() {
    this.stopping?.abort();
    await Promise.all(this.loops);
    this.loops = [];
    this.stopping = null;
  }

  private async loop(signal: AbortSignal) {
    while (!signal.aborted) {
      let ran = false;
      await this.tickScheduler();
      try {
        ran = await this.runOne();
      } catch (error) {
        // The database is away for a moment (restart, lost connection): try again after the pause.
        this.log(`jobs: ${(error as Error).message}`);
      }
      if (ran) continue;
      await sleep(this.pollMs, undefined, { signal }).catch(() => {});
    }
  }

  /** Enqueues the recurring jobs due by the queue's clock; answers how many (tests, tools). */
  tick(): Promise<number> {
    return this.scheduler ? this.scheduler.tick(this.clock()) : Promise.resolve(0);
  }

  private async tickScheduler() {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.tick();
    } catch (error) {
      // A schedule that cannot be read must not stop the jobs already queued.
      this.log(`jobs: schedules: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  /** Purges settled jobs as of the queue's clock (see `purgeFinishedJobs`). */
  purgeFinished(): Promise<number> {
    return purgeFinishedJobs(this.db, this.clock());
  }

  /** Runs due jobs one after another until none is due; answers how many ran (tests, tools). */
  async runDueJobs(): Promise<number> {
    let count = 0;
    while (await this.runOne()) count++;
    return count;
  }

  /** Claims and runs one due job; false when none is due. */
  async runOne(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  private async claim(): Promise<JobRow | null> {
    const now = this.clock();
    const names = [...this.definitions.keys()];
    const result = await this.db.execute<Record<string, unknown>>(sql`
      UPDATE jobs SET status = 'running', attempts = attempts + 1, claimed_by = ${this.worker},
        locked_until = ${new Date(now.getTime() + this.leaseMs).toISOString()}::timestamptz
      WHERE id = (
        SELECT id FROM jobs
        WHERE status IN ('pending', 'running') AND run_at <= ${now.toISOString()}::timestamptz
          AND (status = 'pending' OR locked_until < ${now.toISOString()}::timestamptz)
          AND name = ANY(${`{${names.join(',')}}`}::text[])
        ORDER BY run_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
      RETURNING id, name, payload, attempts, max_attempts`);
    const row = result.rows[0];
    if (!row) return null;
    return {
      id: Number(row.id),
      name: String(row.name),
      payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
      attempts: Number(row.attempts),
      maxAttempts: Number(row.max_attempts),
    } as JobRow;
  }

  private async execute(job: JobRow) {
    const definition = this.definitions.get(job.name)!;
    const parsed = definition.payload.safeParse(job.payload);
    if (!parsed.success) {
      await this.finish(job, 'failed', `payload does not match ${job.name}: ${parsed.error.message}`);
      this.observer?.jobRun(job.name, 'failed');
      return;
    }
    let failure: Error | null = null;
    if (job.attempts > job.maxAttempts) {
      // Claimed again after its lease ran out that often: its runs keep dying; stop trying.
      failure = new PermanentJobError(`gave up after ${job.maxAttempts} attempts`);
    } else {
      try {
        await definition.run(
          parsed.data,
          { id: job.id, attempt: job.attempts, maxAttempts: job.maxAttempts },
          this.deps,
        );
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
    }
    if (!failure) {
      await this.finish(job, 'done', null);
      this.observer?.jobRun(job.name, 'done');
      return;
    }
    const giveUp = failure instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    if (!giveUp) {
      const runAt = new Date(this.clock().getTime() + backoffDelay(job.attempts, definition.backoff));
      await this.finish(job, 'pending', failure.message, runAt);
      this.observer?.jobRun(job.name, 'retry');
      return;
    }
    try {
      await definition.onFailed?.(parsed.data, failure, this.deps);
    } catch (error) {
      this.log(`jobs: ${job.name} #${job.id}: recording the failure failed: ${(error as Error).message}`);
    }
    await this.finish(job, 'failed', failure.message);
    this.observer?.jobRun(job.name, 'failed');
  }

  /**
   * Settles the run. Guarded by the attempt number: when the lease ran out and another worker took
   * the job over, the late answer of the first run changes nothing.
   */
  private async finish(
    job: JobRow,
    status: 'done' | 'failed' | 'pending',
    error: string | null,
    runAt?: Date,
  ) {
    const now = this.clock().toISOString();
    await this.db.execute(sql`
      UPDATE jobs SET status = ${status}, locked_until = NULL, last_error = ${error},
        run_at = COALESCE(${runAt?.toISOString() ?? null}::timestamptz, run_at),
        finished_at = ${status === 'pending' ? null : now}::timestamptz
      WHERE id = ${job.id} AND attempts = ${job.attempts} AND status = 'running'`);
  }
}
