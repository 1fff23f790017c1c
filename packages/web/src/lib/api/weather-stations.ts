import { useQuery } from '@tanstack/react-query';
import type { WeatherStation } from '@tankportal/shared/schemas/weather';
import { api } from '../api-client.ts';
import type { JsonOf } from './json.ts';

/**
 * The weather stations of the forecast: the system area keeps them, a device's settings
 * choose one of them; both read this one list.
 */
export type WeatherStationView = JsonOf<WeatherStation>;

export const weatherStationKeys = {
  all: ['weather-stations'] as const,
};

/** `GET /v2/weather-stations` (any signed-in role), ordered by name. */
export function useWeatherStations() {
  return useQuery({
    queryKey: weatherStationKeys.all,
    queryFn: ({ signal }) => api<WeatherStationView[]>('GET', '/v2/weather-stations', { signal }),
  });
}
