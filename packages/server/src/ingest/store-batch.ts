import { and, isNull } from 'drizzle-orm';
import type { AlarmType } from '@tankportal/shared/devices';
import type { ReportV1 } from '@tankportal/shared/protocols/report';
import type { Db, Tx } from '../db/client.ts';
import { alarms, devices, sensors } from '../db/schema.ts';
import { completeSentQueriesPart } from '../commands/complete-queries.ts';
import { anyOfIds, builtOnce, namedStatement } from '../db/named-statements.ts';
import { announceQuery, deviceReportPayloads } from '../db/device-report-channel.ts';
import { recordReportIn } from '../commands/record-report.ts';
import { levelOf, severityOf, temperatureOutOfLimit } from '../sensor-logic/reading-rules.ts';
import { monthlyConsumption } from '../sensor-logic/consumption.ts';
import { thresholdState } from '../sensor-logic/threshold.ts';
import type { AlarmRow, DeviceRow, SensorRow } from '../repositories/devices.ts';
import { alarmNotice, simCreditEvent, thresholdEvent } from '../notifications/events.ts';
import { NotificationOutbox } from '../notifications/outbox.ts';
import type { GatheredEvents } from '../notifications/gathered-events.ts';
import { toDeviceReport, type IngestItem, type IngestResult } from './ingest-item.ts';
import { storableText } from './malformed-excerpt.ts';
import { reportKey } from '../db/report-key.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Rows as one JSON parameter, unpacked by `json_to_recordset`: one short statement for any count. */
const asJson = (rows: object[]) => JSON.stringify(rows);

// The statements every batch runs, their SQL written once (no query building per batch) and run
// by name: parsed and planned once per connection. Values go as parameters, the rows as JSON.

const lockDevices = builtOnce<DeviceRow>('ingest_lock_devices', (tx) =>
  tx.select().from(devices).where(anyOfIds(devices.id)).orderBy(devices.id).for('update'),
);
const sensorsOf = builtOnce<SensorRow>('ingest_sensors', (tx) =>
  tx.select().from(sensors).where(anyOfIds(sensors.deviceId)),
);
const openAlarmsOf = builtOnce<AlarmRow>('ingest_open_alarms', (tx) =>
  tx
    .select()
    .from(alarms)
    .where(and(anyOfIds(alarms.deviceId), isNull(alarms.closedAt))),
);

const insertMessages = namedStatement<{ dedup_key: string }>(
  'ingest_messages',
  `INSERT INTO messages (device_id, type, direction, mode, status, content, from_ident, from_type, dedup_key, received_at)
  SELECT m.device_id, m.type, 'in', 'deviceToSystem', 'processed', m.content, m.from_ident, m.from_type, m.dedup_key,
    $1::timestamptz
  FROM json_to_recordset($2::json) AS m(device_id int, type text, content text, from_ident text, from_type text, dedup_key text)
  ON CONFLICT DO NOTHING
  RETURNING dedup_key`,
);

const lateStretch = namedStatement<{ sensor_id: number; at: number; value: number | null; counts: boolean }>(
  'ingest_late_stretch',
  `SELECT w.sensor_id, round(extract(epoch FROM m.measured_at) * 1000)::float8 AS at, m.value,
    (m.value IS NOT NULL AND NOT m.hidden) AS counts
  FROM json_to_recordset($1::json) AS w(sensor_id int, first timestamptz, last timestamptz)
  CROSS JOIN LATERAL (
    (SELECT measured_at, value, hidden FROM measurements
      WHERE sensor_id = w.sensor_id AND measured_at BETWEEN w.first AND w.last)
    UNION ALL
    (SELECT measured_at, value, hidden FROM measurements
      WHERE sensor_id = w.sensor_id AND measured_at < w.first AND value IS NOT NULL AND NOT hidden
      ORDER BY measured_at DESC LIMIT 1)
    UNION ALL
    (SELECT measured_at, value, hidden FROM measurements
      WHERE sensor_id = w.sensor_id AND measured_at > w.last AND value IS NOT NULL AND NOT hidden
      ORDER BY measured_at ASC LIMIT 1)
  ) AS m`,
);

