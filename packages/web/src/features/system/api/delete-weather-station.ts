import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';
import { weatherStationKeys } from '../../../lib/api/weather-stations.ts';

/**
 * `DELETE /v2/weather-stations/{id}` (master): the station and its days go; the devices that used
 * it fall back to the nearest station or the long-term normals.
 */
export function useDeleteWeatherStation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', `/v2/weather-stations/${id}`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: weatherStationKeys.all }),
        // A device's choice of station may have changed with it.
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
      ]),
  });
}
