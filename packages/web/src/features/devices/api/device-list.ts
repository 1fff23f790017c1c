import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  SENSOR_TOTALS_HEADER,
  sensorTotalsSchema,
  type DeviceSummary,
  type SensorTotals,
} from '@tankportal/shared/schemas/devices';
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
  /** x-sensor-totals: the footer totals per unit over every device matching the filter. */
  sensorTotals: SensorTotals;
}

/** The footer totals from their header; none when it is missing or not readable. */
function sensorTotalsOf(headers: Headers): SensorTotals {
  const text = headers.get(SENSOR_TOTALS_HEADER);
  if (!text) return [];
  try {
    const parsed = sensorTotalsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
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
    sensorTotals: sensorTotalsOf(headers),
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
