import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { weatherStationBody } from '@tankportal/shared/schemas/weather';
import { api } from '../../../lib/api-client.ts';
import { weatherStationKeys, type WeatherStationView } from '../../../lib/api/weather-stations.ts';

export type WeatherStationBody = z.input<typeof weatherStationBody>;

/** `POST /v2/weather-stations` (master): its days come with the next import. */
export function useCreateWeatherStation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WeatherStationBody) =>
      api<WeatherStationView>('POST', '/v2/weather-stations', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: weatherStationKeys.all }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}