/**
 * Everything the bulk path writes, in one statement of data-modifying parts (one round trip instead
 * of one per table): the new alarms and those closed, the measurements, the consumption steps, the
 * sensors' and the devices' new state; and for the whole batch, the manual queries its reports
 * answer (`$7`, the devices with a new report) and the announcement of the devices whose reports
 * were stored (`$8`, the payloads), which open pages hear once the transaction commits. Each part takes its rows as one JSON parameter, `[]` when it
 * has none; the parts touch different tables, or different rows of one (alarms), and PostgreSQL
 * runs each part to its end whether or not the statement reads its output.
 */
const writePlan = namedStatement(
  'ingest_write',
  `WITH new_alarms AS (
    INSERT INTO alarms (device_id, sensor_id, sequence, type, value, scope, severity, opened_at, closed_at)
    SELECT * FROM json_to_recordset($1::json) AS v(device_id int, sensor_id int, sequence int,
      type text, value text, scope text, severity text, opened_at timestamptz, closed_at timestamptz)
  ), closed_alarms AS (
    UPDATE alarms AS a SET closed_at = v.closed_at
    FROM json_to_recordset($2::json) AS v(id int, closed_at timestamptz)
    WHERE a.id = v.id
  ), new_measurements AS (
    INSERT INTO measurements (sensor_id, measured_at, value, percent, temperature)
    SELECT * FROM json_to_recordset($3::json)
      AS v(sensor_id int, measured_at timestamptz, value float8, percent float8, temperature float8)
    ON CONFLICT DO NOTHING
  ), consumption AS (
    INSERT INTO monthly_consumption (sensor_id, year, month, consumption)
    SELECT * FROM json_to_recordset($4::json) AS v(sensor_id int, year int, month int, consumption float8)
    ON CONFLICT (sensor_id, year, month)
    DO UPDATE SET consumption = monthly_consumption.consumption + excluded.consumption
  ), sensor_state AS (
    UPDATE sensors AS s SET value = v.value, pct = v.pct, net_pct = v.net_pct, net_free_space = v.net_free_space,
      temperature_value = v.temperature_value, status = v.status, last_measured_at = v.last_measured_at
    FROM json_to_recordset($5::json) AS v(id int, value float8, pct float8, net_pct float8,
      net_free_space float8, temperature_value float8, status text, last_measured_at timestamptz)
    WHERE s.id = v.id
  ), device_state AS (
    UPDATE devices AS d SET last_reported_at = v.last_reported_at, status = v.status,
      threshold_status = v.threshold_status, threshold_confirmation_status = v.threshold_confirmation_status,
      sim_credit_qty = v.sim_credit_qty, battery_charge = v.battery_charge, location_lat = v.location_lat,
      location_lng = v.location_lng, location_updated_at = v.location_updated_at
    FROM json_to_recordset($6::json) AS v(id int, last_reported_at timestamptz, status text,
      threshold_status text, threshold_confirmation_status text, sim_credit_qty float8, battery_charge int,
      location_lat float8, location_lng float8, location_updated_at timestamptz)
    WHERE d.id = v.id
  ), answered_queries AS (
    ${completeSentQueriesPart('$7')}
  )
  ${announceQuery('$8')}`,
);

/**
 * Stores a batch of parsed reports in one transaction with set-based statements: one insert of
 * the message log, and one statement for the measurements, the consumption steps, the alarms and
 * the sensors' and devices' new state, whatever the batch's size. That covers the common cases: reports
 * newer than everything their device has reported (device alarm codes and sensor temperature alarms
 * open and close as on the general path), and a backlog arriving out of order (reports older than
 * their sensors' last measurement, which only add measurements and consumption).
 * Every other device of the batch takes the general path (`recordReportIn`), report by report,
 * inside the same transaction, with the same results. Both paths gather the notification events
 * their state changes cause in the batch's one outbox, which writes them at the end (one
 * recipients query, and only when something happened that notifies). The walk runs one way: this
 * file calls the general path, the rules below both (sensor-logic/reading-rules.ts,
 * notifications/events.ts) and at the end the outbox, and nothing it calls comes back to it.
 */
