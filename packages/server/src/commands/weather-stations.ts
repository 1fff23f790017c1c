import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices, sensorForecasts, weatherStations } from '../db/schema.ts';
import { invalidFields, notFound } from '../http-error.ts';
import { fieldsBefore } from './device-lifecycle.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { weatherStationExists } from '../repositories/weather-stations.ts';
import { changedFields, createdFields, recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';

/** The weather stations a master keeps, and the station a device's forecast is to use. */

/** A station's record: its DWD id is digits only (shared/schemas/weather.ts), so a number. */
const stationChange = (id: string) => ({ entityType: 'weather_station' as const, entityId: Number(id) });

/** Adds a station (its days come with the next import); a station kept already is a conflict. */
export async function addWeatherStation(
  db: Db,
  author: ChangeAuthor,
  station: Pick<typeof weatherStations.$inferInsert, 'id' | 'name' | 'lat' | 'lng'>,
) {
  const taken = () => invalidFields([{ path: 'id', code: 'conflict', args: {} }]);
  if (await weatherStationExists(db, station.id)) throw taken();
  try {
    await db.transaction(async (tx) => {
      await tx.insert(weatherStations).values(station);
      await recordChange(tx, author, {
        ...stationChange(station.id),
        action: 'add',
        changes: createdFields(station),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Removes a station and its days; 404 when there is none. */
export async function removeWeatherStation(db: Db, author: ChangeAuthor, id: string) {
  await db.transaction(async (tx) => {
    const [removed] = await tx.delete(weatherStations).where(eq(weatherStations.id, id)).returning({
      name: weatherStations.name,
      lat: weatherStations.lat,
      lng: weatherStations.lng,
    });
    if (!removed) throw notFound();
    await recordChange(tx, author, {
      ...stationChange(id),
      action: 'remove',
      changes: removedFields(removed),
    });
  });
}

/**
 * Sets the device's station (null: the nearest within reach); a station not kept is a field error.
 * The device's forecasts are due again with the next round, on the new station's temperatures.
 */
export async function setDeviceWeatherStation(
  db: Db,
  author: ChangeAuthor,
  deviceId: number,
  stationId: string | null,
) {
  if (stationId !== null && !(await weatherStationExists(db, stationId)))
    throw invalidFields([{ path: 'weatherStationId', code: 'invalid', args: {} }]);
  await db.transaction(async (tx) => {
    const before = await fieldsBefore(tx, deviceId, ['weatherStationId']);
    await tx.update(devices).set({ weatherStationId: stationId }).where(eq(devices.id, deviceId));
    await recordChange(tx, author, {
      entityType: 'device',
      entityId: deviceId,
      deviceId,
      action: 'update_weather_station',
      changes: changedFields(before ?? {}, { weatherStationId: stationId }),
    });
    await tx
      .update(sensorForecasts)
      .set({ computedAt: new Date(0) })
      .where(eq(sensorForecasts.deviceId, deviceId));
  });
}
