import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { alarms, devices, measurements, messages, monthlyConsumption, sensors, users } from '../db/schema.ts';
import { recordReport } from '../commands/record-report.ts';
import type { Db } from '../db/client.ts';
import { storeBatch } from './store-batch.ts';
import { IngestBatcher } from './ingest-batcher.ts';
import { toDeviceReport, type IngestItem, type IngestResult } from './ingest-item.ts';

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

/** A report of one sensor, as a protocol hands it to the batcher (no schema in between). */
const reading = (deviceId: number, ident: string, messageId: string, measuredAt: string, value = 5000) => ({
  deviceId,
  sender: { type: 'net' as const, identType: 'net_ident_code' as const, ident },
  report: { messageId, measuredAt, sensors: [{ sequence: 1, value }] },
  content: JSON.stringify({ messageId, measuredAt }),
});

async function valuesOf(deviceId: number) {
  const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
  const rows = await t.database.db
    .select()
    .from(measurements)
    .where(eq(measurements.sensorId, sensor.id))
    .orderBy(asc(measurements.measuredAt));
  return rows.map((row) => row.value);
}

async function newDevices(count: number) {
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const ids: number[] = [];
  for (let n = 0; n < count; n++) ids.push((await buildDevice(db, user.id)).id);
  return ids;
}

