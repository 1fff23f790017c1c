import { useQuery } from '@tanstack/react-query';
import type { DeviceDetail } from '@tankportal/shared/schemas/devices';
import type { DevicePermission } from '@tankportal/shared/devices';
import { api } from '../api-client.ts';

/** A server type as it arrives over JSON: every Date is an ISO string. */
export type JsonOf<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? JsonOf<Item>[]
    : T extends object
      ? { [Key in keyof T]: JsonOf<T[Key]> }
      : T;

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

export const deviceQueryKey = (deviceId: number) => ['devices', 'detail', deviceId] as const;

/** One device; a failure is not retried (the pages send the user back to the list at once). */
export function useDevice(deviceId: number) {
  return useQuery({
    queryKey: deviceQueryKey(deviceId),
    queryFn: ({ signal }) => api<DeviceDetailView>('GET', `/v2/devices/${deviceId}`, { signal }),
    retry: false,
  });
}

export function hasDevicePermission(
  device: Pick<DeviceDetailView, 'permissions'>,
  permission: DevicePermission,
): boolean {
  return device.permissions.includes(permission);
}
