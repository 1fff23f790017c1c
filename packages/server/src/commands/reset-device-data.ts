import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { changedFields, recordChange, type ChangeAuthor } from './audit-log.ts';
import {
  alarms,
  deliveries,
  devices,
  healthIssues,
  measurements,
  monthlyConsumption,
  sensorChecks,
  sensorForecasts,
  sensors,
} from '../db/schema.ts';

/**
 * "Reset all measurements": the device starts over as if it had never
 * reported. Measurements, monthly consumption, alarms and what was learnt from the readings
 * (forecasts, deliveries, health doubts, the checks' marks) go; the sensors' last values and the
 * device's last report, status and threshold state are cleared. Configuration, sensors, owner,
 * access and the message log stay. One transaction that first locks the device row, as the ingest
 * does (ingest/store-batch.ts): a report arriving meanwhile is stored before or after, never half.
 */
export async function resetDeviceData(
  db: Executor,
  deviceId: number,
  author: ChangeAuthor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [device] = await tx
      .select({ lastReportedAt: devices.lastReportedAt })
      .from(devices)
      .where(eq(devices.id, deviceId))
      .for('update');
    if (!device) return false;
    const ofDevice = tx.select({ id: sensors.id }).from(sensors).where(eq(sensors.deviceId, deviceId));
    await tx.delete(measurements).where(inArray(measurements.sensorId, ofDevice));
    await tx.delete(monthlyConsumption).where(inArray(monthlyConsumption.sensorId, ofDevice));
    await tx.delete(alarms).where(eq(alarms.deviceId, deviceId));
    await tx.delete(sensorForecasts).where(eq(sensorForecasts.deviceId, deviceId));
    await tx.delete(deliveries).where(eq(deliveries.deviceId, deviceId));
    await tx.delete(healthIssues).where(eq(healthIssues.deviceId, deviceId));
    await tx.delete(sensorChecks).where(inArray(sensorChecks.sensorId, ofDevice));
    await tx
      .update(sensors)
      .set({
        value: null,
        pct: null,
        netPct: null,
        netFreeSpace: null,
        temperatureValue: null,
        status: 'ok',
        lastMeasuredAt: null,
      })
      .where(eq(sensors.deviceId, deviceId));
    await tx
      .update(devices)
      .set({
        lastReportedAt: null,
        status: 'ok',
        thresholdStatus: 'ok',
        thresholdConfirmationStatus: null,
      })
      .where(eq(devices.id, deviceId));
    // The readings themselves are not listed: the record says when the device last reported.
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: 'reset_data',
      changes: changedFields(device, { lastReportedAt: null }),
    });
    return true;
  });
}

/** "GPS reset" (master): forgets the device's last reported location; the next report sets it again. */
export async function resetGpsData(db: Executor, deviceId: number, author: ChangeAuthor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ locationLat: devices.locationLat, locationLng: devices.locationLng })
      .from(devices)
      .where(eq(devices.id, deviceId));
    if (!before) return false;
    await tx
      .update(devices)
      .set({ locationLat: null, locationLng: null, locationUpdatedAt: null })
      .where(eq(devices.id, deviceId));
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: 'reset_gps',
      changes: changedFields(before, { locationLat: null, locationLng: null }),
    });
    return true;
  });
}