export async function storeBatch(db: Db, items: IngestItem[]): Promise<IngestResult[]> {
  return db.transaction(async (tx) => {
    const results: IngestResult[] = items.map(() => ({ duplicate: true, stored: 0 }));
    // Once per report: its message key, and its time in milliseconds.
    const keys = items.map((item) => reportKey(item.deviceId, item.report));
    const times = items.map((item) => Date.parse(item.report.measuredAt));
    // Locked in id order before anything else: concurrent batches (of this or other processes)
    // cannot deadlock, and a message id's repetitions (same device) wait for each other here.
    const deviceRows = await lockDevices(tx, { ids: [...new Set(items.map((item) => item.deviceId))] });
    const existing = new Set(deviceRows.map((device) => device.id));
    const logRows: object[] = [];
    items.forEach((item, index) => {
      if (!existing.has(item.deviceId)) {
        results[index] = { duplicate: false, stored: 0, deviceGone: true };
        return;
      }
      logRows.push({
        device_id: item.deviceId,
        type: item.sender.type,
        // The raw copy as PostgreSQL can hold it: a NUL or lone surrogate would fail the batch.
        content: storableText(item.content),
        from_ident: storableText(item.sender.ident),
        from_type: item.sender.identType,
        dedup_key: keys[index],
      });
    });
    if (logRows.length === 0) return results;
    const inserted = await insertMessages.run(tx, [new Date().toISOString(), asJson(logRows)]);
    // A report seen before, or twice in this batch, is a repetition: only its first copy counts.
    const unclaimed = new Set(inserted.rows.map((row) => row.dedup_key));
    const byDevice = new Map<number, number[]>();
    items.forEach((item, index) => {
      if (results[index].deviceGone || !unclaimed.delete(keys[index])) return;
      const indexes = byDevice.get(item.deviceId);
      if (indexes) indexes.push(index);
      else byDevice.set(item.deviceId, [index]);
    });
    if (byDevice.size === 0) return results;

    const deviceIds = [...byDevice.keys()].sort((a, b) => a - b);
    const sensorRows = await sensorsOf(tx, { ids: deviceIds });
    const openAlarms = await openAlarmsOf(tx, { ids: deviceIds });

    const outbox = new NotificationOutbox();
    const plan = new BulkPlan(outbox);
    for (const device of deviceRows) {
      const indexes = byDevice.get(device.id);
      if (!indexes) continue;
      indexes.sort((a, b) => times[a] - times[b]);
      const deviceSensors = sensorRows
        .filter((sensor) => sensor.deviceId === device.id)
        .sort((a, b) => a.sequence - b.sequence);
      // Reports older than the device's last one (a backlog arriving out of order) only add
      // measurements and consumption, as on the general path; the newer ones also change state.
      const lastReported = device.lastReportedAt?.getTime() ?? -Infinity;
      const late = indexes.filter((index) => times[index] < lastReported);
      const fresh = indexes.filter((index) => times[index] >= lastReported);
      const freshReports = fresh.map((index) => items[index].report);
      const lateReports = late.map((index) => items[index].report);
      if (fitsBulkPath(device, deviceSensors, freshReports) && fitsLatePath(deviceSensors, lateReports)) {
        late.forEach((index, n) => {
          results[index] = { duplicate: false, stored: 0 };
          plan.addLate(deviceSensors, lateReports[n], results[index]);
        });
        if (fresh.length > 0) {
          plan.startDevice(device, openAlarms);
          fresh.forEach(
            (index, n) =>
              (results[index] = {
                duplicate: false,
                stored: plan.add(device, deviceSensors, freshReports[n]),
              }),
          );
          plan.finishDevice(device, deviceSensors);
        }
      } else {
        for (const index of indexes) {
          const { stored } = await recordReportIn(tx, device.id, toDeviceReport(items[index].report), outbox);
          results[index] = { duplicate: false, stored };
        }
      }
    }
    // A new report answers the device's sent manual queries, committed with the report; open pages
    // of the devices with stored reports load them again once this commits (live updates).
    await plan.write(tx, {
      answering: deviceIds,
      announced: items.filter((_, index) => results[index].stored > 0).map((item) => item.deviceId),
    });
    await outbox.flush(tx);
    return results;
  });
}

/** Reports strictly newer than all the device and its sensors have reported, in time order. */
function fitsBulkPath(device: DeviceRow, deviceSensors: SensorRow[], reports: ReportV1[]): boolean {
  let after = device.lastReportedAt?.getTime() ?? -Infinity;
  for (const report of reports) {
    const at = Date.parse(report.measuredAt);
    if (at <= after) return false;
    after = at;
    for (const reading of report.sensors) {
      const sensor = deviceSensors.find((s) => s.sequence === reading.sequence);
      if (sensor?.lastMeasuredAt && sensor.lastMeasuredAt.getTime() >= at) return false;
    }
  }
  return true;
}

/**
 * Reports older than everything their sensors have measured: on the general path they store their
 * measurements and change the consumption around them, nothing else.
 */
