/**
 * The checks of the intelligence round (docs/tank-health.md) against the database:
 * deliveries, sensor health and leaks for every level sensor with a reading newer than its last
 * check (or checked a day ago), silent devices and low batteries for every device. Each sensor's
 * findings, the alarm and the notifications they cause are written in one transaction.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { HealthKind } from '@tankportal/shared/schemas/tank-health';
import type { Db, Tx } from '../db/client.ts';
import { runIsolated, writeIsolated } from './sensor-failure.ts';
import {
  alarms,
  deliveries,
  devices,
  healthIssues,
  sensorChecks,
  sensorForecasts,
  sensors,
} from '../db/schema.ts';
import { setAlarm } from '../commands/record-report.ts';
import { announceDeviceReports } from '../db/device-report-channel.ts';
import { runNamed } from '../db/named-statements.ts';
import type { HealthNotice, NotifiedDevice } from '../notifications/events.ts';
import { NotificationOutbox } from '../notifications/outbox.ts';
import {
  detectDeliveries,
  isCompensatedContent,
  type DetectedDelivery,
  type TemperatureLevelPoint,
} from './deliveries.ts';
import { FORECAST_RULES } from './forecast.ts';
import { findLeak } from './leak.ts';
import { levelReadings } from './level-readings.ts';
import { findJump, findSilent, findStuck, isLowBattery, reportIntervalSeconds } from './sensor-health.ts';

const DAY_MS = 86_400_000;
const BATCH = 200;
/** Stuck needs 7 days flat plus up to 60 days of use before them; deliveries overlap the last check. */
const RECHECK_DAYS = 67;

type Detail = Record<string, number | string | null>;
interface Finding {
  since: Date;
  detail: Detail;
}

/**
 * Opens, updates or closes the open issue of `kind` on a device (and sensor): answers what this
 * call did; an opened one is what a notification tells.
 */
async function setHealth(
  tx: Tx,
  deviceId: number,
  sensorId: number | null,
  kind: HealthKind,
  finding: Finding | null,
  now: Date,
  /** False when the caller knows that none of this kind is open (no look-up then). */
  mayBeOpen = true,
): Promise<'opened' | 'closed' | 'kept' | 'none'> {
  if (!mayBeOpen && !finding) return 'none';
  const [open] = !mayBeOpen
    ? []
    : await tx
        .select({ id: healthIssues.id })
        .from(healthIssues)
        .where(
          and(
            eq(healthIssues.deviceId, deviceId),
            eq(healthIssues.kind, kind),
            sensorId === null ? isNull(healthIssues.sensorId) : eq(healthIssues.sensorId, sensorId),
            isNull(healthIssues.closedAt),
          ),
        )
        .limit(1);
  if (finding && open) {
    await tx.update(healthIssues).set({ detail: finding.detail }).where(eq(healthIssues.id, open.id));
    return 'kept';
  }
  if (finding) {
    const opened = await tx
      .insert(healthIssues)
      .values({ deviceId, sensorId, kind, detail: finding.detail, openedAt: finding.since })
      .onConflictDoNothing()
      .returning({ id: healthIssues.id });
    return opened.length > 0 ? 'opened' : 'kept';
  }
  if (!open) return 'none';
  await tx.update(healthIssues).set({ closedAt: now }).where(eq(healthIssues.id, open.id));
  return 'closed';
}

/** The device's status after the round changed its alarms: alarm while any is open or a sensor fails. */
async function refreshDeviceStatus(tx: Tx, deviceId: number) {
  await tx
    .update(devices)
    .set({
      status: sql`CASE WHEN EXISTS (SELECT 1 FROM ${alarms} WHERE ${alarms.deviceId} = ${deviceId} AND ${alarms.closedAt} IS NULL)
        OR EXISTS (SELECT 1 FROM ${sensors} WHERE ${sensors.deviceId} = ${deviceId} AND ${sensors.isConnected} AND ${sensors.status} <> 'ok')
        THEN 'alarm' ELSE 'ok' END`,
    })
    .where(eq(devices.id, deviceId));
}

