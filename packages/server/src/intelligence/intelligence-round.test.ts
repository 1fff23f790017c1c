import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { deviceWithHistory } from '../testing/level-history.ts';
import { deliveries, measurements, sensorChecks, sensors } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import { refreshForecasts } from './refresh-forecasts.ts';
import { runSensorChecks } from './sensor-checks.ts';

const HOUR_MS = 3_600_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

/** The job's round: the forecasts, which check the sensors they forecast, then the checks left. */
async function round(db: Db, now: Date) {
  const forecasts = await refreshForecasts(db, { now, checks: true });
  const checks = await runSensorChecks(db, { now });
  return { forecasts, checked: checks.sensors };
}

type Query = (...args: unknown[]) => unknown;

/**
 * The statements the Db runs outside a transaction (its client's `query`: PGlite, or the pg pool)
 * and the transactions it opens (PGlite's `transaction`, a client taken from the pg pool) while
 * `work` runs.
 */
async function statementsOf(db: Db, work: () => Promise<unknown>) {
  const client = (db as unknown as { $client: Record<string, Query> }).$client;
  const texts: string[] = [];
  let transactions = 0;
  const opens = 'transaction' in client ? 'transaction' : 'connect';
  const query = client.query!;
  const open = client[opens]!;
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    texts.push(typeof first === 'string' ? first : first.text);
    return query.apply(this, args);
  };
  client[opens] = function (this: unknown, ...args: unknown[]) {
    // The pool's own `query` connects with a callback; a transaction takes a client without one.
    if (typeof args[0] !== 'function') transactions++;
    return open.apply(this, args);
  };
  try {
    await work();
  } finally {
    client.query = query;
    client[opens] = open;
  }
  return { texts, transactions, reads: texts.filter((text) => /from "measurements"/i.test(text)).length };
}

async function addReading(db: Db, sensorId: number, at: Date, value: number) {
  await db.insert(measurements).values({ sensorId, measuredAt: at, value });
  await db.update(sensors).set({ value, lastMeasuredAt: at }).where(eq(sensors.id, sensorId));
}

