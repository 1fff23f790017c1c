import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { jobs } from '../db/schema.ts';
import type { JobDeps } from './deps.ts';
import { backoffDelay, enqueue, JobQueue, PermanentJobError, type JobDefinition } from './queue.ts';

let t: TestApp;
// An hour ahead of the database's clock: jobs enqueued just now (run_at default now()) are due.
let now = Date.now() + 3_600_000;
const clock = () => new Date(now);
const deps = {} as JobDeps;

/** What the test job is told to do per key: fail so many times, fail for good, or block. */
const behaviour = new Map<string, { failures?: number; permanent?: boolean }>();
const runs: { key: string; attempt: number }[] = [];
const failed: { key: string; error: string }[] = [];

const testJob: JobDefinition<{ v: 1; key: string }> = {
  name: 'test-job',
  payload: z.object({ v: z.literal(1), key: z.string() }),
  maxAttempts: 3,
  backoff: { baseMs: 1_000, maxMs: 60_000 },
  async run({ key }, run) {
    runs.push({ key, attempt: run.attempt });
    const plan = behaviour.get(key) ?? {};
    if (plan.permanent) throw new PermanentJobError(`${key} cannot work`);
    if ((plan.failures ?? 0) >= run.attempt) throw new Error(`${key} failed attempt ${run.attempt}`);
  },
  async onFailed({ key }, error) {
    failed.push({ key, error: error.message });
  },
};

const queue = (options = {}) =>
  new JobQueue(t.database.db, [testJob], deps, { clock, leaseMs: 60_000, log: () => {}, ...options });

async function jobOf(key: string) {
  const [row] = await t.database.db
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'key' = ${key}`);
  return row;
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(jobs);
  runs.length = 0;
  failed.length = 0;
});

describe('job queue', () => {
  it('enqueues inside the caller transaction: a rollback leaves no job', async () => {
    await t.database.db
      .transaction(async (tx) => {
        await enqueue(tx, testJob, [{ v: 1, key: 'rolled-back' }]);
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.database.db.transaction((tx) => enqueue(tx, testJob, [{ v: 1, key: 'committed' }]));
    expect(await queue().runDueJobs()).toBe(1);
    expect(runs).toEqual([{ key: 'committed', attempt: 1 }]);
    expect(await jobOf('committed')).toMatchObject({ status: 'done', attempts: 1, lockedUntil: null });
    expect(await jobOf('rolled-back')).toBeUndefined();
  });

  it('refuses a payload that does not match its definition when enqueued', async () => {
    await expect(enqueue(t.database.db, testJob, [{ v: 2, key: 'x' } as never])).rejects.toThrow();
  });

  it('retries with exponential back-off and succeeds', async () => {
    behaviour.set('flaky', { failures: 2 });
    await enqueue(t.database.db, testJob, [{ v: 1, key: 'flaky' }]);
    const q = queue();
    expect(await q.runDueJobs()).toBe(1);
    let job = await jobOf('flaky');
    expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: 'flaky failed attempt 1' });
    expect(job.runAt.getTime()).toBe(now + backoffDelay(1, testJob.backoff));
    // Not due before its back-off has passed.
    expect(await q.runDueJobs()).toBe(0);
    now += 1_000;
    expect(await q.runDueJobs()).toBe(1);
    job = await jobOf('flaky');
    expect(job.runAt.getTime()).toBe(now + 2_000);
    now += 2_000;
    expect(await q.runDueJobs()).toBe(1);
    expect(await jobOf('flaky')).toMatchObject({ status: 'done', attempts: 3 });
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    expect(failed).toEqual([]);
  });

  it('gives up after the last attempt and records the failure once', async () => {
    behaviour.set('broken', { failures: 99 });
    await enqueue(t.database.db, testJob, [{ v: 1, key: 'broken' }]);
    const q = queue();
    for (let i = 0; i < 5; i++) {
      await q.runDueJobs();
      now += 60_000;
    }
    expect(runs).toHaveLength(3);
    expect(await jobOf('broken')).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed).toEqual([{ key: 'broken', error: 'broken failed attempt 3' }]);
  });

  it('fails at once on a permanent error', async () => {
    behaviour.set('hopeless', { permanent: true });
    await enqueue(t.database.db, testJob, [{ v: 1, key: 'hopeless' }]);
    expect(await queue().runDueJobs()).toBe(1);
    expect(await jobOf('hopeless')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed).toEqual([{ key: 'hopeless', error: 'hopeless cannot work' }]);
  });

  it('claims a job again when the process that held it died (lease over), not before', async () => {
    await enqueue(t.database.db, testJob, [{ v: 1, key: 'orphan' }]);
    // A process claimed it and died: running, attempt 1 counted, lease until one minute from now.
    await t.database.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedUntil: new Date(now + 60_000) })
      .where(sql`${jobs.payload}->>'key' = 'orphan'`);
    const restarted = queue();
    expect(await restarted.runDueJobs()).toBe(0);
    now += 61_000;
    expect(await restarted.runDueJobs()).toBe(1);
    expect(runs).toEqual([{ key: 'orphan', attempt: 2 }]);
    expect(await jobOf('orphan')).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('leaves jobs it has no definition for (a newer release enqueued them)', async () => {
    await t.database.db.insert(jobs).values({ name: 'from-the-future', payload: { v: 9 } });
    expect(await queue().runDueJobs()).toBe(0);
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.name, 'from-the-future'));
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('runs every job exactly once with two workers claiming side by side', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `many-${i}`);
    await enqueue(
      t.database.db,
      testJob,
      keys.map((key) => ({ v: 1 as const, key })),
    );
    const [a, b] = await Promise.all([queue().runDueJobs(), queue().runDueJobs()]);
    expect(a + b).toBe(20);
    expect(runs.map((run) => run.key).sort()).toEqual([...keys].sort());
  });

  it('purges settled jobs after a week (failed ones after a month), never unsettled ones', async () => {
    const day = 86_400_000;
    const finishedAt = (days: number) => new Date(now - days * day);
    await t.database.db.insert(jobs).values([
      { name: 'test-job', payload: { v: 1, key: 'old-done' }, status: 'done', finishedAt: finishedAt(8) },
      { name: 'test-job', payload: { v: 1, key: 'new-done' }, status: 'done', finishedAt: finishedAt(6) },
      {
        name: 'test-job',
        payload: { v: 1, key: 'old-failed' },
        status: 'failed',
        finishedAt: finishedAt(31),
      },
      {
        name: 'test-job',
        payload: { v: 1, key: 'new-failed' },
        status: 'failed',
        finishedAt: finishedAt(20),
      },
      { name: 'test-job', payload: { v: 1, key: 'waiting' }, status: 'pending', runAt: finishedAt(-1) },
    ]);
    expect(await queue().purgeFinished()).toBe(2);
    const left = await t.database.db.select({ payload: jobs.payload }).from(jobs);
    expect(left.map((row) => (row.payload as { key: string }).key).sort()).toEqual([
      'new-done',
      'new-failed',
      'waiting',
    ]);
  });

  it('works the queue in the background between start and stop', async () => {
    const q = queue({ pollMs: 10, clock: () => new Date() });
    q.start();
    await enqueue(t.database.db, testJob, [{ v: 1, key: 'background' }]);
    for (let i = 0; i < 200 && (await jobOf('background')).status !== 'done'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await q.stop();
    expect(await jobOf('background')).toMatchObject({ status: 'done' });
    // Stopped: a new job stays pending.
    await enqueue(t.database.db, testJob, [{ v: 1, key: 'after-stop' }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await jobOf('after-stop')).toMatchObject({ status: 'pending' });
  });
});