function fitsLatePath(deviceSensors: SensorRow[], reports: ReportV1[]): boolean {
  return reports.every((report) =>
    report.sensors.every((reading) => {
      const sensor = deviceSensors.find((s) => s.sequence === reading.sequence);
      return (
        !sensor || (sensor.lastMeasuredAt && sensor.lastMeasuredAt.getTime() > Date.parse(report.measuredAt))
      );
    }),
  );
}

/** A reading of a late report, stored unless its sensor has a measurement at that time already. */
interface LateReading {
  sensor: SensorRow;
  at: number;
  row: object;
  /** The level's value, null when the reading has none (no consumption step). */
  value: number | null;
  result: IngestResult;
}

/** An alarm open while a device's reports are replayed: an existing row, or one this batch opens. */
interface OpenAlarm {
  sensorId: number | null;
  id?: number;
  row?: typeof alarms.$inferInsert;
  /** Of an existing row: whether reporting it again notifies (alarmNotice). */
  confirmationStatus: AlarmRow['confirmationStatus'];
}

/** What the bulk path writes, gathered over the batch's devices. */
class BulkPlan {
  readonly measurementRows: object[] = [];
  readonly consumption = new Map<
    string,
    { sensor_id: number; year: number; month: number; consumption: number }
  >();
  readonly sensorUpdates = new Map<number, SensorRow>();
  readonly deviceUpdates: DeviceRow[] = [];
  readonly newAlarms: (typeof alarms.$inferInsert)[] = [];
  readonly closedAlarms: { id: number; closedAt: Date }[] = [];
  readonly late: LateReading[] = [];
  /**
   * The device's open alarms, by type for device alarms (as the general path, one per type) and by
   * type and sensor for sensor alarms.
   */
  private open = new Map<string, OpenAlarm>();
  /** The last known value per sensor: where the next consumption step starts. */
  private readonly previous = new Map<number, number | null>();
  private readonly latest = new Map<
    number,
    {
      simCreditQty?: number;
      batteryCharge?: number;
      /** With the time of the report that carried it: a later report without one keeps it. */
      location?: { lat: number; lng: number; at: Date };
      at: Date;
    }
  >();
  private readonly events: GatheredEvents;
  /**
   * The device's threshold state and its confirmation as each report leaves them: a crossing
   * clears the confirmation and notifies, report by report, as on the general path.
   */
  private threshold: Pick<DeviceRow, 'thresholdStatus' | 'thresholdConfirmationStatus'> = {
    thresholdStatus: 'ok',
    thresholdConfirmationStatus: null,
  };

  constructor(events: GatheredEvents) {
    this.events = events;
  }

  startDevice(device: DeviceRow, openAlarms: AlarmRow[]) {
    this.threshold = {
      thresholdStatus: device.thresholdStatus,
      thresholdConfirmationStatus: device.thresholdConfirmationStatus,
    };
    this.open = new Map(
      openAlarms
        .filter((alarm) => alarm.deviceId === device.id)
        .map((alarm) => [
          alarmKey(alarm.type, alarm.sensorId),
          { sensorId: alarm.sensorId, id: alarm.id, confirmationStatus: alarm.confirmationStatus },
        ]),
    );
  }

  /**
   * As `setAlarm` of the general path: opens the alarm unless open, or closes the open one; an
   * active alarm notifies as there (new, or still open and not silenced by its confirmation).
   */
  private setAlarm(
    device: DeviceRow,
    sensor: SensorRow | null,
    type: AlarmType,
    active: boolean,
    at: Date,
    value: string | null,
  ) {
    const sensorId = sensor?.id ?? null;
    const key = alarmKey(type, sensorId);
    const open = this.open.get(key);
    if (active) this.events.addAlarm(device, alarmNotice(type, sensor, value, open ?? null), at);
    if (active && !open) {
      const row = {
        deviceId: device.id,
        sensorId,
        // The sensor's number, which the pages and notifications name the alarm by.
        sequence: sensor?.sequence ?? null,
        type,
        value,
        scope: sensorId === null ? ('alarm_in' as const) : ('sensor' as const),
        severity: severityOf(type),
        openedAt: at,
      };
      this.newAlarms.push(row);
      this.open.set(key, { sensorId, row, confirmationStatus: null });
    } else if (!active && open) {
      if (open.id !== undefined) this.closedAlarms.push({ id: open.id, closedAt: at });
      else open.row!.closedAt = at;
      this.open.delete(key);
    }
  }

