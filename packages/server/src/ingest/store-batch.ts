import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AlarmType } from '@tankportal/shared/devices';
import type { ReportV1 } from '@tankportal/shared/protocols/report';
import type { Db } from '../db/client.ts';
import {
  alarms,
  devices,
  measurements,
  messages,
  monthlyConsumption as consumptionTable,
  sensors,
} from '../db/schema.ts';
import { levelOf, recordReportIn, severityOf, type Tx } from '../commands/record-report.ts';
import { monthlyConsumption } from '../sensor-logic/consumption.ts';
import { thresholdState } from '../sensor-logic/threshold.ts';
import type { AlarmRow, DeviceRow, SensorRow } from '../repositories/devices.ts';
import type { Sender } from './store-report.ts';
import { toDeviceReport } from './store-report.ts';

export interface IngestItem {
  deviceId: number;
  sender: Sender;
  report: ReportV1;
  content: string;
}

export interface IngestResult {
  duplicate: boolean;
  stored: number;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * Stores a batch of parsed reports in one transaction with set-based statements: one insert of
 * the message log, one of the measurements, one upsert of the consumption steps, one update of the
 * sensors and one of the devices, whatever the batch's size. That is the common case: reports newer
 * than everything their device has reported, no temperature limits or sensor alarms; device alarm
 * codes open and close as on the general path.
 * Every other device of the batch takes the general path (`recordReportIn`), report by report,
 * inside the same transaction, with the same results.
 */
export async function storeBatch(db: Db, items: IngestItem[]): Promise<IngestResult[]> {
  return db.transaction(async (tx) => {
    const results: IngestResult[] = items.map(() => ({ duplicate: true, stored: 0 }));
    const keyOf = (item: IngestItem) => `${item.sender.ident}:${item.report.messageId}`;
    const inserted = await tx
      .insert(messages)
      .values(
        items.map((item) => ({
          deviceId: item.deviceId,
          type: item.sender.type,
          direction: 'in' as const,
          mode: 'deviceToSystem' as const,
          status: 'processed' as const,
          content: item.content,
          fromIdent: item.sender.ident,
          fromType: item.sender.identType,
          dedupKey: keyOf(item),
          receivedAt: new Date(),
        })),
      )
      .onConflictDoNothing()
      .returning({ dedupKey: messages.dedupKey });
    // A message id seen before, or twice in this batch, is a repetition: only its first copy counts.
    const unclaimed = new Set(inserted.map((row) => row.dedupKey));
    const byDevice = new Map<number, number[]>();
    items.forEach((item, index) => {
      if (!unclaimed.delete(keyOf(item))) return;
      byDevice.set(item.deviceId, [...(byDevice.get(item.deviceId) ?? []), index]);
    });
    if (byDevice.size === 0) return results;

    const deviceIds = [...byDevice.keys()].sort((a, b) => a - b);
    // Locked in id order: concurrent batches of several processes cannot deadlock.
    const deviceRows = await tx
      .select()
      .from(devices)
      .where(inArray(devices.id, deviceIds))
      .orderBy(devices.id)
      .for('update');
    const sensorRows = await tx.select().from(sensors).where(inArray(sensors.deviceId, deviceIds));
    const openAlarms = await tx
      .select()
      .from(alarms)
      .where(and(inArray(alarms.deviceId, deviceIds), isNull(alarms.closedAt)));
    // Sensor alarms (temperature) need the general path; device alarm codes the bulk path handles.
    const withSensorAlarms = new Set(
      openAlarms.filter((alarm) => alarm.sensorId !== null).map((alarm) => alarm.deviceId),
    );

    const plan = new BulkPlan();
    for (const device of deviceRows) {
      const indexes = byDevice
        .get(device.id)!
        .sort((a, b) => Date.parse(items[a].report.measuredAt) - Date.parse(items[b].report.measuredAt));
      const deviceSensors = sensorRows
        .filter((sensor) => sensor.deviceId === device.id)
        .sort((a, b) => a.sequence - b.sequence);
      const reports = indexes.map((index) => items[index].report);
      if (!withSensorAlarms.has(device.id) && fitsBulkPath(device, deviceSensors, reports)) {
        plan.startDevice(device, openAlarms);
        indexes.forEach(
          (index, n) =>
            (results[index] = { duplicate: false, stored: plan.add(device, deviceSensors, reports[n]) }),
        );
        plan.finishDevice(device, deviceSensors);
      } else {
        for (const index of indexes) {
          const { stored } = await recordReportIn(tx, device.id, toDeviceReport(items[index].report));
          results[index] = { duplicate: false, stored };
        }
      }
    }
    await plan.write(tx);
    return results;
  });
}

function fitsBulkPath(device: DeviceRow, deviceSensors: SensorRow[], reports: ReportV1[]): boolean {
  let after = device.lastReportedAt?.getTime() ?? -Infinity;
  for (const report of reports) {
    const at = Date.parse(report.measuredAt);
    if (at <= after) return false;
    after = at;
    for (const reading of report.sensors) {
      const sensor = deviceSensors.find((s) => s.sequence === reading.sequence);
      if (!sensor) continue;
      if (sensor.lastMeasuredAt && sensor.lastMeasuredAt.getTime() >= at) return false;
      if (sensor.temperatureLimitType && sensor.temperatureLimitValue !== null) return false;
    }
  }
  return true;
}

/** What the bulk path writes, gathered over the batch's devices. */
class BulkPlan {
  readonly measurementRows: (typeof measurements.$inferInsert)[] = [];
  readonly consumption = new Map<
    string,
    { sensorId: number; year: number; month: number; consumption: number }
  >();
  readonly sensorUpdates = new Map<number, SensorRow>();
  readonly deviceUpdates: DeviceRow[] = [];
  readonly newAlarms: (typeof alarms.$inferInsert)[] = [];
  readonly closedAlarms: { id: number; closedAt: Date }[] = [];
  /** Device alarms open while the device's reports are replayed: type -> existing id or new row. */
  private open = new Map<string, { id?: number; row?: typeof alarms.$inferInsert }>();
  /** The last known value per sensor: where the next consumption step starts. */
  private readonly previous = new Map<number, number | null>();
  private readonly latest = new Map<
    number,
    { simCreditQty?: number; batteryCharge?: number; location?: { lat: number; lng: number }; at: Date }
  >();

