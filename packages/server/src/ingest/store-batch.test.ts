import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { alarms, devices, measurements, messages, monthlyConsumption, sensors, users } from '../db/schema.ts';
import { recordReport } from '../commands/record-report.ts';
import { storeBatch, type IngestItem } from './store-batch.ts';
import { toDeviceReport } from './store-report.ts';

let t: TestApp;
let fast: number;
let general: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  fast = (await buildDevice(db, user.id, { thresholdSensor: 'first' })).id;
  general = (await buildDevice(db, user.id, { thresholdSensor: 'first' })).id;
  // Both tanks must stay above 3 °C: the temperature alarm opens and closes along the readings.
  await db
    .update(sensors)
    .set({ temperatureLimitType: 'below', temperatureLimitValue: 3 })
    .where(inArray(sensors.deviceId, [fast, general]));
});
afterAll(() => t.close());

// Time, content, device alarm codes, temperature (below 3 °C is a temperature alarm).
const READINGS: [string, number, string[], number][] = [
  ['2026-01-05T06:00:00Z', 8000, [], 5],
  ['2026-01-20T06:00:00Z', 6500, ['e003'], 2], // temperature alarm opens
  ['2026-01-31T06:00:00Z', 1500, ['e003', 'power_failure'], 1], // below the 20 % threshold
  ['2026-02-02T06:00:00Z', 9300, [], 6], // refill; all alarms close
  ['2026-02-15T06:00:00Z', 8800, [], 2], // temperature alarm opens again
  ['2026-03-01T06:00:00Z', 8100, ['e001'], 4], // e001 stays open; temperature closes
];

const item = (deviceId: number, index: number): IngestItem => ({
  deviceId,
  sender: { type: 'net', identType: 'net_ident_code', ident: `dev-${deviceId}` },
  report: {
    messageId: `r-${index}`,
    measuredAt: READINGS[index][0],
    sensors: [{ sequence: 1, value: READINGS[index][1], temperature: READINGS[index][3] }],
    alarms: READINGS[index][2] as IngestItem['report']['alarms'],
    simCredit: 3 + index,
  },
  content: '{}',
});

async function stateOf(deviceId: number) {
  const db = t.database.db;
  const [device] = await db.select().from(devices).where(eq(devices.id, deviceId));
  const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
  const rows = await db
    .select()
    .from(measurements)
    .where(eq(measurements.sensorId, sensor.id))
    .orderBy(asc(measurements.measuredAt));
  const consumption = await db
    .select()
    .from(monthlyConsumption)
    .where(eq(monthlyConsumption.sensorId, sensor.id))
    .orderBy(asc(monthlyConsumption.year), asc(monthlyConsumption.month));
  const deviceAlarms = await db
    .select()
    .from(alarms)
    .where(eq(alarms.deviceId, deviceId))
    .orderBy(asc(alarms.openedAt), asc(alarms.type));
  return {
    device: {
      status: device.status,
      thresholdStatus: device.thresholdStatus,
      lastReportedAt: device.lastReportedAt,
      simCreditQty: device.simCreditQty,
    },
    sensor: {
      value: sensor.value,
      pct: sensor.pct,
      netPct: sensor.netPct,
      netFreeSpace: sensor.netFreeSpace,
      status: sensor.status,
      temperatureValue: sensor.temperatureValue,
    },
    rows: rows.map((row) => [row.measuredAt.toISOString(), row.value, row.percent]),
    consumption: consumption.map((row) => [row.year, row.month, row.consumption]),
    alarms: deviceAlarms.map((alarm) => [
      alarm.type,
      alarm.scope,
      alarm.severity,
      alarm.openedAt.toISOString(),
      alarm.closedAt?.toISOString() ?? null,
    ]),
  };
}

