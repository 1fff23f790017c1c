import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceDetail, DeviceSummary } from '@tankportal/shared/schemas/devices';
import type { DevicePermission, DeviceType } from '@tankportal/shared/devices';
import { api } from '../api-client.ts';
import type { JsonOf } from './json.ts';

/**
 * The query keys of everything about devices, in one place: a key is a prefix of the keys below
 * it, so invalidating or removing by a key reaches all of them (`deviceKeys.one(5)`: the device,
 * its curve, consumption, recipients, access entries and recorded changes).
 */
export const deviceKeys = {
  /** Lists, pickers, the map and every device. */
  all: ['devices'] as const,
  list: (query: unknown) => [...deviceKeys.all, 'list', query] as const,
  /** The list's count and footer totals of a filter: a list key too, refreshed with the pages. */
  listTotals: (filter: unknown) => [...deviceKeys.all, 'list', 'totals', filter] as const,
  /** The ids of the list's current query, for the quick navigation between devices. */
  navigationIds: (query: unknown) => [...deviceKeys.all, 'ids', 'navigation', query] as const,
  /** Every picker's search; those of a user's access dialog change with its access entries. */
  pickers: () => [...deviceKeys.all, 'picker'] as const,
  picker: (filter: unknown) => [...deviceKeys.pickers(), filter] as const,
  map: () => [...deviceKeys.all, 'map'] as const,
  unassigned: (kind: unknown) => [...deviceKeys.all, 'unassigned', kind] as const,
  listSettings: () => [...deviceKeys.all, 'listSettings'] as const,
  /** Everything about one device. */
  one: (deviceId: number) => [...deviceKeys.all, 'one', deviceId] as const,
  detail: (deviceId: number) => [...deviceKeys.one(deviceId), 'detail'] as const,
  process: (deviceId: number) => [...deviceKeys.one(deviceId), 'process'] as const,
  consumption: (deviceId: number) => [...deviceKeys.one(deviceId), 'consumption'] as const,
  recipients: (deviceId: number) => [...deviceKeys.one(deviceId), 'recipients'] as const,
  aces: (deviceId: number) => [...deviceKeys.one(deviceId), 'aces'] as const,
  /** One page of the device's recorded changes (its settings' changes tab). */
  changes: (deviceId: number, page: number) => [...deviceKeys.one(deviceId), 'changes', page] as const,
};

/** A row of `GET /v2/devices` as the web receives it (the list, and the queries' device choice). */
export type DeviceListItem = JsonOf<DeviceSummary>;

/** `GET /v2/devices/{id}` as the web receives it. */
export type DeviceDetailView = JsonOf<DeviceDetail>;
export type SensorView = DeviceDetailView['sensors'][number];
export type AlarmView = DeviceDetailView['alarms'][number];

/** The sensor fields the status displays use; the public status page receives exactly these. */
export type StatusSensor = Pick<
  SensorView,
  | 'sequence'
  | 'name'
  | 'type'
  | 'subType'
  | 'contentType'
  | 'capacity'
  | 'unit'
  | 'status'
  | 'isConnected'
  | 'value'
  | 'pct'
  | 'netPct'
  | 'netFreeSpace'
  | 'temperatureValue'
  | 'temperatureUnit'
  | 'temperatureLimitType'
  | 'temperatureLimitValue'
  | 'lastMeasuredAt'
>;

/** One device; a failure is not retried (the pages send the user back to the list at once). */
export const deviceQuery = (deviceId: number) =>
  queryOptions({
    queryKey: deviceKeys.detail(deviceId),
    queryFn: ({ signal }) => api<DeviceDetailView>('GET', `/v2/devices/${deviceId}`, { signal }),
    retry: false,
  });

export function useDevice(deviceId: number) {
  return useQuery(deviceQuery(deviceId));
}

export function hasDevicePermission(
  device: Pick<DeviceDetailView, 'permissions'>,
  permission: DevicePermission,
): boolean {
  return device.permissions.includes(permission);
}

/** What the device picker hands back: enough to name the device in a form. */
export interface PickedDevice {
  id: number;
  name: string;
  city: string | null;
  username: string;
}

/** A device as the picker names it (a filter's device named in the address). */
export const pickedDeviceOf = (device: DeviceDetailView): PickedDevice => ({
  id: device.id,
  name: device.name,
  city: device.address.city,
  username: device.user.username,
});

/** The device picker's search apart from the typed term. */
export interface DevicePickerFilter {
  perPage: number;
  sort: string;
  /** Only devices on which the signed-in user holds this permission. */
  permission?: DevicePermission;
  /** Only devices of these types (comma-separated). */
  type?: DeviceType | string;
  /** Only devices this user neither owns nor holds an access entry on. */
  notReachedBy?: number;
}

interface PickerAnswer {
  id: number;
  name: string;
  address: { city: string | null };
  user: { username: string };
}

/** `GET /v2/devices` searched by number, name, address, user or ident, for the device picker. */
export async function searchPickerDevices(
  filter: DevicePickerFilter,
  searchTerm: string | undefined,
  signal: AbortSignal,
): Promise<PickedDevice[]> {
  const devices = await api<PickerAnswer[]>('GET', '/v2/devices', {
    query: { ...filter, searchTerm },
    signal,
  });
  return devices.map((device) => ({
    id: device.id,
    name: device.name,
    city: device.address.city,
    username: device.user.username,
  }));
}
