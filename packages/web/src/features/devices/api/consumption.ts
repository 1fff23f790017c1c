import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';

/** One row per month, consumption per sensor; newest month first. */
export interface ConsumptionRow {
  year: number;
  month: number;
  data: { sensorId: number; consumption: number }[];
}

export function useConsumption(deviceId: number) {
  return useQuery({
    queryKey: deviceKeys.consumption(deviceId),
    queryFn: ({ signal }) => api<ConsumptionRow[]>('GET', `/v2/devices/${deviceId}/consumption`, { signal }),
  });
}