  startDevice(device: DeviceRow, openAlarms: AlarmRow[]) {
    this.open = new Map(
      openAlarms
        .filter((alarm) => alarm.deviceId === device.id && alarm.sensorId === null)
        .map((alarm) => [alarm.type, { id: alarm.id }]),
    );
  }

  add(device: DeviceRow, deviceSensors: SensorRow[], report: ReportV1): number {
    const at = new Date(report.measuredAt);
    let stored = 0;
    // As the general path: a reported alarm opens unless open; an open one missing from the report closes.
    const reported = new Set<string>(report.alarms ?? []);
    for (const [type, alarm] of this.open) {
      if (reported.has(type)) continue;
      if (alarm.id !== undefined) this.closedAlarms.push({ id: alarm.id, closedAt: at });
      else alarm.row!.closedAt = at;
      this.open.delete(type);
    }
    for (const type of reported) {
      if (this.open.has(type)) continue;
      const row = {
        deviceId: device.id,
        sensorId: null,
        type: type as AlarmType,
        value: null,
        scope: 'alarm_in' as const,
        severity: severityOf(type as AlarmType),
        openedAt: at,
      };
      this.newAlarms.push(row);
      this.open.set(type, { row });
    }
    for (const reading of report.sensors) {
      const sensor = deviceSensors.find((s) => s.sequence === reading.sequence);
      if (!sensor) continue;
      const level = levelOf(sensor, reading);
      const probe = sensor.type === 'probe';
      this.measurementRows.push({
        sensorId: sensor.id,
        measuredAt: at,
        value: level?.value ?? null,
        percent: probe ? (level?.pct ?? null) : null,
        temperature: reading.temperature ?? null,
      });
      stored++;
      if (!this.previous.has(sensor.id)) this.previous.set(sensor.id, sensor.value);
      const previous = this.previous.get(sensor.id);
      if (level && previous !== null && previous !== undefined) {
        const [step] = monthlyConsumption(
          [
            { at: new Date(at.getTime() - 1), value: previous },
            { at, value: level.value },
          ],
          sensor.type,
        );
        const key = `${sensor.id}:${step.year}:${step.month}`;
        const row = this.consumption.get(key) ?? {
          sensorId: sensor.id,
          year: step.year,
          month: step.month,
          consumption: 0,
        };
        row.consumption += step.consumption;
        this.consumption.set(key, row);
      }
      if (level) this.previous.set(sensor.id, level.value);
      Object.assign(sensor, {
        value: level?.value ?? null,
        pct: probe ? (level?.pct ?? null) : null,
        netPct: probe ? (level?.netPct ?? null) : null,
        netFreeSpace: probe ? (level?.netFreeSpace ?? null) : null,
        temperatureValue: reading.temperature ?? null,
        status: reading.error || !level ? 'error' : 'ok',
        lastMeasuredAt: at,
      });
      this.sensorUpdates.set(sensor.id, sensor);
    }
    const latest = this.latest.get(device.id) ?? { at };
    latest.at = at;
    if (report.simCredit !== undefined) latest.simCreditQty = report.simCredit;
    if (report.battery !== undefined) latest.batteryCharge = report.battery;
    if (report.location) latest.location = report.location;
    this.latest.set(device.id, latest);
    return stored;
  }