  /** A late report (see fitsLatePath): its readings are stored and booked in `resolveLate`. */
  addLate(deviceSensors: SensorRow[], report: ReportV1, result: IngestResult) {
    for (const reading of report.sensors) {
      const sensor = deviceSensors.find((s) => s.sequence === reading.sequence);
      if (!sensor) continue;
      const level = levelOf(sensor, reading);
      this.late.push({
        sensor,
        at: Date.parse(report.measuredAt),
        value: level?.value ?? null,
        result,
        row: {
          sensor_id: sensor.id,
          measured_at: report.measuredAt,
          value: level?.value ?? null,
          percent: sensor.type === 'probe' ? (level?.pct ?? null) : null,
          temperature: reading.temperature ?? null,
        },
      });
    }
  }

  /**
   * Decides which late readings are new (no measurement of their sensor at that time) and books
   * the consumption they change: each falls between two readings of its series, so the steps of
   * the stretch they fall into are computed without and with them, and the difference booked —
   * the same as the general path's recomputation of the months, from the readings of that
   * stretch only (one statement for all sensors of the batch).
   */
  private async resolveLate(tx: Tx) {
    const bySensor = new Map<number, LateReading[]>();
    for (const reading of this.late) {
      const readings = bySensor.get(reading.sensor.id);
      if (readings) readings.push(reading);
      else bySensor.set(reading.sensor.id, [reading]);
    }
    const windows = [...bySensor].map(([sensorId, readings]) => ({
      sensor_id: sensorId,
      first: new Date(Math.min(...readings.map((r) => r.at))).toISOString(),
      last: new Date(Math.max(...readings.map((r) => r.at))).toISOString(),
    }));
    const stretch = await lateStretch.run(tx, [asJson(windows)]);
    for (const [sensorId, readings] of bySensor) {
      const rows = stretch.rows.filter((row) => Number(row.sensor_id) === sensorId);
      const taken = new Set(rows.map((row) => Number(row.at)));
      const before = rows
        .filter((row) => row.counts)
        .map((row) => ({ at: new Date(Number(row.at)), value: Number(row.value) }));
      const after = [...before];
      readings.sort((a, b) => a.at - b.at);
      for (const reading of readings) {
        if (taken.has(reading.at)) continue; // stored before, or by an earlier report of this batch
        taken.add(reading.at);
        reading.result.stored++;
        this.measurementRows.push(reading.row);
        if (reading.value !== null) after.push({ at: new Date(reading.at), value: reading.value });
      }
      const kind = readings[0].sensor.type;
      for (const [sign, months] of [
        [-1, monthlyConsumption(before, kind)],
        [1, monthlyConsumption(after, kind)],
      ] as const) {
        for (const month of months) this.book(sensorId, month.year, month.month, sign * month.consumption);
      }
    }
  }

  private book(sensorId: number, year: number, month: number, consumption: number) {
    const key = `${sensorId}:${year}:${month}`;
    const row = this.consumption.get(key) ?? { sensor_id: sensorId, year, month, consumption: 0 };
    row.consumption += consumption;
    this.consumption.set(key, row);
  }

