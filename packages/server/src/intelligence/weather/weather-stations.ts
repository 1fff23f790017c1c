/**
 * Weather stations and their daily means in the database: the daily import, and which
 * station's temperatures a device's forecast uses — its own station, else the nearest station
 * with data within MAX_STATION_KM of its location, else none (the forecast then takes the long-term
 * normals, docs/forecast.md).
 */
import { and, asc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { DeviceWeather } from '@tankportal/shared/schemas/weather';
import type { Db } from '../../db/client.ts';
import { devices, weatherDaily, weatherStations } from '../../db/schema.ts';
import { notFound } from '../../http-error.ts';
import { FORECAST_RULES } from '../forecast.ts';
import { fetchDwdStation, WeatherImportError } from './dwd.ts';

const DAY_MS = 86_400_000;
/** Daily means differ little within this distance in German lowlands; beyond it normals serve as well. */
export const MAX_STATION_KM = 100;

export interface StationChoice {
  id: string;
  name: string;
  /** 'device': set on the device; 'nearest': chosen by its location. */
  chosen: 'device' | 'nearest';
  distanceKm: number | null;
}

/** Great-circle distance in km (haversine; the earth as a sphere is exact enough for "nearest"). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

type Station = typeof weatherStations.$inferSelect;
interface Located {
  weatherStationId: string | null;
  locationLat: number | null;
  locationLng: number | null;
}

/** The station of a device among `stations` (see the module comment). */
export function chooseStation(device: Located, stations: readonly Station[]): StationChoice | null {
  if (device.weatherStationId) {
    const own = stations.find((station) => station.id === device.weatherStationId);
    if (own) return { id: own.id, name: own.name, chosen: 'device', distanceKm: distanceTo(device, own) };
  }
  if (device.locationLat === null || device.locationLng === null) return null;
  let best: StationChoice | null = null;
  for (const station of stations) {
    if (!station.importedAt) continue;
    const km = distanceKm({ lat: device.locationLat, lng: device.locationLng }, station);
    if (km <= MAX_STATION_KM && (!best || km < best.distanceKm!))
      best = { id: station.id, name: station.name, chosen: 'nearest', distanceKm: km };
  }
  return best;
}

function distanceTo(device: Located, station: Station): number | null {
  if (device.locationLat === null || device.locationLng === null) return null;
  return distanceKm({ lat: device.locationLat, lng: device.locationLng }, station);
}

/** The stations, read once per call: a promise, not a query builder that runs again at every await. */
export async function listStations(db: Db): Promise<Station[]> {
  return db.select().from(weatherStations).orderBy(asc(weatherStations.name), asc(weatherStations.id));
}

/** The device's own station, whether it is located, and the station its forecast uses; 404 for none. */
export async function deviceWeather(db: Db, deviceId: number): Promise<DeviceWeather> {
  const [device] = await db
    .select({
      weatherStationId: devices.weatherStationId,
      locationLat: devices.locationLat,
      locationLng: devices.locationLng,
    })
    .from(devices)
    .where(eq(devices.id, deviceId));
  if (!device) throw notFound();
  return {
    weatherStationId: device.weatherStationId,
    located: device.locationLat !== null && device.locationLng !== null,
    station: chooseStation(device, await listStations(db)),
  };
}

/**
 * Temperatures for one round of forecasts: each station's daily means are read once and shared by
 * every device that uses it.
 */
export class WeatherLookup {
  private stations: Promise<Station[]> | undefined;
  private readonly byStation = new Map<string, Promise<Map<string, number>>>();

  private readonly db: Db;
  private readonly now: Date;

  constructor(db: Db, now: Date) {
    this.db = db;
    this.now = now;
  }

  async temperaturesFor(device: Located): Promise<Map<string, number>> {
    this.stations ??= listStations(this.db);
    const choice = chooseStation(device, await this.stations);
    if (!choice) return new Map();
    let temperatures = this.byStation.get(choice.id);
    if (!temperatures) {
      temperatures = readTemperatures(this.db, choice.id, this.now);
      this.byStation.set(choice.id, temperatures);
    }
    return temperatures;
  }
}

async function readTemperatures(db: Db, stationId: string, now: Date): Promise<Map<string, number>> {
  const from = new Date(now.getTime() - FORECAST_RULES.historyDays * DAY_MS).toISOString().slice(0, 10);
  const rows = await db
    .select({ day: weatherDaily.day, mean: weatherDaily.meanTemperature })
    .from(weatherDaily)
    .where(and(eq(weatherDaily.stationId, stationId), gte(weatherDaily.day, from)));
  return new Map(rows.map((row) => [row.day, row.mean]));
}

export interface ImportResult {
  stationId: string;
  days: number;
  lastDay: string | null;
  error: WeatherImportError['reason'] | null;
}

/** Imports one station's recent daily means (idempotent: a day imported again takes the newer value). */
export async function importStation(db: Db, stationId: string, baseUrl: string): Promise<ImportResult> {
  try {
    const days = await fetchDwdStation(baseUrl, stationId);
    await db.transaction(async (tx) => {
      for (let i = 0; i < days.length; i += 1_000)
        await tx
          .insert(weatherDaily)
          .values(days.slice(i, i + 1_000).map((day) => ({ stationId, ...day })))
          .onConflictDoUpdate({
            target: [weatherDaily.stationId, weatherDaily.day],
            set: { meanTemperature: sql`excluded.mean_temperature` },
          });
      await tx
        .update(weatherStations)
        .set({ importedAt: new Date(), importError: null })
        .where(eq(weatherStations.id, stationId));
    });
    return { stationId, days: days.length, lastDay: days.at(-1)?.day ?? null, error: null };
  } catch (error) {
    if (!(error instanceof WeatherImportError)) throw error;
    await db
      .update(weatherStations)
      .set({ importError: error.reason })
      .where(eq(weatherStations.id, stationId));
    return { stationId, days: 0, lastDay: null, error: error.reason };
  }
}

/** The daily import of every station (the job `weather-import`). */
export async function importAllStations(db: Db, baseUrl: string): Promise<ImportResult[]> {
  const results = [];
  for (const station of await listStations(db)) results.push(await importStation(db, station.id, baseUrl));
  return results;
}

/** Per station: how many days are stored and the last one (for the stations' list). */
export async function stationCoverage(
  db: Db,
): Promise<Map<string, { days: number; lastDay: string | null }>> {
  const rows = await db
    .select({
      stationId: weatherDaily.stationId,
      days: sql<number>`count(*)`.mapWith(Number),
      lastDay: sql<string | null>`max(${weatherDaily.day})::text`,
    })
    .from(weatherDaily)
    .innerJoin(weatherStations, eq(weatherStations.id, weatherDaily.stationId))
    .where(isNotNull(weatherStations.importedAt))
    .groupBy(weatherDaily.stationId);
  return new Map(rows.map((row) => [row.stationId, { days: row.days, lastDay: row.lastDay }]));
}
