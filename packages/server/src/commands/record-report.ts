import { and, asc, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { AlarmType } from '@tankportal/shared/devices';
import type { Db, Tx } from '../db/client.ts';
import { announceDeviceReports } from '../db/device-report-channel.ts';
import {
  alarms,
  devices,
  measurements,
  monthlyConsumption as consumptionTable,
  sensors,
} from '../db/schema.ts';
import { monthlyConsumption } from '../sensor-logic/consumption.ts';
import {
  levelOf,
  severityOf,
  temperatureOutOfLimit,
  type SensorReading,
} from '../sensor-logic/reading-rules.ts';
import { thresholdState } from '../sensor-logic/threshold.ts';
import type { DeviceRow, SensorRow } from '../repositories/devices.ts';
import { alarmNotice, simCreditEvent, thresholdEvent, type AlarmNotice } from '../notifications/events.ts';
import { NotificationOutbox } from '../notifications/outbox.ts';
import type { GatheredEvents } from '../notifications/gathered-events.ts';

/** A normalised device report: what every protocol's parser produces. */
export interface DeviceReport {
  measuredAt: Date;
  readings: SensorReading[];
  /** Alarm types the device signals as active in this report (e.g. e001, power_failure). */
  alarmCodes?: AlarmType[];
  simCreditQty?: number;
  batteryCharge?: number;
  location?: { lat: number; lng: number };
}

export interface RecordResult {
  /** Measurements newly stored; 0 when the report was a repetition. */
  stored: number;
}

/**
 * Stores a report of one device and derives what it implies: sensor values (only when the report
 * is the newest), monthly consumption, alarms, threshold state and device status, and the
 * notifications these cause (notifications/events.ts), written in the same transaction. Idempotent:
 * a repeated report finds its measurements stored ((sensor, time) key) and changes nothing.
 */
export function recordReport(db: Db, deviceId: number, report: DeviceReport): Promise<RecordResult> {
  return db.transaction((tx) => recordReportIn(tx, deviceId, report));
}

/**
 * The same inside a transaction of the caller (the batch store, which stores its messages in the
 * same one). With `events` of the caller the notifications are only gathered there (the caller's
 * outbox writes them once for its whole transaction) and the caller announces the device's new
 * report to open pages (`announceDeviceReports`, once for its whole transaction); without, both are
 * done before returning. Either way this calls nothing above it: the walk runs down only.
 */
export async function recordReportIn(
  tx: Tx,
  deviceId: number,
  report: DeviceReport,
  events?: GatheredEvents,
): Promise<RecordResult> {
  if (events) return recordInto(tx, deviceId, report, events);
  const outbox = new NotificationOutbox();
  const result = await recordInto(tx, deviceId, report, outbox);
  await outbox.flush(tx);
  if (result.stored > 0) await announceDeviceReports(tx, [deviceId]);
  return result;
}

async function recordInto(
  tx: Tx,
  deviceId: number,
  report: DeviceReport,
  events: GatheredEvents,
): Promise<RecordResult> {
  {
    const [device] = await tx.select().from(devices).where(eq(devices.id, deviceId)).for('update');
    if (!device) throw new Error(`device ${deviceId} does not exist`);
    const deviceSensors = await tx
      .select()
      .from(sensors)
      .where(eq(sensors.deviceId, deviceId))
      .orderBy(asc(sensors.sequence));
    const bySequence = new Map(deviceSensors.map((sensor) => [sensor.sequence, sensor]));

    const rows = report.readings
      .filter((reading) => bySequence.has(reading.sequence))
      .map((reading) => {
        const sensor = bySequence.get(reading.sequence)!;
        const level = levelOf(sensor, reading);
        return { sensor, reading, level };
      });
    if (rows.length === 0) return { stored: 0 };

    const inserted = await tx
      .insert(measurements)
      .values(
        rows.map(({ sensor, reading, level }) => ({
          sensorId: sensor.id,
          measuredAt: report.measuredAt,
          value: level?.value ?? null,
          percent: sensor.type === 'probe' ? (level?.pct ?? null) : null,
          temperature: reading.temperature ?? null,
        })),
      )
      .onConflictDoNothing()
      .returning({ sensorId: measurements.sensorId });
    if (inserted.length === 0) return { stored: 0 };
    const fresh = new Set(inserted.map((row) => row.sensorId));
    const isNewest = !device.lastReportedAt || report.measuredAt >= device.lastReportedAt;

    for (const { sensor, reading, level } of rows) {
      if (!fresh.has(sensor.id)) continue;
      if (level && !reading.error) await updateConsumption(tx, sensor, report.measuredAt, level.value);
      if (!sensor.lastMeasuredAt || report.measuredAt >= sensor.lastMeasuredAt) {
        const temperatureAlarm = temperatureOutOfLimit(sensor, reading.temperature);
        const values = {
          value: level?.value ?? null,
          pct: sensor.type === 'probe' ? (level?.pct ?? null) : null,
          netPct: sensor.type === 'probe' ? (level?.netPct ?? null) : null,
          netFreeSpace: sensor.type === 'probe' ? (level?.netFreeSpace ?? null) : null,
          temperatureValue: reading.temperature ?? null,
          status:
            reading.error || !level
              ? ('error' as const)
              : temperatureAlarm
                ? ('alarm' as const)
                : ('ok' as const),
          lastMeasuredAt: report.measuredAt,
        };
        await tx.update(sensors).set(values).where(eq(sensors.id, sensor.id));
        Object.assign(sensor, values);
        const notice = await setAlarm(
          tx,
          device.id,
          sensor,
          'temperature',
          temperatureAlarm,
          report.measuredAt,
          `${reading.temperature ?? ''}`,
        );
        events.addAlarm(device, notice, report.measuredAt);
      }
    }

    if (isNewest) await applyDeviceState(tx, device, deviceSensors, report, events);
    return { stored: inserted.length };
  }
}

/**
 * Opens an alarm of `type` when `active` and none is open; closes the open one otherwise. Answers
 * the notification an active alarm gives (new, or still open and not silenced), else null.
 */
export async function setAlarm(
  tx: Tx,
  deviceId: number,
  sensor: SensorRow | null,
  type: AlarmType,
  active: boolean,
  at: Date,
  value: string | null,
): Promise<AlarmNotice | null> {
  const sensorId = sensor?.id ?? null;
  const sensorCondition = sensorId === null ? isNull(alarms.sensorId) : eq(alarms.sensorId, sensorId);
  const open = and(
    eq(alarms.deviceId, deviceId),
    sensorCondition,
    eq(alarms.type, type),
    isNull(alarms.closedAt),
  );
  const [existing] = await tx
    .select({ id: alarms.id, confirmationStatus: alarms.confirmationStatus })
    .from(alarms)
    .where(open)
    .limit(1);
  if (active && !existing) {
    await tx.insert(alarms).values({
      deviceId,
      sensorId,
      // The sensor's number, which the pages and notifications name the alarm by.
      sequence: sensor?.sequence ?? null,
      type,
      value,
      scope: sensorId === null ? 'alarm_in' : 'sensor',
      severity: severityOf(type),
      openedAt: at,
    });
  } else if (!active && existing) {
    await tx.update(alarms).set({ closedAt: at }).where(eq(alarms.id, existing.id));
  }
  return active ? alarmNotice(type, sensor, value, existing ?? null) : null;
}

/** Device-level consequences of its newest report: alarms, threshold, status, SIM, location. */
async function applyDeviceState(
  tx: Tx,
  device: DeviceRow,
  deviceSensors: SensorRow[],
  report: DeviceReport,
  events: GatheredEvents,
) {
  const reported = new Set(report.alarmCodes ?? []);
  const openDeviceAlarms = await tx
    .select({ type: alarms.type })
    .from(alarms)
    .where(and(eq(alarms.deviceId, device.id), isNull(alarms.sensorId), isNull(alarms.closedAt)));
  const known = new Set([...reported, ...openDeviceAlarms.map((alarm) => alarm.type)]);
  for (const type of known) {
    const notice = await setAlarm(tx, device.id, null, type, reported.has(type), report.measuredAt, null);
    events.addAlarm(device, notice, report.measuredAt);
  }

  const [{ open }] = await tx
    .select({ open: sql<number>`count(*)`.mapWith(Number) })
    .from(alarms)
    .where(and(eq(alarms.deviceId, device.id), isNull(alarms.closedAt)));
  const anySensorFault = deviceSensors.some((sensor) => sensor.isConnected && sensor.status !== 'ok');
  const threshold = thresholdState(device.thresholdSensor, deviceSensors);
  events.add(device, thresholdEvent(device, threshold, deviceSensors, report.measuredAt));
  events.add(
    device,
    simCreditEvent(device.simCreditQty, report.simCreditQty, device.simCreditCurrency, report.measuredAt),
  );
  await tx
    .update(devices)
    .set({
      lastReportedAt: report.measuredAt,
      status: open > 0 || anySensorFault ? 'alarm' : 'ok',
      thresholdStatus: threshold,
      // A new threshold crossing asks for confirmation again.
      thresholdConfirmationStatus:
        threshold !== device.thresholdStatus ? null : device.thresholdConfirmationStatus,
      ...(report.simCreditQty !== undefined ? { simCreditQty: report.simCreditQty } : {}),
      ...(report.batteryCharge !== undefined ? { batteryCharge: report.batteryCharge } : {}),
      ...(report.location
        ? {
            locationLat: report.location.lat,
            locationLng: report.location.lng,
            locationUpdatedAt: report.measuredAt,
          }
        : {}),
    })
    .where(eq(devices.id, device.id));
}

/**
 * Books a new reading into the monthly consumption. The usual case, a reading newer than every
 * other, adds its one step to its month. A reading that arrives late changes the step after it too:
 * then its month and the month of the following reading are recomputed from the readings themselves,
 * so the result is the same in whatever order readings arrive.
 */
async function updateConsumption(tx: Tx, sensor: SensorRow, at: Date, value: number) {
  const series = and(
    eq(measurements.sensorId, sensor.id),
    eq(measurements.hidden, false),
    sql`${measurements.value} IS NOT NULL`,
  );
  const [next] = await tx
    .select({ at: measurements.measuredAt })
    .from(measurements)
    .where(and(series, sql`${measurements.measuredAt} > ${at}`))
    .orderBy(asc(measurements.measuredAt))
    .limit(1);
  if (next) return recomputeConsumption(tx, sensor, at, next.at);
  const [previous] = await tx
    .select({ value: measurements.value })
    .from(measurements)
    .where(and(series, lt(measurements.measuredAt, at)))
    .orderBy(desc(measurements.measuredAt))
    .limit(1);
  if (!previous) return;
  const [step] = monthlyConsumption(
    [
      { at: new Date(at.getTime() - 1), value: previous.value! },
      { at, value },
    ],
    sensor.type,
  );
  await tx
    .insert(consumptionTable)
    .values({ sensorId: sensor.id, ...step })
    .onConflictDoUpdate({
      target: [consumptionTable.sensorId, consumptionTable.year, consumptionTable.month],
      set: { consumption: sql`${consumptionTable.consumption} + excluded.consumption` },
    });
}

/** Recomputes the month of `at` through the month of `nextAt` from the readings (plus the one before). */
export async function recomputeConsumption(tx: Tx, sensor: SensorRow, at: Date, nextAt: Date) {
  const series = and(
    eq(measurements.sensorId, sensor.id),
    eq(measurements.hidden, false),
    sql`${measurements.value} IS NOT NULL`,
  );
  const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(nextAt.getUTCFullYear(), nextAt.getUTCMonth() + 1, 1));
  const [before] = await tx
    .select({ at: measurements.measuredAt })
    .from(measurements)
    .where(and(series, lt(measurements.measuredAt, monthStart)))
    .orderBy(desc(measurements.measuredAt))
    .limit(1);
  const readings = await tx
    .select({ at: measurements.measuredAt, value: measurements.value })
    .from(measurements)
    .where(
      and(series, gte(measurements.measuredAt, before?.at ?? monthStart), lt(measurements.measuredAt, end)),
    );
  const months = monthlyConsumption(
    readings.map((reading) => ({ at: reading.at, value: reading.value! })),
    sensor.type,
  ).filter((row) => Date.UTC(row.year, row.month - 1, 1) >= monthStart.getTime());
  if (months.length === 0) return;
  await tx
    .insert(consumptionTable)
    .values(months.map((row) => ({ sensorId: sensor.id, ...row })))
    .onConflictDoUpdate({
      target: [consumptionTable.sensorId, consumptionTable.year, consumptionTable.month],
      set: { consumption: sql`excluded.consumption` },
    });
}
