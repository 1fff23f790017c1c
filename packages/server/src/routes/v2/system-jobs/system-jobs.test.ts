import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobSchedules, jobs } from '../../../db/schema.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../testing/test-app.ts';

let t: TestApp;
let master: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  master = await t.signIn('master');
});
afterAll(() => t.close());

const runsOf = (name: string) => t.database.db.select().from(jobs).where(eq(jobs.name, name));

describe('the recurring jobs in the system area', () => {
  it('lists every recurring job with its schedule and due times to a master', async () => {
    const lastDue = new Date('2026-11-30T09:17:00Z');
    await t.database.db.insert(jobSchedules).values({ name: 'purge-jobs', lastDueAt: lastDue });
    const listed = await master.get('/api/v2/system/jobs');
    expect(listed.statusCode).toBe(200);
    const all = listed.json() as { name: string }[];
    expect(all.map((job) => job.name)).toEqual(
      expect.arrayContaining(['forecasts', 'purge-jobs', 'invoicing-run', 'ref-date-queries']),
    );
    expect(all.find((job) => job.name === 'purge-jobs')).toEqual({
      name: 'purge-jobs',
      schedule: '17 * * * *',
      timeZone: 'Europe/Berlin',
      lastDueAt: lastDue.toISOString(),
      nextDueAt: '2026-11-30T10:17:00.000Z',
      lastRun: null,
    });
  });

  it('starts a run now for a master, as an occurrence of the schedule, which the queue then runs', async () => {
    const started = await master.post('/api/v2/system/jobs/purge-jobs/run');
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().lastRun).toMatchObject({ state: 'pending', attempts: 0 });
    const [run] = await runsOf('purge-jobs');
    expect(run!.payload).toMatchObject({ v: 1, since: '2026-11-30T09:17:00.000Z' });
    // The schedule is not moved: its next occurrence runs as planned.
    const [schedule] = await t.database.db
      .select()
      .from(jobSchedules)
      .where(eq(jobSchedules.name, 'purge-jobs'));
    expect(schedule!.lastDueAt.toISOString()).toBe('2026-11-30T09:17:00.000Z');

    // A second start while the run waits is refused, and adds none.
    const again = await master.post('/api/v2/system/jobs/purge-jobs/run');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('JobAlreadyRunning');
    expect(await runsOf('purge-jobs')).toHaveLength(1);

    expect(await t.app.context.jobs.runDueJobs()).toBeGreaterThanOrEqual(1);
    const listed = (await master.get('/api/v2/system/jobs')).json() as {
      name: string;
      lastRun: { state: string; finishedAt: string | null } | null;
    }[];
    const done = listed.find((job) => job.name === 'purge-jobs')!.lastRun!;
    expect(done.state).toBe('done');
    expect(done.finishedAt).not.toBeNull();
  });

  it('makes one run of two starts at the same moment', async () => {
    const answers = await Promise.all([
      master.post('/api/v2/system/jobs/weather-import/run'),
      master.post('/api/v2/system/jobs/weather-import/run'),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
    expect(await runsOf('weather-import')).toHaveLength(1);
  });

  it('answers 404 for a job no schedule has, and refuses every other role without a run', async () => {
    expect((await master.post('/api/v2/system/jobs/no-such-job/run')).statusCode).toBe(404);
    const admin = await t.signIn('admin');
    expect((await admin.get('/api/v2/system/jobs')).statusCode).toBe(403);
    expect((await admin.post('/api/v2/system/jobs/invoicing-run/run')).statusCode).toBe(403);
    const demo = await t.signIn('demo');
    expect((await demo.post('/api/v2/system/jobs/invoicing-run/run')).statusCode).toBe(403);
    expect(await runsOf('invoicing-run')).toEqual([]);
  });
});
