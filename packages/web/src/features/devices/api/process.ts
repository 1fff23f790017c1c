import { useEffect } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  decodeProcessColumns,
  type ProcessColumnsSeries,
  type ProcessColumnsWire,
} from '@tankportal/shared/schemas/process';
import { apiResponse, api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';

/** The process curve loads at most this many rows per sensor. */
export const PROCESS_ROW_LIMIT = 25_000;

export type { ProcessPoint } from '@tankportal/shared/schemas/process';

/**
 * One sensor's curve as the chart reads it: parallel arrays of times (epoch ms, ascending) and
 * values, one entry per point (docs/decisions/057-process-curve-in-columns.md).
 */
export type ProcessSeries = ProcessColumnsSeries;

export interface ProcessData {
  series: ProcessSeries[];
  /** First measurement of the device; null means "no data" (header x-process-start absent). */
  start: string | null;
}

/** How long a loaded curve counts as current. */
const PROCESS_FRESH_MS = 30_000;

/** `GET /v2/devices/{id}/process?format=columns`; a failure counts as "no data" (swallowed). */
const processQuery = (deviceId: number) =>
  queryOptions({
    queryKey: deviceKeys.process(deviceId),
    queryFn: async ({ signal }): Promise<ProcessData> => {
      try {
        const { data, headers } = await apiResponse<ProcessColumnsWire[]>(
          'GET',
          `/v2/devices/${deviceId}/process`,
          {
            query: { limit: PROCESS_ROW_LIMIT, format: 'columns' },
            signal,
          },
        );
        return { series: data.map(decodeProcessColumns), start: headers.get('x-process-start') };
      } catch {
        return { series: [], start: null };
      }
    },
    retry: false,
    // Prefetched by the device pages: the page mounting a moment later must not load the
    // megabytes again (hiding a point invalidates the curve explicitly).
    staleTime: PROCESS_FRESH_MS,
  });

export function useProcess(deviceId: number) {
  return useQuery(processQuery(deviceId));
}

/**
 * Starts loading the process curve before the process page mounts (which waits for the device):
 * its answer is the largest of the device pages (megabytes for 2 × 25,000 rows).
 */
export function usePrefetchProcess(deviceId: number, enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (enabled) void queryClient.prefetchQuery(processQuery(deviceId));
  }, [queryClient, deviceId, enabled]);
}

/** Hides one data point (superadmin and above); curve and consumption of the device reload. */
export function useHideSensorData(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pointId: string) => api<void>('DELETE', `/v2/sensor-data/${encodeURIComponent(pointId)}`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceKeys.process(deviceId) }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.consumption(deviceId) }),
      ]),
  });
}