/**
 * What a sensor's check needs beside its readings, as the round's query of due sensors reads it
 * (`dueSensors`, and the forecasts' pass, which checks the sensors it forecasts on the same readings).
 */
export const checkColumns = {
  sensor: sensors,
  // As the database holds it (microseconds; a JS Date has milliseconds): the mark written from
  // it must not look older than the reading it covers, or the sensor is due for ever.
  lastMeasuredAtExact: sql<string>`${sensors.lastMeasuredAt}::text`,
  device: {
    id: devices.id,
    name: devices.name,
    active: devices.active,
    fillingRecognitionInterval: devices.fillingRecognitionInterval,
  },
  checkedUpTo: sensorChecks.basedOn,
  // Whether the sensor has an open stuck or jump doubt or an open leak alarm (the checks' own):
  // read with the due sensors, not by a statement per sensor.
  openFindings: sql<boolean>`(exists (select 1 from ${healthIssues} where ${healthIssues.deviceId} = ${sensors.deviceId}
      and ${healthIssues.kind} in ('stuck', 'jump') and coalesce(${healthIssues.sensorId}, 0) = ${sensors.id}
      and ${healthIssues.closedAt} is null)
    or exists (select 1 from ${alarms} where ${alarms.deviceId} = ${sensors.deviceId}
      and ${alarms.sensorId} = ${sensors.id} and ${alarms.type} = 'leak' and ${alarms.closedAt} is null))`,
};

/**
 * A level sensor is due for its check when it has a reading newer than the last check (compared in
 * the database, to the microsecond), or its last check is a day old (a jump ages out of its window).
 * Sensors without a capacity are never checked. Needs `sensors` joined with `sensor_checks`.
 */
export const checkDue = (now: Date) =>
  and(
    sql`${sensors.capacity} > 0`,
    isNotNull(sensors.lastMeasuredAt),
    or(
      isNull(sensorChecks.sensorId),
      lt(sensorChecks.basedOn, sensors.lastMeasuredAt),
      lt(sensorChecks.checkedAt, new Date(now.getTime() - DAY_MS)),
    ),
  );

export type CheckedSensor = {
  sensor: typeof sensors.$inferSelect;
  lastMeasuredAtExact: string;
  device: NotifiedDevice & { fillingRecognitionInterval: number };
  checkedUpTo: Date | null;
  openFindings: boolean;
};

function dueSensors(
  db: Db,
  now: Date,
  afterId: number,
  limit: number,
): Promise<(CheckedSensor & { perDay: number | null })[]> {
  return db
    .select({ ...checkColumns, perDay: sensorForecasts.perDay })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .leftJoin(sensorChecks, eq(sensorChecks.sensorId, sensors.id))
    .leftJoin(sensorForecasts, eq(sensorForecasts.sensorId, sensors.id))
    .where(and(eq(sensors.type, 'probe'), gt(sensors.id, afterId), checkDue(now)))
    .orderBy(asc(sensors.id))
    .limit(limit);
}

/** The oldest reading a check looks at: RECHECK_DAYS before the last check, or the whole history. */
function checkWindowStart(checkedUpTo: Date | null, now: Date): Date {
  return checkedUpTo
    ? new Date(checkedUpTo.getTime() - RECHECK_DAYS * DAY_MS)
    : new Date(now.getTime() - FORECAST_RULES.historyDays * DAY_MS);
}

/** The readings at or after `from` of readings that ascend (binary search, no copy when all are). */
function readingsFrom<T extends { at: Date }>(points: readonly T[], from: Date): readonly T[] {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (points[middle].at < from) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? points : points.slice(low);
}

/** A sensor's mark: the newest reading its check covered. Written alone, or many in one statement. */
interface CheckMark {
  sensorId: number;
  basedOn: SQL<Date>;
  checkedAt: Date;
}

const upsertMarks = (executor: Db | Tx, marks: CheckMark[]) =>
  executor
    .insert(sensorChecks)
    .values(marks)
    .onConflictDoUpdate({
      target: sensorChecks.sensorId,
      set: { basedOn: sql`excluded.based_on`, checkedAt: sql`excluded.checked_at` },
    });

