import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceWeather } from '@tankportal/shared/schemas/weather';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';

/** Which weather station the device's forecast uses: its own, the nearest, or none. */
export type { DeviceWeather };

const deviceWeatherKey = (deviceId: number) => [...deviceKeys.one(deviceId), 'weather-station'] as const;

/** `GET /v2/devices/{id}/weather-station` (VIEW_STATUS). */
export function useDeviceWeatherStation(deviceId: number) {
  return useQuery({
    queryKey: deviceWeatherKey(deviceId),
    queryFn: ({ signal }) => api<DeviceWeather>('GET', `/v2/devices/${deviceId}/weather-station`, { signal }),
  });
}

/**
 * `PUT /v2/devices/{id}/weather-station` (EDIT): a station's id, or null for the nearest one. It
 * answers what is in effect now; the forecast follows with its next round.
 */
export function useSaveDeviceWeatherStation(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (weatherStationId: string | null) =>
      api<DeviceWeather>('PUT', `/v2/devices/${deviceId}/weather-station`, { body: { weatherStationId } }),
    onSuccess: (weather) => queryClient.setQueryData(deviceWeatherKey(deviceId), weather),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}