describe('batched storage', () => {
  it('gives the same result on the bulk path as report by report, in batches of any size', async () => {
    // Bulk device: in three batches of mixed sizes, one with a repeated message id inside.
    const first = await storeBatch(t.database.db, [item(fast, 0), item(fast, 1), item(fast, 1)]);
    expect(first).toEqual([
      { duplicate: false, stored: 1 },
      { duplicate: false, stored: 1 },
      { duplicate: true, stored: 0 },
    ]);
    const middle = await storeBatch(t.database.db, [item(fast, 2)]);
    expect(middle).toEqual([{ duplicate: false, stored: 1 }]);
    await storeBatch(t.database.db, [item(fast, 3), item(fast, 4), item(fast, 5)]);
    // The general path, report by report.
    for (let i = 0; i < READINGS.length; i++)
      await recordReport(t.database.db, general, toDeviceReport(item(general, i).report));

    const bulk = await stateOf(fast);
    const oneByOne = await stateOf(general);
    expect(bulk).toEqual(oneByOne);
    expect(bulk.consumption).toEqual([
      [2026, 1, 6500],
      [2026, 2, 500],
      [2026, 3, 700],
    ]);
    expect(bulk.device).toMatchObject({ status: 'alarm', thresholdStatus: 'ok', simCreditQty: 8 });
    expect(bulk.alarms).toEqual([
      ['e003', 'alarm_in', 'notice', '2026-01-20T06:00:00.000Z', '2026-02-02T06:00:00.000Z'],
      ['temperature', 'sensor', 'fatal', '2026-01-20T06:00:00.000Z', '2026-02-02T06:00:00.000Z'],
      ['power_failure', 'alarm_in', 'fatal', '2026-01-31T06:00:00.000Z', '2026-02-02T06:00:00.000Z'],
      ['temperature', 'sensor', 'fatal', '2026-02-15T06:00:00.000Z', '2026-03-01T06:00:00.000Z'],
      ['e001', 'alarm_in', 'notice', '2026-03-01T06:00:00.000Z', null],
    ]);
    expect(bulk.sensor).toMatchObject({ value: 8100, pct: 81 });
  });

  it('recognises repetitions of earlier batches and logs each message once', async () => {
    const again = await storeBatch(t.database.db, [item(fast, 0), item(fast, 5)]);
    expect(again).toEqual([
      { duplicate: true, stored: 0 },
      { duplicate: true, stored: 0 },
    ]);
    const logged = await t.database.db
      .select()
      .from(messages)
      .where(inArray(messages.deviceId, [fast]));
    expect(logged).toHaveLength(READINGS.length);
    expect(new Set(logged.map((message) => message.status))).toEqual(new Set(['processed']));
  });

  it('keeps a sensor in alarm while its temperature is out of limit, as the general path', async () => {
    const db = t.database.db;
    const [user] = await db.select().from(users).where(eq(users.username, 'user'));
    const [cold, reference] = [(await buildDevice(db, user.id)).id, (await buildDevice(db, user.id)).id];
    await db
      .update(sensors)
      .set({ temperatureLimitType: 'below', temperatureLimitValue: 3 })
      .where(inArray(sensors.deviceId, [cold, reference]));
    await storeBatch(db, [item(cold, 0), item(cold, 1), item(cold, 2)]);
    for (const index of [0, 1, 2])
      await recordReport(db, reference, toDeviceReport(item(reference, index).report));
    const state = await stateOf(cold);
    expect(state).toEqual(await stateOf(reference));
    expect(state.sensor.status).toBe('alarm');
    expect(state.device.status).toBe('alarm');
    expect(state.alarms.filter(([type]) => type === 'temperature')).toEqual([
      ['temperature', 'sensor', 'fatal', '2026-01-20T06:00:00.000Z', null],
    ]);
  });

  it('stores a backlog arriving out of order as the general path does', async () => {
    const db = t.database.db;
    const [user] = await db.select().from(users).where(eq(users.username, 'user'));
    const [backlog, reference] = [
      (await buildDevice(db, user.id, { thresholdSensor: 'first' })).id,
      (await buildDevice(db, user.id, { thresholdSensor: 'first' })).id,
    ];
    // A repetition of report 1's reading under another message id: its measurement exists already.
    const again = { ...item(backlog, 1), report: { ...item(backlog, 1).report, messageId: 'r-1-again' } };
    const results = [
      ...(await storeBatch(db, [item(backlog, 3), item(backlog, 5)])),
      ...(await storeBatch(db, [item(backlog, 4), item(backlog, 1)])),
      ...(await storeBatch(db, [item(backlog, 0), again, item(backlog, 2)])),
    ];
    expect(results.map((result) => result.stored)).toEqual([1, 1, 1, 1, 1, 0, 1]);
    for (const index of [3, 5, 4, 1, 0, 2])
      await recordReport(db, reference, toDeviceReport(item(reference, index).report));
    const state = await stateOf(backlog);
    expect(state).toEqual(await stateOf(reference));
    expect(state.rows).toHaveLength(READINGS.length);
    expect(state.consumption).toEqual([
      [2026, 1, 6500],
      [2026, 2, 500],
      [2026, 3, 700],
    ]);
  });

  it('stores nothing for a device deleted after its sender was looked up', async () => {
    const db = t.database.db;
    const [user] = await db.select().from(users).where(eq(users.username, 'user'));
    const [gone, kept] = [(await buildDevice(db, user.id)).id, (await buildDevice(db, user.id)).id];
    await db.delete(devices).where(eq(devices.id, gone));
    const results = await storeBatch(db, [item(gone, 0), item(kept, 0)]);
    expect(results).toEqual([
      { duplicate: false, stored: 0, deviceGone: true },
      { duplicate: false, stored: 1 },
    ]);
  });

  it('crosses the threshold on the bulk path as on the general path', async () => {
    const db = t.database.db;
    const [user] = await db.select().from(users).where(eq(users.username, 'user'));
    const low = (await buildDevice(db, user.id)).id;
    await storeBatch(db, [item(low, 0), item(low, 1), item(low, 2)]);
    const state = await stateOf(low);
    expect(state.device.thresholdStatus).toBe('below');
    expect(state.consumption).toEqual([[2026, 1, 6500]]);
  });
});
