import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { AlarmType, ConfirmationStatus } from '@tankportal/shared/devices';
import type { ReportV1 } from '@tankportal/shared/protocols/report';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { buildContact, buildRecipient } from '../testing/contacts-factories.ts';
import {
  alarms,
  devices,
  measurements,
  messages,
  monthlyConsumption,
  sensors,
  users,
  type RecipientEvent,
} from '../db/schema.ts';
import * as recordReportModule from '../commands/record-report.ts';
import { NotificationOutbox } from '../notifications/outbox.ts';
import { storeBatch } from './store-batch.ts';
import { toDeviceReport } from './ingest-item.ts';

// The same domain rules live twice: in the batch store's bulk path (store-batch.ts, BulkPlan) and
// in the report-by-report path (commands/record-report.ts). This file feeds one sequence of reports
// through each into a device of its own and compares the WHOLE device, sensor, alarm, measurement
// and consumption rows and the notification outbox after every step, so that a rule changed or
// dropped in one path fails here. The general path is spied on to prove the batch device really
// takes the bulk path.
vi.mock('../commands/record-report.ts', async (importOriginal) => {
  const original = await importOriginal<typeof recordReportModule>();
  return { ...original, recordReportIn: vi.fn(original.recordReportIn) };
});

let t: TestApp;
let userId: number;
let contactId: number;
let counter = 0;

const everything: RecipientEvent[] = [
  { name: 'alarm', channels: ['sms', 'mail'], notifyOnceIn: null },
  { name: 'threshold', channels: ['sms', 'mail'], notifyOnceIn: null },
  { name: 'sim_credit_low', channels: ['sms', 'mail'], notifyOnceIn: null },
];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  [{ id: userId }] = await db.select().from(users).where(eq(users.username, 'user'));
  contactId = (await buildContact(db, userId)).id;
});
afterAll(() => t.close());

/**
 * A tank of 10,000 l (threshold 20 %, temperature alarm below 3 °C), a counter, and a probe that is
 * not connected (it decides nothing), under one name so that the notification texts compare.
 */
async function twin(name: string) {
  const db = t.database.db;
  const device = await buildDevice(db, userId, { name, thresholdSensor: 'first', simCreditCurrency: 'EUR' });
  await db
    .update(sensors)
    .set({ temperatureLimitType: 'below', temperatureLimitValue: 3 })
    .where(eq(sensors.deviceId, device.id));
  await db.insert(sensors).values([
    {
      deviceId: device.id,
      sequence: 2,
      name: 'Wasserzähler',
      type: 'counter',
      subType: 'counter',
      unit: 'm3',
    },
    {
      deviceId: device.id,
      sequence: 3,
      name: 'Reserve',
      type: 'probe',
      subType: 'tank',
      capacity: 5_000,
      threshold: 50,
      isConnected: false,
    },
  ]);
  await buildRecipient(db, device.id, contactId, everything);
  return device.id;
}

interface Reading {
  at: string;
  /** Litres of sensor 1; null: the probe reports an error. */
  litres: number | null;
  temperature?: number;
  counter?: number;
  alarms?: AlarmType[];
  simCredit?: number;
  battery?: number;
  location?: { lat: number; lng: number };
  /** A reading of a sensor the device does not have (ignored by both paths). */
  unknownSensor?: boolean;
  messageId?: string;
}

function report(reading: Reading): ReportV1 {
  return {
    messageId: reading.messageId ?? `m-${++counter}`,
    measuredAt: reading.at,
    sensors: [
      reading.litres === null
        ? { sequence: 1, error: true }
        : { sequence: 1, value: reading.litres, temperature: reading.temperature },
      ...(reading.counter !== undefined ? [{ sequence: 2, value: reading.counter }] : []),
      // The disconnected probe reports a fault: it must not put the device in alarm.
      { sequence: 3, error: true },
      ...(reading.unknownSensor ? [{ sequence: 9, value: 42 }] : []),
    ],
    alarms: reading.alarms,
    simCredit: reading.simCredit,
    battery: reading.battery,
    location: reading.location,
  };
}

