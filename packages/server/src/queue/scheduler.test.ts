import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Cron } from 'croner';
import pg from 'pg';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import { jobs, jobSchedules } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { createJobQueue } from '../jobs/create-queue.ts';
import type { JobDeps } from './deps.ts';
import { enqueueOnce, JobQueue } from './queue.ts';
import { latestDue, recurringJob, Scheduler, type Occurrence } from './scheduler.ts';

let t: TestApp;
/**
 * A second server process: its own connection pool on PostgreSQL, so two ticks really run side by
 * side and meet at the schedule row's lock. PGlite is one connection in one process: the same.
 */
let other: Database | null = null;
let processes: [Db, Db];

const runs: { dueAt: string; since: string }[] = [];
/** Daily at 02:30 German time: in the spring gap on 2027-03-28, twice on 2027-10-31. */
const daily = recurringJob({
  name: 'test-daily',
  schedule: '30 2 * * *',
  async run({ dueAt, since }: Occurrence) {
    runs.push({ dueAt: dueAt.toISOString(), since: since.toISOString() });
  },
});

const at = (iso: string) => new Date(iso);
const scheduler = (db: Db = t.database.db) => new Scheduler(db, [daily], { log: () => {} });

/** Runs the due occurrences with two queues side by side, at `now`. */
async function runDue(now: string) {
  const queue = (db: Db) =>
    new JobQueue(db, [daily.job], {} as JobDeps, { clock: () => at(now), log: () => {} });
  await Promise.all(processes.map((db) => queue(db).runDueJobs()));
}

/** Both processes tick at the same instant, each a fresh instance (nothing remembered). */
async function tickBoth(now: string) {
  const counts = await Promise.all(processes.map((db) => scheduler(db).tick(at(now))));
  return counts.reduce((sum, count) => sum + count, 0);
}

beforeAll(async () => {
  t = await createTestApp();
  const client = (t.database.db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    other = await openDatabase({ url: client.options.connectionString!, onConnectionError: () => {} });
  }
  processes = [t.database.db, other?.db ?? t.database.db];
});
afterAll(async () => {
  await other?.close();
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(jobs);
  await t.database.db.delete(jobSchedules);
  runs.length = 0;
});

