import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DeviceListTotals } from '@tankportal/shared/schemas/devices';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys, type DeviceListItem } from '../../../lib/api/devices.ts';
import {
  listFilterRequestQuery,
  listPageRequestQuery,
  type DeviceListQueryState,
} from '../lib/list-query.ts';

export interface DeviceListPage {
  devices: DeviceListItem[];
}

export type DeviceListRequest = Record<string, string | number | boolean | undefined>;

/**
 * One page of `GET /v2/devices`, uncounted: the count and footer totals of the filter come once
 * per filter from `GET /v2/devices/totals` (useDeviceListTotals), not again with every page.
 */
export async function fetchDeviceListPage(
  query: DeviceListRequest,
  signal?: AbortSignal,
): Promise<DeviceListPage> {
  const devices = await api<DeviceListItem[]>('GET', '/v2/devices', {
    query: { ...query, counts: false },
    signal,
  });
  return { devices };
}

/** `GET /v2/devices/totals`: the counts and footer totals of every device the filter matches. */
export function fetchDeviceListTotals(filter: DeviceListRequest, signal?: AbortSignal) {
  return api<DeviceListTotals>('GET', '/v2/devices/totals', { query: filter, signal });
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

/**
 * The count and footer totals of the list's filter: asked for once per filter (another page, page
 * size, sort or grouping finds them cached), again after a report like the page itself (its key is
 * a list key, which the live updates refresh).
 */
export const deviceListTotalsQuery = (state: Parameters<typeof listFilterRequestQuery>[0]) => {
  const filter = listFilterRequestQuery(state);
  return {
    queryKey: deviceKeys.listTotals(filter),
    queryFn: ({ signal }: { signal?: AbortSignal }) => fetchDeviceListTotals(filter, signal),
  };
};

export function useDeviceListTotals(state: DeviceListQueryState) {
  return useQuery({ ...deviceListTotalsQuery(state), placeholderData: keepPreviousData });
}
