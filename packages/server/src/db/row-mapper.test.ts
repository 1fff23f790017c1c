import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice, buildUser } from '../testing/factories.ts';
import { devices, healthIssues, sensorForecasts, sensors, users } from './schema.ts';
import { builtOnce, anyOfIds } from './named-statements.ts';
import { selectMappedOnce } from './row-mapper.ts';
import {
  deviceListQueries,
  healthOfDevices,
  readListPage,
  sensorsOfDevices,
} from '../repositories/devices.ts';
import { deviceListQuery } from '@tankportal/shared/schemas/devices';

/**
 * The list's rows mapped once per query shape (row-mapper.ts) must be exactly what drizzle's own
 * mapping gives: a sensor without a forecast has `forecast: null`, one with a forecast every
 * column typed (dates as dates, numbers as numbers), a health doubt on the device itself the
 * sensor's number null — the same page the list showed before.
 */
let t: TestApp;
let deviceIds: number[];

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.database;
  const owner = await buildUser(db);
  const withForecast = await buildDevice(db, owner.id);
  const withoutForecast = await buildDevice(db, owner.id);
  deviceIds = [withForecast.id, withoutForecast.id];
  const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, withForecast.id));
  const now = new Date('2026-11-20T10:00:00.123Z');
  await db.insert(sensorForecasts).values({
    sensorId: sensor!.id,
    deviceId: withForecast.id,
    emptyAt: new Date('2026-12-24T06:00:00Z'),
    emptyAtLow: null,
    emptyAtHigh: new Date('2027-01-02T06:00:00Z'),
    perDay: 41.25,
    basedOn: now,
    computedAt: now,
  });
  await db.insert(healthIssues).values([
    {
      deviceId: withForecast.id,
      sensorId: sensor!.id,
      kind: 'stuck',
      detail: { value: 4440 },
      openedAt: now,
    },
    { deviceId: withoutForecast.id, sensorId: null, kind: 'silent', detail: { days: 3 }, openedAt: now },
  ]);
}, 60_000);
afterAll(() => t?.close());

const { calibration: _calibration, ...forecastColumns } = getTableColumns(sensorForecasts);

describe('rows mapped once per query shape', () => {
  it("gives a page's sensors, forecasts and doubts exactly as drizzle's own mapping", async () => {
    const { db } = t.database;
    const drizzleSensors = await db
      .select({ sensor: sensors, forecast: forecastColumns })
      .from(sensors)
      .leftJoin(sensorForecasts, eq(sensorForecasts.sensorId, sensors.id))
      .where(inArray(sensors.deviceId, deviceIds))
      .orderBy(asc(sensors.deviceId), asc(sensors.sequence));
    const mapped = await sensorsOfDevices(db, deviceIds);
    expect([...mapped.values()].flat()).toEqual(
      drizzleSensors.map(({ sensor, forecast }) => ({ ...sensor, forecast })),
    );
    const [first, second] = deviceIds.map((id) => mapped.get(id)![0]!);
    expect(first!.forecast).toMatchObject({ perDay: 41.25, emptyAtLow: null });
    expect(first!.forecast!.emptyAt).toEqual(new Date('2026-12-24T06:00:00Z'));
    expect(second!.forecast).toBeNull();

    const drizzleHealth = await db
      .select({ issue: healthIssues, sequence: sensors.sequence })
      .from(healthIssues)
      .leftJoin(sensors, eq(sensors.id, healthIssues.sensorId))
      .where(inArray(healthIssues.deviceId, deviceIds))
      .orderBy(asc(healthIssues.openedAt), asc(healthIssues.id));
    const health = await healthOfDevices(db, deviceIds);
    expect(deviceIds.flatMap((id) => health.get(id) ?? [])).toEqual(
      drizzleHealth.map(({ issue, sequence }) => ({ ...issue, sequence })),
    );
    expect(health.get(deviceIds[1]!)![0]).toMatchObject({ kind: 'silent', sequence: null });
  });

  it("gives the list page's devices and owners as drizzle does, for every sort", async () => {
    const { db } = t.database;
    const [master] = await db.select().from(users).where(eq(users.username, 'master'));
    for (const sort of ['id:asc', 'name:desc', 'username:asc', 'lastReportedAt:desc', 'emptyAt:asc']) {
      const query = deviceListQuery.parse({ perPage: '100', sort });
      const own = await deviceListQueries(db, master!, query).page;
      const once = await readListPage(deviceListQueries(db, master!, query).page);
      expect(once).toEqual(own);
      expect(once.length).toBeGreaterThan(0);
    }
  });

  it('maps a left join without a match, computed columns and a statement run by name', async () => {
    const { db } = t.database;
    const select = () =>
      db
        .select({
          id: devices.id,
          nested: { name: devices.name, twice: sql<number>`${devices.id} * 2`.mapWith(Number) },
          forecast: { emptyAt: sensorForecasts.emptyAt, perDay: sensorForecasts.perDay },
        })
        .from(devices)
        .leftJoin(sensorForecasts, eq(sensorForecasts.deviceId, devices.id))
        .where(inArray(devices.id, deviceIds))
        .orderBy(devices.id);
    const own = await select();
    expect(await selectMappedOnce()(select())).toEqual(own);
    expect(own.map((row) => row.forecast === null)).toEqual([false, true]);
    const byName = builtOnce('row_mapper_test_devices', (executor) =>
      executor
        .select({ device: devices, owner: { name: users.username } })
        .from(devices)
        .innerJoin(users, eq(users.id, devices.userId))
        .where(anyOfIds(devices.id))
        .orderBy(devices.id),
    );
    const plain = await db
      .select({ device: devices, owner: { name: users.username } })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(inArray(devices.id, deviceIds))
      .orderBy(devices.id);
    expect(await byName(db, { ids: deviceIds })).toEqual(plain);
    expect(await db.transaction((tx) => byName(tx, { ids: deviceIds }))).toEqual(plain);
    expect(await byName(db, { ids: [] })).toEqual([]);
  });
});