describe('scheduler', () => {
  it('enqueues each due time once while two processes tick side by side', async () => {
    // Both see the schedule for the first time at once: it starts now and owes nothing from before.
    expect(await tickBoth('2027-01-09T12:00:00Z')).toBe(0);
    for (const day of ['10', '11', '12']) {
      // 02:30 CET is 01:30 UTC. A second early: nothing; then several rounds at and after it.
      expect(await tickBoth(`2027-01-${day}T01:29:59Z`)).toBe(0);
      let enqueued = 0;
      for (const time of ['01:30:00', '01:30:00', '01:30:01', '01:45:00', '05:00:00'])
        enqueued += await tickBoth(`2027-01-${day}T${time}Z`);
      expect(enqueued).toBe(1);
      await runDue(`2027-01-${day}T05:00:00Z`);
    }
    expect(runs).toEqual([
      { dueAt: '2027-01-10T01:30:00.000Z', since: '2027-01-09T12:00:00.000Z' },
      { dueAt: '2027-01-11T01:30:00.000Z', since: '2027-01-10T01:30:00.000Z' },
      { dueAt: '2027-01-12T01:30:00.000Z', since: '2027-01-11T01:30:00.000Z' },
    ]);
    const rows = await t.database.db.select({ key: jobs.dedupeKey, status: jobs.status }).from(jobs);
    expect(rows.map((row) => row.key).sort()).toEqual([
      'test-daily@2027-01-10T01:30:00.000Z',
      'test-daily@2027-01-11T01:30:00.000Z',
      'test-daily@2027-01-12T01:30:00.000Z',
    ]);
    expect(rows.every((row) => row.status === 'done')).toBe(true);
  });

  it('goes on from the stored state after a restart: no second run, the next one runs', async () => {
    const before = scheduler();
    await before.tick(at('2027-01-09T12:00:00Z'));
    expect(await before.tick(at('2027-01-10T01:30:05Z'))).toBe(1);
    await runDue('2027-01-10T01:30:05Z');
    // Restarted an hour later: a new instance knows only what the database holds.
    const after = scheduler();
    expect(await after.tick(at('2027-01-10T02:30:00Z'))).toBe(0);
    expect(await after.tick(at('2027-01-11T01:29:00Z'))).toBe(0);
    expect(await after.tick(at('2027-01-11T01:30:00Z'))).toBe(1);
    await runDue('2027-01-11T01:31:00Z');
    expect(runs.map((run) => run.dueAt)).toEqual(['2027-01-10T01:30:00.000Z', '2027-01-11T01:30:00.000Z']);
  });

  it('makes one catch-up run after downtime, for the latest occurrence missed', async () => {
    const before = scheduler();
    await before.tick(at('2027-01-09T12:00:00Z'));
    await before.tick(at('2027-01-10T01:30:00Z'));
    await runDue('2027-01-10T01:30:00Z');
    // Down from 2027-01-10 09:00 until 2027-01-15 09:00 (five occurrences missed); two processes
    // come back and tick at once.
    expect(await tickBoth('2027-01-15T08:00:00Z')).toBe(1);
    expect(await tickBoth('2027-01-15T08:00:01Z')).toBe(0);
    await runDue('2027-01-15T08:00:01Z');
    // Then on as usual.
    expect(await tickBoth('2027-01-16T01:30:00Z')).toBe(1);
    await runDue('2027-01-16T01:30:00Z');
    expect(runs).toEqual([
      { dueAt: '2027-01-10T01:30:00.000Z', since: '2027-01-09T12:00:00.000Z' },
      // One run covering the whole gap: (01-10 02:30, 01-15 02:30] German time.
      { dueAt: '2027-01-15T01:30:00.000Z', since: '2027-01-10T01:30:00.000Z' },
      { dueAt: '2027-01-16T01:30:00.000Z', since: '2027-01-15T01:30:00.000Z' },
    ]);
  });

  /** Ticks one process every five minutes from `from` to `to`; answers the due times enqueued. */
  async function tickEveryFiveMinutes(from: string, to: string) {
    const process = scheduler();
    const enqueued: string[] = [];
    for (let now = at(from).getTime(); now <= at(to).getTime(); now += 5 * 60_000) {
      if ((await process.tick(new Date(now))) > 0) {
        const [row] = await t.database.db.select({ lastDueAt: jobSchedules.lastDueAt }).from(jobSchedules);
        enqueued.push(row!.lastDueAt.toISOString());
      }
    }
    return enqueued;
  }

  it('runs a 02:30 job on the day the clocks skip 02:00-03:00 (spring), at 03:00 summer time', async () => {
    await scheduler().tick(at('2027-03-27T12:00:00Z'));
    // 2027-03-28: 02:00 CET becomes 03:00 CEST (01:00 UTC); no 02:30 exists that night.
    expect(await tickEveryFiveMinutes('2027-03-27T22:00:00Z', '2027-03-29T06:00:00Z')).toEqual([
      '2027-03-28T01:00:00.000Z', // 03:00 CEST, the end of the gap
      '2027-03-29T00:30:00.000Z', // 02:30 CEST
    ]);
  });

  it('runs a 02:30 job once on the day 02:00-03:00 comes twice (autumn)', async () => {
    await scheduler().tick(at('2027-10-30T12:00:00Z'));
    // 2027-10-31: 03:00 CEST becomes 02:00 CET (01:00 UTC); 02:30 is 00:30 and 01:30 UTC.
    expect(await tickEveryFiveMinutes('2027-10-30T22:00:00Z', '2027-11-01T06:00:00Z')).toEqual([
      '2027-10-31T00:30:00.000Z', // the first 02:30 (CEST)
      '2027-11-01T01:30:00.000Z', // 02:30 CET
    ]);
  });

  it('runs the production schedules through the queue: the hourly purge of settled jobs', async () => {
    let now = at('2027-01-10T10:00:00Z');
    const queue = createJobQueue(t.database.db, t.config, t.app.context.deviceChannels, {
      clock: () => now,
      log: () => {},
    });
    const finishedAt = new Date(now.getTime() - 8 * 86_400_000);
    await t.database.db.insert(jobs).values({ name: 'old', payload: {}, status: 'done', finishedAt });
    expect(await queue.tick()).toBe(0);
    now = at('2027-01-10T10:17:00Z'); // xx:17 German time, whatever the offset
    // The purge, the reference-date queries' 5-minute tick (its 10:15 occurrence) and the
    // forecasts' 10-minute round (10:10).
    expect(await queue.tick()).toBe(3);
    expect(await queue.runDueJobs()).toBe(3);
    const left = await t.database.db
      .select({ name: jobs.name, status: jobs.status })
      .from(jobs)
      .orderBy(jobs.name);
    expect(left).toEqual([
      { name: 'forecasts', status: 'done' },
      { name: 'purge-jobs', status: 'done' },
      { name: 'ref-date-queries', status: 'done' },
    ]);
  });
});

describe('once-only jobs', () => {
  it('adds a job once per key, also when the first attempt rolled back', async () => {
    const payload = { v: 1 as const, dueAt: '2027-01-10T01:30:00.000Z', since: '2027-01-09T01:30:00.000Z' };
    await t.database.db
      .transaction(async (tx) => {
        expect(await enqueueOnce(tx, daily.job, 'once', payload)).toBe(true);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await enqueueOnce(t.database.db, daily.job, 'once', payload)).toBe(true);
    expect(await enqueueOnce(t.database.db, daily.job, 'once', payload)).toBe(false);
    expect(await t.database.db.select({ key: jobs.dedupeKey }).from(jobs)).toEqual([{ key: 'once' }]);
  });
});

describe('latestDue', () => {
  it('finds the latest occurrence after a long downtime without walking every one', async () => {
    const everyMinute = new Cron('* * * * *', { paused: true });
    let calls = 0;
    const next = (after: Date) => {
      calls++;
      return everyMinute.nextRun(after);
    };
    const due = latestDue(next, at('2027-01-01T00:00:00Z'), at('2027-03-01T12:34:56Z'));
    expect(due).toEqual(at('2027-03-01T12:34:00Z'));
    expect(calls).toBeLessThan(10);
    expect(latestDue(next, at('2027-03-01T12:34:00Z'), at('2027-03-01T12:34:59Z'))).toBeNull();
  });

  it('takes a function for schedules cron cannot say (the last day of each month)', async () => {
    const lastOfMonth = (after: Date) => {
      const candidate = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0, 22));
      const here = candidate(after.getUTCFullYear(), after.getUTCMonth());
      return here > after ? here : candidate(after.getUTCFullYear(), after.getUTCMonth() + 1);
    };
    expect(latestDue(lastOfMonth, at('2027-01-15T00:00:00Z'), at('2027-04-10T00:00:00Z'))).toEqual(
      at('2027-03-31T22:00:00Z'),
    );
  });
});