type DeliveryRow = DetectedDelivery & { deviceId: number; sensorId: number };

/**
 * New deliveries, and grown ones (the same start, a later end) updated; the dealer's ticket stays.
 * The rows go as one JSON parameter (as the ingest's do): a fresh fleet's first checks find about
 * ten deliveries a sensor, and the query builder's SQL for 2,000 rows, a parameter per cell, took
 * 0.2–0.3 s of processor time a batch.
 */
const upsertDeliveries = (executor: Db | Tx, rows: DeliveryRow[]) =>
  runNamed(
    executor,
    'intelligence_deliveries',
    sql`
    INSERT INTO ${deliveries} (device_id, sensor_id, started_at, delivered_at, level_before, level_after,
      quantity, quantity_15, temperature)
    SELECT * FROM json_to_recordset(${JSON.stringify(
      rows.map((row) => ({
        device_id: row.deviceId,
        sensor_id: row.sensorId,
        started_at: row.startedAt,
        delivered_at: row.deliveredAt,
        level_before: row.levelBefore,
        level_after: row.levelAfter,
        quantity: row.quantity,
        quantity_15: row.quantity15,
        temperature: row.temperature,
      })),
    )}::json) AS v(device_id int, sensor_id int, started_at timestamptz, delivered_at timestamptz,
      level_before float8, level_after float8, quantity float8, quantity_15 float8, temperature float8)
    ON CONFLICT (sensor_id, started_at) DO UPDATE SET delivered_at = excluded.delivered_at,
      level_after = excluded.level_after, quantity = excluded.quantity,
      quantity_15 = excluded.quantity_15, temperature = excluded.temperature`,
  );

/**
 * What the checks of a batch of sensors write that needs no transaction of its own: the marks of
 * the checks that found nothing to open or close, and their new deliveries (written again, should a
 * crash come between, they are the same rows). `writeChecks` writes them a few statements a batch.
 */
export interface CheckWrites {
  marks: CheckMark[];
  deliveries: DeliveryRow[];
  /** The devices with a new delivery: open pages show it at once (live updates). */
  announce: Set<number>;
}

export const checkWrites = (): CheckWrites => ({ marks: [], deliveries: [], announce: new Set() });

/** Deliveries per statement: a parameter of a few hundred kilobytes at most, and a bounded retry row by row. */
const DELIVERIES_PER_STATEMENT = 2_000;

/**
 * Writes a batch's `CheckWrites`: the deliveries, then the marks, one statement each (the
 * deliveries by 2,000); when the database refuses one, its rows alone, so that one sensor's fault
 * does not cost the others theirs. A sensor whose delivery was refused keeps its last mark: its
 * next check finds the delivery again.
 */
export async function writeChecks(db: Db, writes: CheckWrites, log: (message: string) => void) {
  const refused = new Set<number>();
  for (let i = 0; i < writes.deliveries.length; i += DELIVERIES_PER_STATEMENT)
    for (const sensorId of await writeIsolated(
      'The checks',
      writes.deliveries.slice(i, i + DELIVERIES_PER_STATEMENT),
      (row) => row.sensorId,
      (rows) => upsertDeliveries(db, rows),
      log,
    ))
      refused.add(sensorId);
  await writeIsolated(
    'The checks',
    writes.marks.filter((mark) => !refused.has(mark.sensorId)),
    (mark) => mark.sensorId,
    (rows) => upsertMarks(db, rows),
    log,
  );
  if (writes.announce.size > 0) await db.transaction((tx) => announceDeviceReports(tx, writes.announce));
}

/**
 * A sensor's checks on its readings (`points`: at least those since `checkWindowStart`, oldest
 * first); `perDay` the forecast's use per day. A check that finds no doubt or leak and has none
 * open adds its mark and its new deliveries to `writes` (written with the batch's others by
 * `writeChecks`); one that opens, keeps or closes one writes its findings, alarm, notifications and
 * mark in one transaction.
 */