  finishDevice(device: DeviceRow, deviceSensors: SensorRow[]) {
    const latest = this.latest.get(device.id)!;
    const threshold = thresholdState(device.thresholdSensor, deviceSensors);
    Object.assign(device, {
      lastReportedAt: latest.at,
      status:
        this.open.size > 0 || deviceSensors.some((sensor) => sensor.isConnected && sensor.status !== 'ok')
          ? 'alarm'
          : 'ok',
      thresholdConfirmationStatus:
        threshold !== device.thresholdStatus ? null : device.thresholdConfirmationStatus,
      thresholdStatus: threshold,
      ...(latest.simCreditQty !== undefined ? { simCreditQty: latest.simCreditQty } : {}),
      ...(latest.batteryCharge !== undefined ? { batteryCharge: latest.batteryCharge } : {}),
      ...(latest.location
        ? { locationLat: latest.location.lat, locationLng: latest.location.lng, locationUpdatedAt: latest.at }
        : {}),
    });
    this.deviceUpdates.push(device);
  }

  async write(tx: Tx) {
    if (this.newAlarms.length > 0) await tx.insert(alarms).values(this.newAlarms);
    for (const closed of this.closedAlarms)
      await tx.update(alarms).set({ closedAt: closed.closedAt }).where(eq(alarms.id, closed.id));
    for (let i = 0; i < this.measurementRows.length; i += 1000) {
      await tx
        .insert(measurements)
        .values(this.measurementRows.slice(i, i + 1000))
        .onConflictDoNothing();
    }
    if (this.consumption.size > 0) {
      await tx
        .insert(consumptionTable)
        .values([...this.consumption.values()])
        .onConflictDoUpdate({
          target: [consumptionTable.sensorId, consumptionTable.year, consumptionTable.month],
          set: { consumption: sql`${consumptionTable.consumption} + excluded.consumption` },
        });
    }
    if (this.sensorUpdates.size > 0) {
      const values = [...this.sensorUpdates.values()].map(
        (s) =>
          sql`(${s.id}::int, ${s.value}::float8, ${s.pct}::float8, ${s.netPct}::float8, ${s.netFreeSpace}::float8, ${s.temperatureValue}::float8, ${s.status}::text, ${iso(s.lastMeasuredAt)}::timestamptz)`,
      );
      await tx.execute(sql`UPDATE ${sensors} AS s SET value = v.value, pct = v.pct, net_pct = v.net_pct, net_free_space = v.net_free_space,
          temperature_value = v.temperature_value, status = v.status, last_measured_at = v.last_measured_at
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, value, pct, net_pct, net_free_space, temperature_value, status, last_measured_at)
        WHERE s.id = v.id`);
    }
    if (this.deviceUpdates.length > 0) {
      const values = this.deviceUpdates.map(
        (d) =>
          sql`(${d.id}::int, ${iso(d.lastReportedAt)}::timestamptz, ${d.status}::text, ${d.thresholdStatus}::text, ${d.thresholdConfirmationStatus}::text,
            ${d.simCreditQty}::float8, ${d.batteryCharge}::int, ${d.locationLat}::float8, ${d.locationLng}::float8, ${iso(d.locationUpdatedAt)}::timestamptz)`,
      );
      await tx.execute(sql`UPDATE ${devices} AS d SET last_reported_at = v.last_reported_at, status = v.status, threshold_status = v.threshold_status,
          threshold_confirmation_status = v.threshold_confirmation_status, sim_credit_qty = v.sim_credit_qty, battery_charge = v.battery_charge,
          location_lat = v.location_lat, location_lng = v.location_lng, location_updated_at = v.location_updated_at
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, last_reported_at, status, threshold_status, threshold_confirmation_status,
          sim_credit_qty, battery_charge, location_lat, location_lng, location_updated_at)
        WHERE d.id = v.id`);
    }
  }
}