  add(device: DeviceRow, deviceSensors: SensorRow[], report: ReportV1): number {
    const at = new Date(report.measuredAt);
    let stored = 0;
    for (const reading of report.sensors) {
      const sensor = deviceSensors.find((s) => s.sequence === reading.sequence);
      if (!sensor) continue;
      const level = levelOf(sensor, reading);
      const probe = sensor.type === 'probe';
      this.measurementRows.push({
        sensor_id: sensor.id,
        measured_at: report.measuredAt,
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
        this.book(sensor.id, step.year, step.month, step.consumption);
      }
      if (level) this.previous.set(sensor.id, level.value);
      const temperatureAlarm = temperatureOutOfLimit(sensor, reading.temperature);
      Object.assign(sensor, {
        value: level?.value ?? null,
        pct: probe ? (level?.pct ?? null) : null,
        netPct: probe ? (level?.netPct ?? null) : null,
        netFreeSpace: probe ? (level?.netFreeSpace ?? null) : null,
        temperatureValue: reading.temperature ?? null,
        status: reading.error || !level ? 'error' : temperatureAlarm ? 'alarm' : 'ok',
        lastMeasuredAt: at,
      });
      this.sensorUpdates.set(sensor.id, sensor);
      this.setAlarm(device, sensor, 'temperature', temperatureAlarm, at, `${reading.temperature ?? ''}`);
    }
    // As the general path: a reported alarm opens unless open; an open one missing from the report closes.
    const reported = new Set<string>(report.alarms ?? []);
    const openDeviceAlarms = [...this.open]
      .filter(([, alarm]) => alarm.sensorId === null)
      .map(([type]) => type);
    for (const type of new Set([...reported, ...openDeviceAlarms]))
      this.setAlarm(device, null, type as AlarmType, reported.has(type), at, null);
    const latest = this.latest.get(device.id) ?? { at };
    latest.at = at;
    // The credit before this report: the batch's previous report's, else the device's.
    const credit = latest.simCreditQty ?? device.simCreditQty;
    this.events.add(device, simCreditEvent(credit, report.simCredit, device.simCreditCurrency, at));
    if (report.simCredit !== undefined) latest.simCreditQty = report.simCredit;
    const threshold = thresholdState(device.thresholdSensor, deviceSensors);
    this.events.add(device, thresholdEvent(this.threshold, threshold, deviceSensors, at));
    this.threshold = {
      thresholdStatus: threshold,
      // A new threshold crossing asks for confirmation again.
      thresholdConfirmationStatus:
        threshold !== this.threshold.thresholdStatus ? null : this.threshold.thresholdConfirmationStatus,
    };
    if (report.battery !== undefined) latest.batteryCharge = report.battery;
    if (report.location) latest.location = { ...report.location, at };
    this.latest.set(device.id, latest);
    return stored;
  }

  finishDevice(device: DeviceRow, deviceSensors: SensorRow[]) {
    const latest = this.latest.get(device.id)!;
    Object.assign(device, {
      lastReportedAt: latest.at,
      status:
        this.open.size > 0 || deviceSensors.some((sensor) => sensor.isConnected && sensor.status !== 'ok')
          ? 'alarm'
          : 'ok',
      ...this.threshold,
      ...(latest.simCreditQty !== undefined ? { simCreditQty: latest.simCreditQty } : {}),
      ...(latest.batteryCharge !== undefined ? { batteryCharge: latest.batteryCharge } : {}),
      ...(latest.location
        ? {
            locationLat: latest.location.lat,
            locationLng: latest.location.lng,
            locationUpdatedAt: latest.location.at,
          }
        : {}),
    });
    this.deviceUpdates.push(device);
  }

  /** Writes the plan with the batch's answered queries and announcement (see `writePlan`). */
  async write(tx: Tx, batch: { answering: number[]; announced: number[] }) {
    if (this.late.length > 0) await this.resolveLate(tx);
    const parts = [
      this.newAlarms.map((alarm) => ({
        device_id: alarm.deviceId,
        sensor_id: alarm.sensorId,
        sequence: alarm.sequence ?? null,
        type: alarm.type,
        value: alarm.value,
        scope: alarm.scope,
        severity: alarm.severity,
        opened_at: iso(alarm.openedAt ?? null),
        closed_at: iso(alarm.closedAt ?? null),
      })),
      this.closedAlarms.map((alarm) => ({ id: alarm.id, closed_at: iso(alarm.closedAt) })),
      this.measurementRows,
      [...this.consumption.values()],
      [...this.sensorUpdates.values()].map((s) => ({
        id: s.id,
        value: s.value,
        pct: s.pct,
        net_pct: s.netPct,
        net_free_space: s.netFreeSpace,
        temperature_value: s.temperatureValue,
        status: s.status,
        last_measured_at: iso(s.lastMeasuredAt),
      })),
      this.deviceUpdates.map((d) => ({
        id: d.id,
        last_reported_at: iso(d.lastReportedAt),
        status: d.status,
        threshold_status: d.thresholdStatus,
        threshold_confirmation_status: d.thresholdConfirmationStatus,
        sim_credit_qty: d.simCreditQty,
        battery_charge: d.batteryCharge,
        location_lat: d.locationLat,
        location_lng: d.locationLng,
        location_updated_at: iso(d.locationUpdatedAt),
      })),
    ];
    await writePlan.run(tx, [
      ...parts.map(asJson),
      batch.answering,
      JSON.stringify(deviceReportPayloads(batch.announced)),
    ]);
  }
}

function alarmKey(type: string, sensorId: number | null) {
  return sensorId === null ? type : `${type}:${sensorId}`;
}