export async function checkReadings(
  db: Db,
  { sensor, lastMeasuredAtExact, device, checkedUpTo, openFindings }: CheckedSensor,
  allPoints: readonly TemperatureLevelPoint[],
  perDay: number | null,
  now: Date,
  writes: CheckWrites,
) {
  const capacity = sensor.capacity!;
  const points = readingsFrom(allPoints, checkWindowStart(checkedUpTo, now));
  const compensate = isCompensatedContent(sensor.contentType);
  // The window overlaps the last check's: a delivery whose readings that check saw to its end is
  // stored as it is (its start lies before its end, and what follows its end cannot change it), so
  // only one ending after it — new, or a truck still pumping then — is written.
  const found = detectDeliveries(points, {
    capacity,
    fillingRecognitionInterval: device.fillingRecognitionInterval,
    compensate,
  }).filter((delivery) => !checkedUpTo || delivery.deliveredAt > checkedUpTo);
  const stuck = findStuck(points, capacity);
  const jump = findJump(points, capacity, now);
  const leak = findLeak(points, {
    capacity,
    perDay,
    fillingRecognitionInterval: device.fillingRecognitionInterval,
    compensate,
    now,
  });
  const mark: CheckMark = {
    sensorId: sensor.id,
    basedOn: sql<Date>`${lastMeasuredAtExact}::timestamptz`,
    checkedAt: now,
  };
  // Most sensors most of the time: no doubt or leak found and none open to close — the mark (and
  // any new delivery) written with other sensors', instead of a transaction that reads and writes
  // every finding (the checks are the only writer of these doubts and of the leak alarm, so
  // `openFindings` cannot go stale meanwhile).
  const rows = found.map((delivery) => ({ ...delivery, deviceId: device.id, sensorId: sensor.id }));
  if (!stuck && !jump && !leak && !openFindings) {
    writes.marks.push(mark);
    writes.deliveries.push(...rows);
    if (rows.length > 0) writes.announce.add(device.id);
    return;
  }
  const notified: NotifiedDevice = device;
  const outbox = new NotificationOutbox();
  await db.transaction(async (tx) => {
    if (rows.length > 0) await upsertDeliveries(tx, rows);
    const unit = sensor.unit;
    const issues: HealthNotice[] = [];
    const noticeSensor = { sequence: sensor.sequence, name: sensor.name };
    const stuckFinding = stuck && {
      since: stuck.since,
      detail: { value: stuck.value, days: stuck.days, unit },
    };
    const stuckChange = await setHealth(tx, device.id, sensor.id, 'stuck', stuckFinding, now, openFindings);
    if (stuckChange === 'opened')
      issues.push({ kind: 'stuck', sensor: noticeSensor, detail: stuckFinding!.detail });
    const jumpFinding = jump && {
      since: jump.at,
      detail: { value: jump.value, from: jump.from, at: jump.at.toISOString(), unit },
    };
    const jumpChange = await setHealth(tx, device.id, sensor.id, 'jump', jumpFinding, now, openFindings);
    if (jumpChange === 'opened')
      issues.push({ kind: 'jump', sensor: noticeSensor, detail: jumpFinding!.detail });
    if (issues.length > 0) outbox.add(notified, { name: 'sensor_health', at: now, issues });

    const [openLeak] = !openFindings
      ? []
      : await tx
          .select({ id: alarms.id })
          .from(alarms)
          .where(and(eq(alarms.sensorId, sensor.id), eq(alarms.type, 'leak'), isNull(alarms.closedAt)));
    if (leak || openLeak) {
      const at = sensor.lastMeasuredAt ?? now;
      const value = leak ? `${Math.round(leak.excess)} ${unit}` : null;
      const notice = await setAlarm(tx, device.id, sensor, 'leak', leak !== null, at, value);
      outbox.addAlarm(notified, notice, at);
      if (!openLeak !== !leak) await refreshDeviceStatus(tx, device.id);
    }
    // Open pages show what changed at once (live updates), as they show a new report.
    const changed =
      [stuckChange, jumpChange].some((change) => change === 'opened' || change === 'closed') ||
      !openLeak !== !leak ||
      found.length > 0;
    if (changed) await announceDeviceReports(tx, [device.id]);
    await upsertMarks(tx, [mark]);
    await outbox.flush(tx, now);
  });
}

