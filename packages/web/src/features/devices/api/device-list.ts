import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DeviceSummary } from '@tankportal/shared/schemas/devices';
import { deviceKeys } from '../../../lib/api/devices.ts';
import type { JsonOf } from '../../../lib/api/json.ts';
import { fetchPage } from '../../../lib/api/paged.ts';
import { listPageRequestQuery, type DeviceListQueryState } from '../lib/list-query.ts';

export type DeviceListItem = JsonOf<DeviceSummary>;

export interface DeviceListPage {
  devices: DeviceListItem[];
  /** x-total-count: every device matching the filter. */
  total: number;
  /** x-location-enabled-devices-count: the map is offered only when this is above 0. */
  locationEnabledCount: number;
}

export type DeviceListRequest = Record<string, string | number | boolean | undefined>;

/** One page of `GET /v2/devices` with the counts from its headers. */
export async function fetchDeviceListPage(
  query: DeviceListRequest,
  signal?: AbortSignal,
): Promise<DeviceListPage> {
  const { items, total, headers } = await fetchPage<DeviceListItem>('/v2/devices', query, signal);
  return {
    devices: items,
    total,
    locationEnabledCount: Number(headers.get('x-location-enabled-devices-count') ?? 0),
  };
}

/** The list page for a query state; the previous page stays on screen while the next one loads. */
export function useDeviceList(state: DeviceListQueryState) {
  const query = listPageRequestQuery(state);
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: ({ signal }) => fetchDeviceListPage(query, signal),
    placeholderData: keepPreviousData,
  });
}
