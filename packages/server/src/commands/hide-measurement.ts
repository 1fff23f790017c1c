import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { hasRole } from '@tankportal/shared/roles';
import type { Db, Tx } from '../db/client.ts';
import { devices, measurements, monthlyConsumption, sensors } from '../db/schema.ts';
import { forbidden, notFound } from '../http-error.ts';
import { requireDevicePermission } from '../policies/device-access.ts';
import type { SensorRow } from '../repositories/devices.ts';

import { levelFromValue } from '../sensor-logic/level.ts';
import { recomputeConsumption } from './record-report.ts';
import { recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';

/**
 * A process data point's id as `GET /v2/devices/{id}/process` builds it: `{sensorId}-{epoch ms}`,
 * the measurement's primary key (sensor, time).
 */
export const POINT_ID_PATTERN = /^([1-9]\d{0,9})-(0|[1-9]\d{0,14})$/;

export function parsePointId(pointId: string): { sensorId: number; measuredAt: Date } {
  const [, sensorId, ms] = POINT_ID_PATTERN.exec(pointId) ?? [];
  return { sensorId: Number(sensorId), measuredAt: new Date(Number(ms)) };
}

/**
 * Hides one data point (a superadmin clicks an outlier on the process chart).
 * The row stays for the audit; the curve and the monthly consumption no longer see it: the months
 * whose steps it took part in are recomputed from the remaining readings. When it was the sensor's
 * newest reading, the sensor's present value falls back to the newest visible one, so the next
 * report's consumption step starts from a value that is still in the curve.
 */
export async function hideMeasurement(db: Db, author: ChangeAuthor, pointId: string): Promise<void> {
  const actor = author.actor.user;
  const { sensorId, measuredAt } = parsePointId(pointId);
  const [sensor] = await db.select().from(sensors).where(eq(sensors.id, sensorId)).limit(1);
  if (!sensor) throw notFound();
  await requireDevicePermission(db, actor, sensor.deviceId, 'VIEW_PROCESS');
  if (!hasRole(actor.role, 'ROLE_SUPERADMIN')) throw forbidden();

  await db.transaction(async (tx) => {
    // The same lock as a report of the device takes: no reading slips in between.
    await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, sensor.deviceId)).for('update');
    const [hidden] = await tx
      .update(measurements)
      .set({ hidden: true })
      .where(
        and(
          eq(measurements.sensorId, sensorId),
          eq(measurements.measuredAt, measuredAt),
          eq(measurements.hidden, false),
        ),
      )
      .returning({ value: measurements.value });
    if (!hidden) throw notFound();
    // The point as it was in the curve: which sensor, when and what it read.
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: sensor.deviceId,
      deviceId: sensor.deviceId,
      action: 'hide_measurement',
      changes: removedFields({
        sensor: sensor.sequence,
        measuredAt: measuredAt.toISOString(),
        value: hidden.value,
      }),
    });
    if (hidden.value !== null) await recomputeAround(tx, sensor, measuredAt);
    if (sensor.lastMeasuredAt?.getTime() === measuredAt.getTime()) await fallBackToNewestVisible(tx, sensor);
  });
}

/** Recomputes the month of the hidden point through the month of the next visible reading. */
async function recomputeAround(tx: Tx, sensor: SensorRow, at: Date) {
  const [next] = await tx
    .select({ at: measurements.measuredAt })
    .from(measurements)
    .where(
      and(
        eq(measurements.sensorId, sensor.id),
        eq(measurements.hidden, false),
        sql`${measurements.value} IS NOT NULL`,
        sql`${measurements.measuredAt} > ${at}`,
      ),
    )
    .orderBy(asc(measurements.measuredAt))
    .limit(1);
  const until = next?.at ?? at;
  // A month may end up without any step (its only reading was hidden): clear the range first,
  // the recomputation writes back every month that still has one.
  const monthIndex = (date: Date) => date.getUTCFullYear() * 12 + date.getUTCMonth();
  const month = sql`${monthlyConsumption.year} * 12 + ${monthlyConsumption.month} - 1`;
  await tx
    .delete(monthlyConsumption)
    .where(
      and(
        eq(monthlyConsumption.sensorId, sensor.id),
        gte(month, monthIndex(at)),
        lte(month, monthIndex(until)),
      ),
    );
  await recomputeConsumption(tx, sensor, at, until);
}

async function fallBackToNewestVisible(tx: Tx, sensor: SensorRow) {
  const [newest] = await tx
    .select()
    .from(measurements)
    .where(and(eq(measurements.sensorId, sensor.id), eq(measurements.hidden, false)))
    .orderBy(desc(measurements.measuredAt))
    .limit(1);
  const probe = sensor.type === 'probe';
  const level = newest?.value != null && probe ? levelFromValue(sensor, newest.value) : null;
  await tx
    .update(sensors)
    .set({
      value: newest?.value ?? null,
      pct: level?.pct ?? null,
      netPct: level?.netPct ?? null,
      netFreeSpace: level?.netFreeSpace ?? null,
      temperatureValue: newest?.temperature ?? null,
      lastMeasuredAt: newest?.measuredAt ?? null,
    })
    .where(eq(sensors.id, sensor.id));
}