/**
 * Silent devices and low batteries: one read of every device that has reported and of the open
 * issues of both kinds; only devices whose state changes are written, each in its transaction.
 */
async function checkDevices(db: Db, now: Date): Promise<number> {
  const rows = await db
    .select({
      id: devices.id,
      name: devices.name,
      active: devices.active,
      type: devices.type,
      timeInterval: devices.timeInterval,
      iotConfig: devices.iotConfig,
      lastReportedAt: devices.lastReportedAt,
      batteryCharge: devices.batteryCharge,
    })
    .from(devices)
    .where(isNotNull(devices.lastReportedAt));
  const open = await db
    .select({ deviceId: healthIssues.deviceId, kind: healthIssues.kind })
    .from(healthIssues)
    .where(and(inArray(healthIssues.kind, ['silent', 'low_battery']), isNull(healthIssues.closedAt)));
  const isOpen = new Set(open.map((issue) => `${issue.deviceId}:${issue.kind}`));
  let changed = 0;
  for (const device of rows) {
    // An inactive device is switched off on purpose: its silence is no news.
    const silent = device.active
      ? findSilent(device.lastReportedAt, reportIntervalSeconds(device), now)
      : null;
    const battery = isLowBattery(device.batteryCharge);
    const silentOpen = isOpen.has(`${device.id}:silent`);
    const batteryOpen = isOpen.has(`${device.id}:low_battery`);
    if (!!silent === silentOpen && battery === batteryOpen) continue;
    changed++;
    const outbox = new NotificationOutbox();
    await db.transaction(async (tx) => {
      const issues: HealthNotice[] = [];
      const silentFinding = silent && {
        since: silent.since,
        detail: {
          lastReportedAt: silent.lastReportedAt.toISOString(),
          intervalHours: silent.intervalHours,
        },
      };
      if ((await setHealth(tx, device.id, null, 'silent', silentFinding, now)) === 'opened')
        issues.push({ kind: 'silent', sensor: null, detail: silentFinding!.detail });
      // Since the report that carried the low charge (the device's newest), not since this round.
      const batteryFinding = battery
        ? { since: device.lastReportedAt ?? now, detail: { charge: device.batteryCharge } }
        : null;
      if ((await setHealth(tx, device.id, null, 'low_battery', batteryFinding, now)) === 'opened')
        issues.push({ kind: 'low_battery', sensor: null, detail: batteryFinding!.detail });
      if (issues.length > 0) outbox.add(device, { name: 'sensor_health', at: now, issues });
      await announceDeviceReports(tx, [device.id]);
      await outbox.flush(tx, now);
    });
  }
  return changed;
}

/**
 * One round of the checks: the due level sensors (within `budgetMs`; the next round does the
 * rest), then the devices. Run by the job `forecasts` after the forecasts (the leak rule needs their
 * consumption per day) and after the demo data is seeded.
 */
export async function runSensorChecks(
  db: Db,
  { now = new Date(), budgetMs = Infinity, log = (message: string) => console.warn(message) } = {},
): Promise<{ sensors: number; devices: number }> {
  const started = Date.now();
  let checked = 0;
  // One pass by id: a sensor still due after its check waits for the next round.
  let afterId = 0;
  while (Date.now() - started < budgetMs) {
    const due = await dueSensors(db, now, afterId, BATCH);
    if (due.length === 0) break;
    const writes = checkWrites();
    for (const entry of due) {
      await runIsolated(
        'The checks',
        entry.sensor,
        async () => {
          const points = await levelReadings(db, entry.sensor.id, checkWindowStart(entry.checkedUpTo, now));
          await checkReadings(db, entry, points, entry.perDay, now, writes);
        },
        log,
      );
      afterId = entry.sensor.id;
      checked++;
      if (Date.now() - started >= budgetMs) break;
    }
    await writeChecks(db, writes, log);
  }
  return { sensors: checked, devices: await checkDevices(db, now) };
}
