import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import pg from 'pg';
import type { RefDateInterval, RefDateIntervalType } from '@tankportal/shared/schemas/ref-date-queries';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import {
  devices,
  jobs,
  jobSchedules,
  queries,
  refDateQueries,
  refDateQueryDevices,
  users,
} from '../db/schema.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../testing/factories.ts';
import type { JobDeps } from '../queue/deps.ts';
import { JobQueue } from '../queue/queue.ts';
import { Scheduler } from '../queue/scheduler.ts';
import { refDateQueriesJob } from '../jobs/definitions/run-ref-date-queries.ts';
import { nextRunAfter } from './ref-date-schedule.ts';
import { runDueRefDateQueries } from './run-ref-date-queries.ts';

let t: TestApp;
/** A second server process: its own connection pool on PostgreSQL (as scheduler.test.ts). */
let other: Database | null = null;
let processes: [Db, Db];
let ownerId: number;
const members: number[] = [];
let netDevice: number;
let foreignDevice: number;

const at = (iso: string) => new Date(iso);
const db = () => t.database.db;

/** Both processes tick at `now` with fresh schedulers, then both queues run what is due. */
async function advanceTo(now: string) {
  await Promise.all(
    processes.map((each) => new Scheduler(each, [refDateQueriesJob], { log: () => {} }).tick(at(now))),
  );
  const queue = (each: Db) =>
    new JobQueue(each, [refDateQueriesJob.job], { db: each } as JobDeps, {
      clock: () => at(now),
      log: () => {},
    });
  await Promise.all(processes.map((each) => queue(each).runDueJobs()));
}

/** Every device answered: no query waits any more (the dispatcher is tested on its own). */
async function answerAll() {
  await db().update(queries).set({ status: 'processed' }).where(isNotNull(queries.refDateQueryId));
}

/** Runs of the query so far: one batch of queries per run, told apart by their creation. */
async function queriedDevices(id: number) {
  const rows = await db()
    .select({ deviceId: queries.deviceId })
    .from(queries)
    .where(eq(queries.refDateQueryId, id))
    .orderBy(queries.id);
  return rows.map((row) => row.deviceId);
}

async function createQuery(
  intervalType: RefDateIntervalType,
  intervals: RefDateInterval[],
  queryAt: string,
  createdAt: string,
  options: { active?: boolean; olderThan?: number; deviceIds?: number[] } = {},
) {
  const active = options.active ?? true;
  const [row] = await db()
    .insert(refDateQueries)
    .values({
      userId: ownerId,
      intervalType,
      intervals,
      queryAt,
      olderThan: options.olderThan ?? 1800,
      isActive: active,
      nextRunAt: active ? nextRunAfter({ intervalType, intervals, queryAt }, at(createdAt)) : null,
    })
    .returning();
  await db()
    .insert(refDateQueryDevices)
    .values((options.deviceIds ?? members).map((deviceId) => ({ refDateQueryId: row!.id, deviceId })));
  return row!;
}

async function state(id: number) {
  const [row] = await db().select().from(refDateQueries).where(eq(refDateQueries.id, id));
  return {
    lastRunAt: row!.lastRunAt?.toISOString() ?? null,
    nextRunAt: row!.nextRunAt?.toISOString() ?? null,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const client = (t.database.db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool)
    other = await openDatabase({ url: client.options.connectionString!, onConnectionError: () => {} });
  processes = [t.database.db, other?.db ?? t.database.db];
  const owner = await buildUser(db(), { username: 'ref-date-owner', role: 'ROLE_USER', parent: 'master' });
  ownerId = owner.id;
  for (let i = 0; i < 3; i++)
    members.push(
      (
        await buildDevice(db(), ownerId, {
          type: 'sms',
          identType: 'cell_number',
          identCode: null,
          cellNumber: `+4917055500${i}`,
        })
      ).id,
    );
  netDevice = (await buildDevice(db(), ownerId)).id;
  // Another customer's device the owner once held REF_DATE_QUERY on, and lost.
  const [otherCustomer] = await db().select().from(users).where(eq(users.username, 'admin'));
  foreignDevice = (
    await buildDevice(db(), otherCustomer!.id, {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber: '+491705550099',
    })
  ).id;
  await grant(db(), foreignDevice, ownerId, ['VIEW_STATUS']);
});
afterAll(async () => {
  await other?.close();
  await t.close();
});
beforeEach(async () => {
  await db().delete(refDateQueries);
  await db().delete(queries);
  await db().delete(jobs);
  await db().delete(jobSchedules);
  // Silent for long: every member is due for a query.
  await db()
    .update(devices)
    .set({ lastReportedAt: at('2026-01-01T00:00:00Z') });
});

