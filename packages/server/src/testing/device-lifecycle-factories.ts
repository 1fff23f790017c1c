import { asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  alarms,
  deviceAces,
  devices,
  measurements,
  monthlyConsumption,
  sensors,
  unassignedDevices,
} from '../db/schema.ts';

/**
 * A device that has reported for a while: measurements and consumption of its sensors, an open
 * alarm, sensor values, a last report and a location.
 */
export async function buildHistory(db: Db, deviceId: number) {
  const deviceSensors = await db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
  const at = (day: number) => new Date(Date.UTC(2026, 0, day, 8));
  for (const sensor of deviceSensors) {
    await db.insert(measurements).values(
      [1, 2, 3].map((day) => ({
        sensorId: sensor.id,
        measuredAt: at(day),
        value: 5000 - day * 100,
        percent: 50,
      })),
    );
    await db
      .insert(monthlyConsumption)
      .values({ sensorId: sensor.id, year: 2026, month: 1, consumption: 200 });
    await db
      .update(sensors)
      .set({
        value: 4700,
        pct: 47,
        netPct: 49,
        netFreeSpace: 4800,
        temperatureValue: 12,
        lastMeasuredAt: at(3),
      })
      .where(eq(sensors.id, sensor.id));
  }
  await db.insert(alarms).values({ deviceId, scope: 'generic', type: 'power_failure', severity: 'fatal' });
  await db
    .update(devices)
    .set({
      lastReportedAt: at(3),
      status: 'alarm',
      thresholdStatus: 'below',
      locationLat: 51.1,
      locationLng: 10.4,
      locationUpdatedAt: at(3),
    })
    .where(eq(devices.id, deviceId));
}

/** A sender the system heard from but does not know. */
export async function buildUnassigned(db: Db, kind: 'net' | 'iot' | 'lx_iot', ident: string) {
  const [row] = await db.insert(unassignedDevices).values({ kind, ident, host: '192.0.2.1' }).returning();
  return row;
}

/**
 * Everything of a device a metadata or lifecycle call could change, read fresh from the database:
 * a denied call must leave it equal.
 */
export async function deviceSnapshot(db: Db, deviceId: number) {
  const [device] = await db.select().from(devices).where(eq(devices.id, deviceId));
  const deviceSensors = await db
    .select()
    .from(sensors)
    .where(eq(sensors.deviceId, deviceId))
    .orderBy(asc(sensors.sequence));
  const sensorIds = deviceSensors.map((sensor) => sensor.id);
  const counted = async (query: Promise<{ value: number }[]>) => (await query)[0].value;
  return {
    device,
    sensors: deviceSensors,
    aces: await db
      .select()
      .from(deviceAces)
      .where(eq(deviceAces.deviceId, deviceId))
      .orderBy(asc(deviceAces.id)),
    alarms: await counted(db.select({ value: count() }).from(alarms).where(eq(alarms.deviceId, deviceId))),
    measurements: sensorIds.length
      ? await counted(
          db.select({ value: count() }).from(measurements).where(inArray(measurements.sensorId, sensorIds)),
        )
      : 0,
    consumption: sensorIds.length
      ? await counted(
          db
            .select({ value: count() })
            .from(monthlyConsumption)
            .where(inArray(monthlyConsumption.sensorId, sensorIds)),
        )
      : 0,
  };
}
