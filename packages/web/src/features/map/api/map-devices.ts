import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceMapEntry } from '@tankportal/shared/schemas/devices';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

/** Just what the map draws. */
export type MapDevice = JsonOf<DeviceMapEntry>;

/**
 * Every device with a location the actor may see, in one compact answer: the map's call
 * `location_enabled_only=true` with `view=map` (no pages, only the fields drawn).
 */
export function fetchMapDevices(signal?: AbortSignal): Promise<MapDevice[]> {
  return api<MapDevice[]>('GET', '/v2/devices', {
    query: { locationEnabledOnly: true, view: 'map' },
    signal,
  });
}

/** The map's query: the dialog reads it, the list page starts it early when opened at /devices/map. */
export const mapDevicesQuery = queryOptions({
  queryKey: deviceKeys.map(),
  queryFn: ({ signal }) => fetchMapDevices(signal),
  staleTime: 60_000,
});

export function useMapDevices() {
  return useQuery(mapDevicesQuery);
}