describe('reference-date query runs (controlled clock)', () => {
  it('runs a monthly query on its day and time, once, with two processes ticking', async () => {
    await advanceTo('2027-01-20T10:00:00Z'); // the schedule is first seen: nothing owed from before
    const query = await createQuery('monthly', ['monthly_first'], '08:00', '2027-01-20T10:00:00Z');
    expect(await state(query.id)).toEqual({ lastRunAt: null, nextRunAt: '2027-02-01T07:00:00.000Z' });
    await advanceTo('2027-02-01T06:55:00Z');
    expect(await queriedDevices(query.id)).toEqual([]);
    for (const time of ['07:00:00', '07:00:30', '07:05:00', '07:10:00'])
      await advanceTo(`2027-02-01T${time}Z`);
    expect(await queriedDevices(query.id)).toEqual(members);
    expect(await state(query.id)).toEqual({
      lastRunAt: '2027-02-01T07:00:00.000Z',
      nextRunAt: '2027-03-01T07:00:00.000Z',
    });
  });

  it('runs a daily query on the chosen days only and an intraday one every N hours', async () => {
    await advanceTo('2027-01-03T23:00:00Z');
    const daily = await createQuery('daily', ['daily_3'], '06:30', '2027-01-03T23:00:00Z'); // Wednesdays
    const intraday = await createQuery('intraday', ['intraday_12'], '11:00', '2027-01-03T23:00:00Z', {
      deviceIds: [members[0]!],
    });
    for (const time of [
      '2027-01-04T05:30:00Z', // Monday 06:30: not daily's day
      '2027-01-04T10:00:00Z', // 11:00 CET
      '2027-01-04T22:00:00Z', // 23:00 CET
      '2027-01-06T05:30:00Z', // Wednesday 06:30
    ]) {
      await advanceTo(time);
      await answerAll();
    }
    // members[0] was asked by the intraday catch-up in the same tick and has not answered yet:
    // one query serves both, the device gets one SMS.
    expect(await queriedDevices(daily.id)).toEqual(members.slice(1));
    // 10:00 and 22:00 on the 4th, and the catch-up at Wednesday's tick for the two times missed since.
    expect(await queriedDevices(intraday.id)).toEqual([members[0], members[0], members[0]]);
  });

  it('keeps German time across the spring gap and the autumn hour', async () => {
    await advanceTo('2027-03-27T12:00:00Z');
    const spring = await createQuery('daily', ['daily_0'], '02:30', '2027-03-27T12:00:00Z');
    // No 02:30 on 2027-03-28: the run comes at 03:00 CEST (01:00 UTC), not a day late.
    await advanceTo('2027-03-28T00:55:00Z');
    expect(await queriedDevices(spring.id)).toEqual([]);
    await advanceTo('2027-03-28T01:00:00Z');
    expect(await queriedDevices(spring.id)).toEqual(members);

    await answerAll();
    await db().delete(refDateQueries).where(eq(refDateQueries.id, spring.id));
    await advanceTo('2027-10-30T12:00:00Z');
    const autumn = await createQuery('daily', ['daily_0'], '02:30', '2027-10-30T12:00:00Z');
    await answerAll();
    // 02:30 happens twice on 2027-10-31 (00:30 and 01:30 UTC): one run.
    for (const time of ['00:30:00', '00:35:00', '01:30:00', '01:35:00', '02:00:00']) {
      await advanceTo(`2027-10-31T${time}Z`);
      await answerAll();
    }
    expect(await queriedDevices(autumn.id)).toEqual(members);
    expect((await state(autumn.id)).nextRunAt).toBe('2027-11-07T01:30:00.000Z');
  });

  it('runs what was due before a restart, and once after three days of downtime', async () => {
    await advanceTo('2027-01-10T12:00:00Z');
    const query = await createQuery(
      'daily',
      ['daily_0', 'daily_1', 'daily_2', 'daily_3', 'daily_4', 'daily_5', 'daily_6'],
      '08:00',
      '2027-01-10T12:00:00Z',
    );
    // The occurrence is enqueued at 07:00 UTC, then every process stops before running it.
    await Promise.all(
      processes.map((each) =>
        new Scheduler(each, [refDateQueriesJob], { log: () => {} }).tick(at('2027-01-11T07:00:00Z')),
      ),
    );
    expect(await queriedDevices(query.id)).toEqual([]);
    // Restarted (new instances, nothing remembered) at 07:20: the job still waits and runs once.
    await advanceTo('2027-01-11T07:20:00Z');
    expect(await queriedDevices(query.id)).toEqual(members);
    await answerAll();

    // Down from the 11th 07:20 until the 14th 10:17: the 12th, 13th and 14th 08:00 were missed.
    await advanceTo('2027-01-14T10:17:00Z');
    expect(await queriedDevices(query.id)).toEqual([...members, ...members]);
    expect(await state(query.id)).toEqual({
      lastRunAt: '2027-01-14T10:15:00.000Z', // the catch-up occurrence
      nextRunAt: '2027-01-15T07:00:00.000Z',
    });
    await advanceTo('2027-01-14T10:30:00Z');
    expect(await queriedDevices(query.id)).toHaveLength(members.length * 2);
  });

  it('two processes running the due queries at once run each once', async () => {
    const query = await createQuery('intraday', ['intraday_1'], '00:00', '2027-01-10T00:30:00Z');
    const runs = await Promise.all(
      processes.map((each) => runDueRefDateQueries(each, at('2027-01-10T01:00:00Z'))),
    );
    expect(runs.flat()).toHaveLength(1);
    expect(await queriedDevices(query.id)).toEqual(members);
  });

  it('leaves out inactive queries, members that reported within olderThan, lost permissions and unqueryable devices', async () => {
    await advanceTo('2027-01-10T00:00:00Z');
    const inactive = await createQuery('intraday', ['intraday_1'], '00:00', '2027-01-10T00:00:00Z', {
      active: false,
    });
    const query = await createQuery('intraday', ['intraday_1'], '00:00', '2027-01-10T00:00:00Z', {
      olderThan: 3600,
      deviceIds: [...members, netDevice, foreignDevice],
    });
    // members[0] reported 59 minutes before the run, members[1] 61 minutes before.
    await db()
      .update(devices)
      .set({ lastReportedAt: at('2027-01-10T00:01:00Z') })
      .where(eq(devices.id, members[0]!));
    await db()
      .update(devices)
      .set({ lastReportedAt: at('2027-01-09T23:59:00Z') })
      .where(eq(devices.id, members[1]!));
    // members[2] still has a query waiting from before: it is not asked twice.
    await db().insert(queries).values({ deviceId: members[2]!, userId: ownerId, status: 'pending' });
    await advanceTo('2027-01-10T01:00:00Z');
    expect(await queriedDevices(inactive.id)).toEqual([]);
    expect(await queriedDevices(query.id)).toEqual([members[1]]);
    expect(
      await db()
        .select()
        .from(queries)
        .where(and(eq(queries.deviceId, foreignDevice))),
    ).toEqual([]);
  });
});