describe('the intelligence round', () => {
  it('reads each reported sensor’s readings once for its forecast and its checks, and writes them in a few statements', async () => {
    const db = t.database.db;
    const made = [];
    for (const seed of [51, 52, 53]) made.push(await deviceWithHistory(db, 'user', seed, 300));
    const ids = made.map(({ sensor }) => sensor.id);
    const now = new Date(Math.max(...made.map((one) => one.now.getTime())));
    // A new fleet: forecasts and checks in the forecasts' pass (its backtests from scratch read again).
    const first = await statementsOf(db, async () =>
      expect(await round(db, now)).toEqual({ forecasts: 3, checked: 0 }),
    );
    expect(first.reads).toBe(6);
    const stored = await db.select().from(deliveries).where(inArray(deliveries.sensorId, ids));
    expect(stored.length).toBeGreaterThanOrEqual(3);
    // The three sensors' deliveries (they found nothing else) in one statement, outside a transaction.
    expect(first.texts.filter((text) => /^\s*insert into "deliveries"/i.test(text))).toHaveLength(1);
    expect(await db.select().from(sensorChecks).where(inArray(sensorChecks.sensorId, ids))).toHaveLength(3);

    // Each sensor reports once more, 25 l used (no refill; a reading 1 l lower left one of the three
    // tanks level for a week, a stuck-sensor doubt whose writes take a transaction): one read each,
    // and the writes of all three in one
    // statement per table; the deliveries in their 67-day windows, stored already, are not written
    // again, and nothing needs a transaction.
    const later = new Date(now.getTime() + HOUR_MS);
    for (const { sensor } of made) {
      const [row] = await db.select({ value: sensors.value }).from(sensors).where(eq(sensors.id, sensor.id));
      await addReading(db, sensor.id, new Date(later.getTime() - 60_000), row!.value! - 25);
    }
    const steady = await statementsOf(db, async () =>
      expect(await round(db, later)).toEqual({ forecasts: 3, checked: 0 }),
    );
    expect(steady.reads).toBe(3);
    expect(steady.transactions).toBe(0);
    expect(steady.texts.filter((text) => /^insert into "sensor_forecasts"/i.test(text))).toHaveLength(1);
    expect(steady.texts.filter((text) => /^insert into "sensor_checks"/i.test(text))).toHaveLength(1);
    expect(steady.texts.filter((text) => /"deliveries"/i.test(text))).toEqual([]);
    // The stale sensors, the readings, two writes, the look for more stale sensors and for due
    // backtests; the checks' look for due sensors and the devices' silence and batteries.
    expect(steady.texts).toHaveLength(3 + 8);
    expect(await db.select().from(deliveries).where(inArray(deliveries.sensorId, ids))).toEqual(stored);

    // Nothing new: nothing read.
    const quiet = await statementsOf(db, async () =>
      expect(await round(db, later)).toEqual({ forecasts: 0, checked: 0 }),
    );
    expect(quiet.reads).toBe(0);
  });

  it('reads the weather stations once a round, not once for every heating tank', async () => {
    const db = t.database.db;
    const made = [];
    for (const seed of [55, 56, 57]) made.push(await deviceWithHistory(db, 'user', seed, 120));
    for (const { sensor } of made)
      await db.update(sensors).set({ contentType: 'heating_oil_el' }).where(eq(sensors.id, sensor.id));
    const now = new Date(Math.max(...made.map((one) => one.now.getTime())));
    const first = await statementsOf(db, () => round(db, now));
    // Three heating tanks forecast and backtested: the stations' list read once.
    expect(first.reads).toBeGreaterThanOrEqual(3);
    expect(first.texts.filter((text) => /from "weather_stations"/i.test(text))).toHaveLength(1);
  });

  it('writes a delivery again only while it grows: a truck still pumping at one round, done at the next', async () => {
    const db = t.database.db;
    const { sensor, now } = await deviceWithHistory(db, 'user', 54, 200);
    await round(db, now);
    const [{ value }] = (await db
      .select({ value: sensors.value })
      .from(sensors)
      .where(eq(sensors.id, sensor.id))) as [{ value: number }];
    const ofSensor = () => db.select().from(deliveries).where(eq(deliveries.sensorId, sensor.id));
    const before = await ofSensor();
    // The truck arrives: the level rises by 3,000 l, and 1,000 l more in the next reading.
    const at = (hours: number) => new Date(now.getTime() + hours * HOUR_MS);
    await addReading(db, sensor.id, at(1), value + 3_000);
    await round(db, at(1.5));
    const started = (await ofSensor()).find((delivery) => !before.some((old) => old.id === delivery.id))!;
    expect(started).toMatchObject({ deliveredAt: at(1), levelAfter: value + 3_000 });
    await addReading(db, sensor.id, at(2), value + 4_000);
    await round(db, at(2.5));
    const [grown] = await db.select().from(deliveries).where(eq(deliveries.id, started.id));
    expect(grown).toMatchObject({ deliveredAt: at(2), levelAfter: value + 4_000, quantity: 4_000 });
    // The level falls again: the delivery is whole, and the rounds after it leave it alone.
    for (const hours of [3, 4]) {
      await addReading(db, sensor.id, at(hours), value + 4_000 - hours);
      const next = await statementsOf(db, () => round(db, at(hours + 0.5)));
      expect(next.texts.filter((text) => /"deliveries"/i.test(text))).toEqual([]);
      expect(next.transactions).toBe(0);
    }
    expect(await ofSensor()).toEqual([...before, grown].sort((a, b) => a.id - b.id));
  });

  it('checks a reading time with microseconds once, in the forecasts’ pass as in the checks’ own', async () => {
    const db = t.database.db;
    const { sensor, now } = await deviceWithHistory(db, 'user', 55, 200);
    await round(db, now);
    // PostgreSQL keeps microseconds; a JS Date rounds them away.
    await db.execute(
      sql`UPDATE sensors SET last_measured_at = ${now.toISOString()}::timestamptz + interval '0.000321 seconds' WHERE id = ${sensor.id}`,
    );
    expect(await round(db, now)).toEqual({ forecasts: 1, checked: 0 });
    expect(await round(db, now)).toEqual({ forecasts: 0, checked: 0 });
    const [mark] = await db
      .select({
        basedOn: sql<string>`${sensorChecks.basedOn}::text`,
        exact: sql<string>`${sensors.lastMeasuredAt}::text`,
      })
      .from(sensorChecks)
      .innerJoin(sensors, eq(sensors.id, sensorChecks.sensorId))
      .where(eq(sensorChecks.sensorId, sensor.id));
    expect(mark!.basedOn).toBe(mark!.exact);
  });
});
