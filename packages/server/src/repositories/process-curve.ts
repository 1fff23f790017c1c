import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { measurements, monthlyConsumption, sensors, unassignedDevices } from '../db/schema.ts';

/** One sensor's curve in columns: each column a JSON array as text, made by the database. */
export interface CurveColumnsRow extends Record<string, unknown> {
  /** The times in epoch milliseconds. */
  times: string;
  values: string;
  percents: string;
  temperatures: string;
}

/** One point of a sensor's curve as the point form writes it. */
export interface CurvePointRow extends Record<string, unknown> {
  /** bigint: a string from node-postgres, a number from PGlite. */
  epoch_ms: string | number;
  timestamp: string;
  value: number | null;
  percent: number | null;
  temperature: number | null;
}

/** Which readings of a sensor a curve shows: not hidden, optionally within [from, to]. */
export interface CurveRange {
  from?: Date;
  to?: Date;
}

const epochMs = sql`floor(extract(epoch FROM measured_at) * 1000)::bigint`;
const visible = (sensorId: number) =>
  and(eq(measurements.sensorId, sensorId), eq(measurements.hidden, false));
const inRange = (sensorId: number, { from, to }: CurveRange) =>
  and(
    visible(sensorId),
    from ? gte(measurements.measuredAt, from) : undefined,
    to ? lte(measurements.measuredAt, to) : undefined,
  );

/** A device's sensors in their order. */
export const sensorsOfDeviceInOrder = (db: Db, deviceId: number) =>
  db.select().from(sensors).where(eq(sensors.deviceId, deviceId)).orderBy(asc(sensors.sequence));

/** When the sensor's first visible reading was taken, if it has one. */
export async function firstVisibleReadingAt(db: Db, sensorId: number): Promise<Date | undefined> {
  const [first] = await db
    .select({ at: measurements.measuredAt })
    .from(measurements)
    .where(visible(sensorId))
    .orderBy(asc(measurements.measuredAt))
    .limit(1);
  return first?.at;
}

/**
 * The newest `limit` visible readings of the range as four JSON arrays written by the database:
 * the same number texts node-postgres or PGlite would have parsed and JSON.stringify written again,
 * with nothing per point left to do in this process. The newest rows as a time range (from the
 * limit-th newest time on) read in time order through the (sensor, time) key, without a sort; the
 * aggregates take them in that order (a subquery with ORDER BY is not flattened).
 */
export async function curveColumns(db: Db, sensorId: number, range: CurveRange, limit: number) {
  const where = inRange(sensorId, range);
  const {
    rows: [row],
  } = await db.execute<CurveColumnsRow>(sql`
    SELECT coalesce(json_agg(${epochMs}), '[]')::text AS times,
      coalesce(json_agg(value), '[]')::text AS values,
      coalesce(json_agg(percent), '[]')::text AS percents,
      coalesce(json_agg(temperature), '[]')::text AS temperatures
    FROM (
      SELECT measured_at, value, percent, temperature FROM ${measurements}
      WHERE ${where} AND measured_at >= coalesce((
        SELECT measured_at FROM ${measurements} WHERE ${where}
        ORDER BY measured_at DESC OFFSET ${limit - 1} LIMIT 1
      ), '-infinity')
      ORDER BY measured_at
    ) AS curve`);
  return row!;
}

/**
 * The newest `limit` visible readings of the range in time order, read newest first through the
 * (sensor, time) key. With up to 25,000 rows per sensor, per-cell mapping and Date objects (parsed
 * on the way in, serialised one by one on the way out) would cost more than the query: plain SQL,
 * the time as ISO text and epoch milliseconds.
 */
export async function curvePoints(db: Db, sensorId: number, range: CurveRange, limit: number) {
  const { rows } = await db.execute<CurvePointRow>(sql`
    SELECT ${epochMs} AS epoch_ms,
      to_char(measured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp,
      value, percent, temperature
    FROM ${measurements}
    WHERE ${inRange(sensorId, range)}
    ORDER BY measured_at DESC
    LIMIT ${limit}`);
  return rows.reverse();
}

/** The monthly consumption of a device's sensors, newest month first. */
export async function monthlyConsumptionOfDevice(db: Db, deviceId: number) {
  const deviceSensors = await db
    .select({ id: sensors.id })
    .from(sensors)
    .where(eq(sensors.deviceId, deviceId));
  if (deviceSensors.length === 0) return [];
  return db
    .select()
    .from(monthlyConsumption)
    .where(
      inArray(
        monthlyConsumption.sensorId,
        deviceSensors.map((sensor) => sensor.id),
      ),
    )
    .orderBy(desc(monthlyConsumption.year), desc(monthlyConsumption.month), asc(monthlyConsumption.sensorId));
}

/** Senders of a kind the system does not know, the latest first. */
export const unassignedOfKind = (db: Db, kind: (typeof unassignedDevices.$inferSelect)['kind']) =>
  db
    .select({
      id: unassignedDevices.id,
      ident: unassignedDevices.ident,
      host: unassignedDevices.host,
      lastReportedAt: unassignedDevices.lastReportedAt,
    })
    .from(unassignedDevices)
    .where(eq(unassignedDevices.kind, kind))
    .orderBy(desc(unassignedDevices.lastReportedAt));

/** Takes a sender off the unassigned list (one row per sender); false when there was none. */
export async function removeUnassigned(db: Db, id: number) {
  const removed = await db
    .delete(unassignedDevices)
    .where(eq(unassignedDevices.id, id))
    .returning({ id: unassignedDevices.id });
  return removed.length > 0;
}
