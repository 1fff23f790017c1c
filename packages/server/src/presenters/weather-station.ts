import type { WeatherStation } from '@tankportal/shared/schemas/weather';
import type { weatherStations } from '../db/schema.ts';

type WeatherStationRow = typeof weatherStations.$inferSelect;

/** A station with the days stored of it (none before its first import). */
export function presentWeatherStation(
  station: WeatherStationRow,
  coverage: { days: number; lastDay: string | null } | undefined,
): WeatherStation {
  return {
    id: station.id,
    name: station.name,
    lat: station.lat,
    lng: station.lng,
    importedAt: station.importedAt,
    importError: (station.importError as WeatherStation['importError']) ?? null,
    days: coverage?.days ?? 0,
    lastDay: coverage?.lastDay ?? null,
  };
}