/** Through the batch store, as one batch (net, MQTT and SMS reports take this way). */
async function viaBatch(deviceId: number, reports: ReportV1[]) {
  return storeBatch(
    t.database.db,
    reports.map((r) => ({
      deviceId,
      sender: { type: 'net' as const, identType: 'net_ident_code' as const, ident: `dev-${deviceId}` },
      report: r,
      content: JSON.stringify(r),
    })),
  );
}

/**
 * Report by report through commands/record-report.ts, in one transaction with one outbox as a
 * batch is (several reports of a transaction give one notification per event, outbox.ts).
 */
async function viaGeneralPath(deviceId: number, reports: ReportV1[]) {
  return t.database.db.transaction(async (tx) => {
    const outbox = new NotificationOutbox();
    const stored: number[] = [];
    for (const r of reports)
      stored.push((await recordReportModule.recordReportIn(tx, deviceId, toDeviceReport(r), outbox)).stored);
    await outbox.flush(tx);
    return stored;
  });
}

/** Everything the ingest rules write for a device, without what differs between two devices. */
async function stateOf(deviceId: number) {
  const db = t.database.db;
  const strip = <T extends object, K extends string>(row: T, ...keys: K[]) =>
    Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;
  const [device] = await db.select().from(devices).where(eq(devices.id, deviceId));
  const sensorRows = await db
    .select()
    .from(sensors)
    .where(eq(sensors.deviceId, deviceId))
    .orderBy(asc(sensors.sequence));
  const sequenceOf = new Map(sensorRows.map((sensor) => [sensor.id, sensor.sequence]));
  const ids = sensorRows.map((sensor) => sensor.id);
  const alarmRows = await db.select().from(alarms).where(eq(alarms.deviceId, deviceId));
  const measurementRows = await db.select().from(measurements).where(inArray(measurements.sensorId, ids));
  const consumptionRows = await db
    .select()
    .from(monthlyConsumption)
    .where(inArray(monthlyConsumption.sensorId, ids));
  const outbox = await db
    .select()
    .from(messages)
    .where(and(eq(messages.deviceId, deviceId), eq(messages.direction, 'out')))
    .orderBy(asc(messages.id));
  const bySensor = <R extends { sensorId: number | null }>(rows: R[]) =>
    rows
      .map(({ sensorId, ...rest }) => ({
        sensor: sensorId === null ? null : sequenceOf.get(sensorId),
        ...strip(rest, 'id', 'deviceId'),
      }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    // The search text holds the ident code, which differs between the two devices by design.
    device: strip(device, 'id', 'identCode', 'searchText', 'createdAt', 'updatedAt'),
    sensors: sensorRows.map((sensor) => strip(sensor, 'id', 'deviceId')),
    alarms: bySensor(alarmRows),
    measurements: bySensor(measurementRows),
    consumption: bySensor(consumptionRows),
    // The texts name the device by id and name: the id is the one thing that differs. The order of
    // one transaction's notifications is not a rule (the paths detect the events in another order),
    // and states are compared after every step: sorted.
    outbox: outbox
      .map((message) => ({
        ...strip(message, 'id', 'deviceId', 'createdAt', 'updatedAt', 'sentAt'),
        content: message.content.replaceAll(`${deviceId} "${device.name}"`, `<id> "${device.name}"`),
      }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}

/** What a user does between reports, done to both devices alike. */
const confirmThreshold = (ids: number[], status: ConfirmationStatus | null) =>
  t.database.db.update(devices).set({ thresholdConfirmationStatus: status }).where(inArray(devices.id, ids));
const confirmAlarm = (ids: number[], type: AlarmType, status: ConfirmationStatus) =>
  t.database.db
    .update(alarms)
    .set({ confirmationStatus: status })
    .where(and(inArray(alarms.deviceId, ids), eq(alarms.type, type), isNull(alarms.closedAt)));

type Step =
  { reports: Reading[]; bulk: boolean } | { act: (ids: number[]) => Promise<unknown>; what: string };

const T = (day: number, hour = 6) => new Date(Date.UTC(2026, 0, day, hour)).toISOString();

/**
 * One scenario that touches every rule the two paths share. `bulk` says whether the batch store
 * takes its bulk path for the step (false: it hands the device to the general path itself).
 */
const STEPS: Step[] = [
  // First reports: values, temperature, counter, SIM credit, battery, location; an unknown sensor.
  {
    bulk: true,
    reports: [
      {
        at: T(1),
        litres: 8000,
        temperature: 5,
        counter: 100,
        simCredit: 10,
        battery: 90,
        location: { lat: 52.5, lng: 13.4 },
      },
      { at: T(2), litres: 6500, temperature: 2, counter: 150, alarms: ['e003'], unknownSensor: true },
    ],
  },
  // Below the threshold (a crossing notifies), a fatal alarm input, the SIM credit falls low.
  {
    bulk: true,
    reports: [
      {
        at: T(3),
        litres: 1500,
        temperature: 1,
        counter: 175,
        alarms: ['e003', 'power_failure'],
        simCredit: 2,
      },
    ],
  },
  { what: 'the threshold disregarded', act: (ids) => confirmThreshold(ids, 'disregard') },
  { what: 'e003 disregarded', act: (ids) => confirmAlarm(ids, 'e003', 'disregard') },
  // Still below: disregarded, no threshold notice; e003 silent, power_failure notifies again.
  {
    bulk: true,
    reports: [{ at: T(4), litres: 1400, temperature: 1, alarms: ['e003', 'power_failure'], simCredit: 1 }],
  },
  // Refilled (ok: the confirmation is cleared), then below again within the same batch: a new crossing.
  {
    bulk: true,
    reports: [
      { at: T(5), litres: 9000, temperature: 4, counter: 300, simCredit: 20, battery: 80 },
      { at: T(6), litres: 1000, temperature: 4, counter: 310 },
    ],
  },
  { what: 'the threshold seen', act: (ids) => confirmThreshold(ids, 'seen') },
  // Still below and seen: notifies on; the temperature alarm opens again. The SIM credit falls low
  // and lower within the batch: one notice, of the first report (the second's credit was low before).
  {
    bulk: true,
    reports: [
      { at: T(7), litres: 900, temperature: 0, counter: 320, simCredit: 4 },
      { at: T(7, 12), litres: 880, temperature: 0, simCredit: 3 },
    ],
  },
  { what: 'the threshold revoked', act: (ids) => confirmThreshold(ids, 'revoked') },
  { bulk: true, reports: [{ at: T(8), litres: 800, temperature: 0 }] },
  // Mode changed to "above": 50 % is a new crossing straight from below, its confirmation cleared.
  {
    what: 'threshold mode first_upper',
    act: (ids) =>
      t.database.db.update(devices).set({ thresholdSensor: 'first_upper' }).where(inArray(devices.id, ids)),
  },
  {
    bulk: true,
    reports: [
      { at: T(9), litres: 5000, temperature: 5, alarms: ['e001'], location: { lat: 48.1, lng: 11.6 } },
    ],
  },
  { what: 'the threshold disregarded', act: (ids) => confirmThreshold(ids, 'disregard') },
  // A backlog arriving late (older than every sensor's last value): measurements and consumption only.
  {
    bulk: true,
    reports: [
      { at: T(4, 12), litres: 1200, temperature: 1, counter: 200 },
      { at: T(8, 12), litres: 700, temperature: 0 },
    ],
  },
  // The probe reports an error: it decides no threshold (ok: the confirmation clears); device in alarm.
  { bulk: true, reports: [{ at: T(10), litres: null, counter: 340, alarms: ['e001'] }] },
  // A repetition of a stored measurement next to a new report: the batch store hands the device to
  // the general path (a late report of a sensor that has a newer value for the other).
  {
    bulk: false,
    reports: [
      { at: T(10), litres: 4000, counter: 340, alarms: ['e001'], messageId: 'again' },
      { at: T(11), litres: 6000, temperature: 6, counter: 360, simCredit: 3 },
    ],
  },
  // Back to normal: every alarm closes.
  { bulk: true, reports: [{ at: T(12), litres: 5500, temperature: 6, counter: 365, simCredit: 30 }] },
];

describe('the bulk path and the report-by-report path apply the same rules', () => {
  it('leave whole device, sensor, alarm, measurement and consumption rows and the outbox alike, step by step', async () => {
    const batchDevice = await twin('Hof Lindenweg');
    const generalDevice = await twin('Hof Lindenweg');
    const ids = [batchDevice, generalDevice];
    const spy = vi.mocked(recordReportModule.recordReportIn);
    let notified = 0;
    for (const [index, step] of STEPS.entries()) {
      if ('act' in step) {
        await step.act(ids);
        continue;
      }
      const reports = step.reports.map(report);
      spy.mockClear();
      const results = await viaBatch(batchDevice, reports);
      // The bulk path did the work (or, where expected, the batch store handed over).
      expect(spy.mock.calls.length > 0, `step ${index}: general path used`).toBe(!step.bulk);
      const stored = await viaGeneralPath(generalDevice, reports);
      expect(
        results.map((result) => result.stored),
        `step ${index}: stored`,
      ).toEqual(stored);
      const [batch, general] = [await stateOf(batchDevice), await stateOf(generalDevice)];
      expect(batch, `step ${index}`).toEqual(general);
      notified = batch.outbox.length;
    }
    // The scenario is not vacuous: it notified, opened and closed alarms, crossed thresholds.
    const final = await stateOf(batchDevice);
    expect(notified).toBeGreaterThan(10);
    expect(new Set(final.outbox.map((message) => message.type))).toEqual(new Set(['sms', 'mail']));
    expect(final.alarms.map((alarm) => alarm.type).sort()).toEqual([
      'e001',
      'e003',
      'power_failure',
      'temperature',
      'temperature',
    ]);
    expect(final.alarms.every((alarm) => alarm.closedAt !== null)).toBe(true);
    expect(final.device).toMatchObject({ status: 'ok', thresholdStatus: 'above', simCreditQty: 30 });
  });
});

describe('a new threshold crossing asks for confirmation again, on either path', () => {
  const paths = [
    ['bulk', viaBatch],
    ['report-by-report', viaGeneralPath],
  ] as const;

  it.each(paths)('%s path', async (_, via) => {
    const id = await twin('Hof Birkenallee');
    const db = t.database.db;
    const confirmation = async () =>
      (await db.select().from(devices).where(eq(devices.id, id)))[0].thresholdConfirmationStatus;
    const thresholdNotices = async () =>
      (await stateOf(id)).outbox.filter(
        (message) => message.type === 'sms' && message.content.includes('Meldebestand unterschritten'),
      ).length;

    await via(id, [report({ at: T(1), litres: 8000 })]);
    await via(id, [report({ at: T(2), litres: 1500 })]);
    expect(await thresholdNotices()).toBe(1);
    await confirmThreshold([id], 'disregard');
    // Still below: the confirmation stays and silences the notice.
    await via(id, [report({ at: T(3), litres: 1400 })]);
    expect(await confirmation()).toBe('disregard');
    expect(await thresholdNotices()).toBe(1);
    // Back to ok: the crossing is over, and so is its confirmation.
    await via(id, [report({ at: T(4), litres: 9000 })]);
    expect(await confirmation()).toBeNull();
    // A new crossing notifies, and so does every report while it is not confirmed.
    await via(id, [report({ at: T(5), litres: 1500 })]);
    await via(id, [report({ at: T(6), litres: 1400 })]);
    expect(await thresholdNotices()).toBe(3);
    expect(await confirmation()).toBeNull();
  });
});
