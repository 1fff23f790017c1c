import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WeatherImportFailure } from '../lib/weather-station-texts.ts';
import { api } from '../../../lib/api-client.ts';
import { weatherStationKeys } from '../../../lib/api/weather-stations.ts';

/** What an import brought: the days stored, the last of them, or why it failed. */
export interface WeatherImportResult {
  days: number;
  lastDay: string | null;
  error: WeatherImportFailure | null;
}

/**
 * `POST /v2/weather-stations/{id}/import` (master): fetches the station's recent daily means now
 * (a few seconds); a failure of the weather service is an answer (`error`), not an error.
 */
export function useImportWeatherStation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<WeatherImportResult>('POST', `/v2/weather-stations/${id}/import`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: weatherStationKeys.all }),
  });
}
