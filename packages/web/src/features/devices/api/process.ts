import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SensorType } from '@tankportal/shared/devices';
import { apiResponse, api } from '../../../lib/api-client.ts';

/** devices-area §9: the process curve loads at most this many rows per sensor. */
export const PROCESS_ROW_LIMIT = 25_000;

export interface ProcessPoint {
  /** Opaque id of the data point, for hiding it (contract §3). */
  id: string;
  timestamp: string;
  value: number | null;
  percent: number | null;
  temperature: number | null;
}

export interface ProcessSeries {
  sensorId: number;
  sequence: number;
  name: string;
  type: SensorType;
  unit: string;
  data: ProcessPoint[];
}

export interface ProcessData {
  series: ProcessSeries[];
  /** First measurement of the device; null means "no data" (header x-process-start absent). */
  start: string | null;
}

const processKey = (deviceId: number) => ['devices', 'process', deviceId] as const;

/** `GET /v2/devices/{id}/process`; a failure counts as "no data" (devices-area §8: swallowed). */
export function useProcess(deviceId: number) {
  return useQuery({
    queryKey: processKey(deviceId),
    queryFn: async ({ signal }): Promise<ProcessData> => {
      try {
        const { data, headers } = await apiResponse<ProcessSeries[]>(
          'GET',
          `/v2/devices/${deviceId}/process`,
          {
            query: { limit: PROCESS_ROW_LIMIT },
            signal,
          },
        );
        return { series: data, start: headers.get('x-process-start') };
      } catch {
        return { series: [], start: null };
      }
    },
    retry: false,
  });
}

/** Hides one data point (superadmin and above); curve and consumption of the device reload. */
export function useHideSensorData(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pointId: string) => api<void>('DELETE', `/v2/sensor-data/${encodeURIComponent(pointId)}`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: processKey(deviceId) }),
        queryClient.invalidateQueries({ queryKey: ['devices', 'consumption', deviceId] }),
      ]),
  });
}