describe('a report the database refuses', () => {
  // Reports that got past no schema: each fails the transaction it is in.
  const POISONS: [string, (deviceId: number) => IngestItem][] = [
    ['a NUL in the message id', (id) => reading(id, `dev-${id}`, 'p\u0000', '2026-04-01T06:00:00Z')],
    [
      'a lone surrogate in the message id',
      (id) => reading(id, `dev-${id}`, 'p\uD800', '2026-04-01T06:00:00Z'),
    ],
    ['a year-0000 time', (id) => reading(id, `dev-${id}`, 'p-1', '0000-01-01T00:00:00Z')],
    ['an offset of -23:59', (id) => reading(id, `dev-${id}`, 'p-2', '2026-04-01T06:00:00-23:59')],
  ];

  it.each(POISONS)(
    'with %s fails alone: the other reports of its batch are stored and settled',
    async (_, poison) => {
      const [bad, ...good] = await newDevices(4);
      // A wait long enough that all of them form one batch (one transaction).
      const batcher = new IngestBatcher(t.database.db, { maxWaitMs: 50 });
      const settled = await Promise.allSettled([
        batcher.submit(reading(good[0], `dev-${good[0]}`, 'g-1', '2026-04-01T06:00:00Z', 7000)),
        batcher.submit(poison(bad)),
        batcher.submit(reading(good[1], `dev-${good[1]}`, 'g-1', '2026-04-01T06:00:00Z', 6000)),
        batcher.submit(reading(good[0], `dev-${good[0]}`, 'g-2', '2026-04-01T07:00:00Z', 6900)),
        batcher.submit(reading(good[2], `dev-${good[2]}`, 'g-1', '2026-04-01T06:00:00Z', 5000)),
      ]);
      expect(settled.map((outcome) => outcome.status)).toEqual(Array(5).fill('fulfilled'));
      const results = settled.map((outcome) => (outcome as PromiseFulfilledResult<IngestResult>).value);
      expect(results[1]).toMatchObject({ stored: 0, refused: expect.stringMatching(/SQLSTATE 22/) });
      for (const index of [0, 2, 3, 4]) expect(results[index]).toEqual({ duplicate: false, stored: 1 });
      expect(await valuesOf(good[0])).toEqual([7000, 6900]);
      expect(await valuesOf(good[1])).toEqual([6000]);
      expect(await valuesOf(good[2])).toEqual([5000]);
      // Nothing of the refused report is stored; the others are logged once each.
      expect(await valuesOf(bad)).toEqual([]);
      const logged = await t.database.db
        .select()
        .from(messages)
        .where(inArray(messages.deviceId, [bad, ...good]));
      expect(logged.filter((message) => message.deviceId === bad)).toEqual([]);
      expect(logged).toHaveLength(4);
    },
  );

  it('rejects every report of a batch when the database fails, whatever the data (redelivered later)', async () => {
    for (const failure of [
      Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('Connection terminated unexpectedly'),
    ]) {
      const failing = {
        transaction: () => Promise.reject(new Error('Failed query', { cause: failure })),
      } as unknown as Db;
      const batcher = new IngestBatcher(failing, { maxWaitMs: 50 });
      const settled = await Promise.allSettled([
        batcher.submit(reading(1, 'a', 'x-1', '2026-04-01T06:00:00Z')),
        batcher.submit(reading(2, 'b', 'x-1', '2026-04-01T06:00:00Z')),
        batcher.submit(reading(3, 'c', 'x-1', '2026-04-01T06:00:00Z')),
      ]);
      expect(settled.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    }
  });
});

describe('recognising a report sent again', () => {
  it('keeps reports of different devices apart whose ident and message id read alike', async () => {
    const [first, second] = await newDevices(2);
    // Under the old key `ident:messageId` both were `X:7:100`: the second was dropped as a repetition.
    const results = await storeBatch(t.database.db, [
      reading(first, 'X', '7:100', '2026-04-02T06:00:00Z', 4100),
      reading(second, 'X:7', '100', '2026-04-02T06:00:00Z', 4200),
    ]);
    expect(results).toEqual([
      { duplicate: false, stored: 1 },
      { duplicate: false, stored: 1 },
    ]);
    expect(await valuesOf(first)).toEqual([4100]);
    expect(await valuesOf(second)).toEqual([4200]);
  });

  it("stores a device's new reports after its message counter started again", async () => {
    const [device] = await newDevices(1);
    const ident = `dev-${device}`;
    await storeBatch(t.database.db, [
      reading(device, ident, '1', '2026-04-03T06:00:00Z', 8000),
      reading(device, ident, '2', '2026-04-03T07:00:00Z', 7900),
    ]);
    // Power cut: the counter starts at 1 again, at later times.
    const results = await storeBatch(t.database.db, [
      reading(device, ident, '1', '2026-04-04T06:00:00Z', 7000),
      reading(device, ident, '2', '2026-04-04T07:00:00Z', 6900),
    ]);
    expect(results).toEqual([
      { duplicate: false, stored: 1 },
      { duplicate: false, stored: 1 },
    ]);
    expect(await valuesOf(device)).toEqual([8000, 7900, 7000, 6900]);
    const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, device));
    expect(sensor.value).toBe(6900);
  });

  it('stores a redelivered report once, however its time is written', async () => {
    const [device] = await newDevices(1);
    const ident = `dev-${device}`;
    const first = await storeBatch(t.database.db, [
      reading(device, ident, '9', '2026-04-05T06:00:00Z', 8000),
    ]);
    const again = await storeBatch(t.database.db, [
      reading(device, ident, '9', '2026-04-05T06:00:00Z', 8000),
      reading(device, ident, '9', '2026-04-05T08:00:00+02:00', 8000),
    ]);
    expect(first).toEqual([{ duplicate: false, stored: 1 }]);
    expect(again).toEqual([
      { duplicate: true, stored: 0 },
      { duplicate: true, stored: 0 },
    ]);
    expect(await valuesOf(device)).toEqual([8000]);
    expect(await t.database.db.select().from(messages).where(eq(messages.deviceId, device))).toHaveLength(1);
  });

  it('recognises reports stored under the old key after the update (migration 0007)', async () => {
    const db = t.database.db;
    const [net, other, sms] = await newDevices(3);
    // As stored before: `ident:messageId`, the report's copy in the content.
    const old = (
      deviceId: number,
      type: 'net' | 'sms',
      ident: string,
      messageId: string,
      content: string,
    ) => ({
      deviceId,
      type,
      direction: 'in' as const,
      mode: 'deviceToSystem' as const,
      status: 'processed' as const,
      content,
      fromIdent: ident,
      dedupKey: `${ident}:${messageId}`,
    });
    await db
      .insert(messages)
      .values([
        old(
          net,
          'net',
          'OLD-NET',
          '41',
          JSON.stringify({ identCode: 'OLD-NET', messageId: '41', measuredAt: '2026-04-06T08:00:00+02:00' }),
        ),
        old(
          other,
          'net',
          'OLD-NET:4',
          '1',
          JSON.stringify({ identCode: 'OLD-NET:4', messageId: '1', measuredAt: '2026-04-06T06:00:00Z' }),
        ),
        old(sms, 'sms', '+4917000000', '77', 'TP1;77;20260406060000;S1=5230.5'),
        old(net, 'net', 'OLD-NET', 'odd', 'no copy of the report'),
      ]);
    const migration = readFileSync(
      new URL('../../drizzle/0007_report_dedup_keys.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    const keys = await db
      .select({ key: messages.dedupKey })
      .from(messages)
      .where(inArray(messages.deviceId, [net, other, sms]))
      .orderBy(asc(messages.id));
    expect(keys.map((row) => row.key)).toEqual([
      `report/${net}/2026-04-06T06:00:00.000Z/41`,
      `report/${other}/2026-04-06T06:00:00.000Z/1`,
      `report/${sms}/2026-04-06T06:00:00.000Z/77`,
      'legacy/OLD-NET:odd',
    ]);
    // Delivered again after the update: recognised; the counter's next round is new.
    const results = await storeBatch(db, [
      reading(net, 'OLD-NET', '41', '2026-04-06T06:00:00Z'),
      {
        ...reading(sms, '+4917000000', '77', '2026-04-06T06:00:00Z'),
        sender: { type: 'sms', identType: 'cell_number', ident: '+4917000000' },
      },
      reading(other, 'OLD-NET:4', '1', '2026-04-07T06:00:00Z'),
    ]);
    expect(results.map((result) => result.duplicate)).toEqual([true, true, false]);
  });
});
