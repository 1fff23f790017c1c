import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices, sensorForecasts, weatherStations } from '../db/schema.ts';
import { invalidFields, notFound } from '../http-error.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { weatherStationExists } from '../repositories/weather-stations.ts';

/** The weather stations a master keeps, and the station a device's forecast is to use. */

/** Adds a station (its days come with the next import); a station kept already is a conflict. */
export async function addWeatherStation(db: Db, station: typeof weatherStations.$inferInsert) {
  const taken = () => invalidFields([{ path: 'id', code: 'conflict', args: {} }]);
  if (await weatherStationExists(db, station.id)) throw taken();
  try {
    await db.insert(weatherStations).values(station);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Removes a station and its days; 404 when there is none. */
export async function removeWeatherStation(db: Db, id: string) {
  const removed = await db
    .delete(weatherStations)
    .where(eq(weatherStations.id, id))
    .returning({ id: weatherStations.id });
  if (removed.length === 0) throw notFound();
}

/**
 * Sets the device's station (null: the nearest within reach); a station not kept is a field error.
 * The device's forecasts are due again with the next round, on the new station's temperatures.
 */
export async function setDeviceWeatherStation(db: Db, deviceId: number, stationId: string | null) {
  if (stationId !== null && !(await weatherStationExists(db, stationId)))
    throw invalidFields([{ path: 'weatherStationId', code: 'invalid', args: {} }]);
  await db.transaction(async (tx) => {
    await tx.update(devices).set({ weatherStationId: stationId }).where(eq(devices.id, deviceId));
    await tx
      .update(sensorForecasts)
      .set({ computedAt: new Date(0) })
      .where(eq(sensorForecasts.deviceId, deviceId));
  });
}
