import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';

import { measurements, messages, sensorForecasts, sensors, users } from '../db/schema.ts';
import { buildContact, buildRecipient } from '../testing/contacts-factories.ts';
import { refreshForecasts } from './refresh-forecasts.ts';
import { runSensorChecks } from './sensor-checks.ts';
import { readCalibration } from './model-choice.ts';
import { deviceWithHistory } from '../testing/level-history.ts';

const DAY_MS = 86_400_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

describe('days-to-empty forecasts on the device', () => {
  it('are kept for each level sensor with new readings and answered with the device and the list', async () => {
    const db = t.database.db;
    const { device, sensor, levelAt, now } = await deviceWithHistory(db, 'user', 5, 400);
    const sparse = await buildDevice(
      db,
      (await db.select().from(users).where(eq(users.username, 'user')))[0]!.id,
    );
    const [sparseSensor] = await db.select().from(sensors).where(eq(sensors.deviceId, sparse.id));
    await db.insert(measurements).values({ sensorId: sparseSensor!.id, measuredAt: now, value: 5000 });
    await db.update(sensors).set({ lastMeasuredAt: now }).where(eq(sensors.id, sparseSensor!.id));

    expect(await refreshForecasts(db, { now })).toBe(2);
    // Nothing new: nothing to do.
    expect(await refreshForecasts(db, { now })).toBe(0);

    const user = await t.signIn('user');
    const detail = (await user.get(`/api/v2/devices/${device.id}`)).json();
    const forecast = detail.sensors[0].forecast;
    expect(forecast).not.toBeNull();
    const emptyAt = Date.parse(forecast.emptyAt);
    expect(emptyAt).toBeGreaterThan(now.getTime());
    expect(Date.parse(forecast.emptyAtLow)).toBeLessThanOrEqual(emptyAt);
    expect(Date.parse(forecast.emptyAtHigh)).toBeGreaterThanOrEqual(emptyAt);
    // The reorder point (threshold 20 %) comes before empty.
    expect(Date.parse(forecast.reorderAt)).toBeLessThan(emptyAt);
    expect(forecast.perDay).toBeGreaterThan(0);
    expect(typeof forecast.errorDays === 'number' || forecast.errorDays === null).toBe(true);
    // As far as the true use says: the level now over the use per day, within the range's width.
    const levelNow = levelAt(now);
    const trueDays = levelNow / forecast.perDay;
    expect(Math.abs((emptyAt - now.getTime()) / DAY_MS - trueDays)).toBeLessThan(trueDays * 0.5 + 7);

    // Too little data: no forecast rather than a wrong one.
    expect((await user.get(`/api/v2/devices/${sparse.id}`)).json().sensors[0].forecast).toBeNull();
    const listed = (await user.get('/api/v2/devices?per_page=100')).json();
    const inList = listed.find((row: { id: number }) => row.id === device.id);
    expect(inList.sensors[0].forecast).toMatchObject({ emptyAt: forecast.emptyAt, perDay: forecast.perDay });

    // The list filters and sorts by the days to empty; devices without a forecast come last.
    const days = Math.ceil((emptyAt - Date.now()) / DAY_MS);
    const within = (await user.get(`/api/v2/devices?per_page=100&empty_within_days=${days + 1}`)).json();
    expect(
      within.map((row: { id: number }) => row.id),
      JSON.stringify(await db.select().from(sensorForecasts)),
    ).toEqual([device.id]);
    const before = (await user.get(`/api/v2/devices?per_page=100&empty_within_days=${days - 2}`)).json();
    expect(before.map((row: { id: number }) => row.id)).not.toContain(device.id);
    for (const direction of ['asc', 'desc']) {
      const sorted = (await user.get(`/api/v2/devices?per_page=100&sort=emptyAt:${direction}`)).json();
      expect(sorted[0].id).toBe(device.id);
      expect(sorted.at(-1).sensors[0].forecast).toBeNull();
    }
    expect((await user.get('/api/v2/devices?empty_within_days=-1')).statusCode).toBe(400);

    // A new reading makes it stale; the next round forecasts it again.
    const later = new Date(now.getTime() + 6 * 3_600_000);
    await db.insert(measurements).values({ sensorId: sensor.id, measuredAt: later, value: 1 });
    await db.update(sensors).set({ lastMeasuredAt: later }).where(eq(sensors.id, sensor.id));
    expect(await refreshForecasts(db, { now: later })).toBe(1);
    const [row] = await db.select().from(sensorForecasts).where(eq(sensorForecasts.sensorId, sensor.id));
    expect(row!.basedOn.getTime()).toBe(later.getTime());
    // A day later it is forecast again even without a reading (a silent sensor's forecast ages).
    expect(await refreshForecasts(db, { now: new Date(later.getTime() + DAY_MS + 1) })).toBe(2);
  });

  it('are made once for a reading time with microseconds (imported by SQL), then left until the next reading', async () => {
    const db = t.database.db;
    const { sensor, now } = await deviceWithHistory(db, 'user', 7, 200);
    await refreshForecasts(db, { now });
    await runSensorChecks(db, { now });
    // PostgreSQL keeps microseconds; a JS Date rounds them away.
    await db.execute(
      sql`UPDATE sensors SET last_measured_at = ${now.toISOString()}::timestamptz + interval '0.000123 seconds' WHERE id = ${sensor.id}`,
    );
    expect(await refreshForecasts(db, { now, limit: 10 })).toBe(1);
    expect(await refreshForecasts(db, { now, limit: 10 })).toBe(0);
    expect((await runSensorChecks(db, { now })).sensors).toBe(1);
    expect((await runSensorChecks(db, { now })).sensors).toBe(0);
  });

  it('come for every stale sensor before any accuracy backtest, which follows within the same budget', async () => {
    const db = t.database.db;
    const made = [];
    for (const seed of [31, 32, 33]) made.push(await deviceWithHistory(db, 'admin', seed, 200));
    const now = made[0]!.now;
    const ids = made.map(({ sensor }) => sensor.id);
    const kept = async () =>
      (await db.select().from(sensorForecasts)).filter((row) => ids.includes(row.sensorId));
    // Cut short after two forecasts (as a round's budget would): no backtest yet.
    expect(await refreshForecasts(db, { now, limit: 2 })).toBe(2);
    expect((await kept()).map((row) => row.errorDaysAt)).toEqual([null, null]);
    // The next round forecasts the third, then measures all three.
    expect(await refreshForecasts(db, { now })).toBe(1);
    const rows = await kept();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.errorDaysAt?.getTime()).toBe(now.getTime());
      // The tank's own backtest: the forecaster per horizon; errorDays its error at the horizon
      // nearest the forecast's days to empty.
      const calibration = readCalibration(row.calibration)!;
      expect(calibration.at).toBe(now.toISOString());
      const days = (row.emptyAt!.getTime() - now.getTime()) / DAY_MS;
      const nearest = [...calibration.horizons].sort(
        (a, b) => Math.abs(Math.log(a.horizonDays / days)) - Math.abs(Math.log(b.horizonDays / days)),
      )[0]!;
      expect(row.errorHorizonDays).toBe(nearest.horizonDays);
      expect(row.errorDays).toBe(Math.ceil(nearest.absQ80));
    }
    // A new reading: a new forecast that keeps the day's accuracy figure.
    const later = new Date(now.getTime() + 3_600_000);
    await db.insert(measurements).values({ sensorId: ids[0]!, measuredAt: later, value: 1 });
    await db.update(sensors).set({ lastMeasuredAt: later }).where(eq(sensors.id, ids[0]!));
    expect(await refreshForecasts(db, { now: later })).toBe(1);
    const [again] = await db.select().from(sensorForecasts).where(eq(sensorForecasts.sensorId, ids[0]!));
    expect(again!.errorDaysAt?.getTime()).toBe(now.getTime());
    expect(again!.errorDays).toBe(rows.find((row) => row.sensorId === ids[0])!.errorDays);
    // A day on, the backtest goes on from yesterday's within the forecast's own pass (one read of
    // the readings), even in a round cut short before the backtests.
    const nextDay = new Date(now.getTime() + 25 * 3_600_000);
    await db.insert(measurements).values({ sensorId: ids[0]!, measuredAt: nextDay, value: 1 });
    await db.update(sensors).set({ lastMeasuredAt: nextDay }).where(eq(sensors.id, ids[0]!));
    expect(await refreshForecasts(db, { now: nextDay, limit: 1 })).toBe(1);
    const byId = new Map((await kept()).map((row) => [row.sensorId, row]));
    expect(byId.get(ids[0]!)!.errorDaysAt?.getTime()).toBe(nextDay.getTime());
    expect(readCalibration(byId.get(ids[0]!)!.calibration)!.at).toBe(nextDay.toISOString());
    expect(byId.get(ids[1]!)!.errorDaysAt?.getTime()).toBe(now.getTime());
  });

  it('go on past a sensor whose forecast the database refuses, and try it again in the next round', async () => {
    const db = t.database.db;
    const made = [];
    for (const seed of [41, 42, 43]) made.push(await deviceWithHistory(db, 'admin', seed, 120));
    const now = made[0]!.now;
    const [bad, ...good] = made.map(({ sensor }) => sensor.id);
    const forecastOf = async (id: number) =>
      (await db.select().from(sensorForecasts).where(eq(sensorForecasts.sensorId, id)))[0];
    // A fault in one sensor's write (as a broken value would cause), injected where PostgreSQL refuses it.
    await db.execute(
      sql.raw(`CREATE FUNCTION refuse_forecast() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused for the test'; END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER refuse_forecast BEFORE INSERT OR UPDATE ON sensor_forecasts
        FOR EACH ROW WHEN (NEW.sensor_id = ${bad}) EXECUTE FUNCTION refuse_forecast()`),
    );
    const logged: string[] = [];
    try {
      await refreshForecasts(db, { now, log: (message) => logged.push(message) });
      expect(await forecastOf(bad!)).toBeUndefined();
      for (const id of good) expect((await forecastOf(id))?.emptyAt).not.toBeNull();
      expect(logged.join('\n')).toContain(`sensor ${bad} failed, the round goes on: refused for the test`);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER refuse_forecast ON sensor_forecasts'));
      await db.execute(sql.raw('DROP FUNCTION refuse_forecast()'));
    }
    await refreshForecasts(db, { now });
    expect((await forecastOf(bad!))?.emptyAt).not.toBeNull();
  });

  it('are only for whoever may see the device', async () => {
    const db = t.database.db;
    const { device, now } = await deviceWithHistory(db, 'master', 9, 200);
    await refreshForecasts(db, { now });
    const user = await t.signIn('user');
    expect((await user.get(`/api/v2/devices/${device.id}`)).statusCode).toBe(404);
    const master = await t.signIn('master');
    expect((await master.get(`/api/v2/devices/${device.id}`)).json().sensors[0].forecast).not.toBeNull();
  });

  it('tell the recipients of the forecast event once, when the tank comes within 14 days of empty', async () => {
    const db = t.database.db;
    const { device, sensor, now } = await deviceWithHistory(db, 'user', 21, 200);
    const [owner] = await db.select().from(users).where(eq(users.username, 'user'));
    const contact = await buildContact(db, owner!.id, { email: 'disponent@example.com', language: 'de' });
    await buildRecipient(db, device.id, contact!.id, [
      { name: 'forecast', channels: ['mail'], notifyOnceIn: null },
    ]);
    const mails = async () =>
      db
        .select()
        .from(messages)
        .where(and(eq(messages.deviceId, device.id), eq(messages.type, 'mail')));
    await refreshForecasts(db, { now });
    const [first] = await db.select().from(sensorForecasts).where(eq(sensorForecasts.sensorId, sensor.id));
    expect(first!.emptyAt!.getTime()).toBeGreaterThan(now.getTime() + 14 * DAY_MS);
    expect(await mails()).toEqual([]);

    // The tank goes on being used: readings twice a day at the forecast's pace, until it is due.
    let at = now;
    let level = (await db.select().from(sensors).where(eq(sensors.id, sensor.id)))[0]!.value!;
    const report = async () => {
      at = new Date(at.getTime() + DAY_MS / 2);
      level -= first!.perDay! / 2;
      await db.insert(measurements).values({ sensorId: sensor.id, measuredAt: at, value: level });
      await db.update(sensors).set({ value: level, lastMeasuredAt: at }).where(eq(sensors.id, sensor.id));
      await refreshForecasts(db, { now: new Date(at.getTime() + 60_000) });
      const [kept] = await db.select().from(sensorForecasts).where(eq(sensorForecasts.sensorId, sensor.id));
      return kept!.emptyAt!.getTime() - at.getTime() <= 14 * DAY_MS;
    };
    let due = false;
    for (let round = 0; round < 120 && !due; round++) {
      expect(await mails()).toEqual([]);
      due = await report();
    }
    expect(due).toBe(true);
    const sent = await mails();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.content).toContain('läuft bald leer');
    expect(sent[0]!.content).toContain('leer voraussichtlich am');
    expect(sent[0]!.content).toContain('Prognose: leer innerhalb von 14 Tagen');
    // Still within the window at the next readings: nothing new.
    await report();
    await report();
    expect(await mails()).toHaveLength(1);
  });
});
