import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Delivery } from '@tankportal/shared/schemas/tank-health';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

/** A delivery (refill) as the web receives it (dates as ISO strings). */
export type DeliveryView = JsonOf<Delivery>;

/** Under the device's key: removing or invalidating the device reaches its deliveries too. */
export const deliveriesKey = (deviceId: number) => [...deviceKeys.one(deviceId), 'deliveries'] as const;

/**
 * `GET /v2/devices/{id}/deliveries`: the refills recognised in the device's level
 * sensors, newest first. The process page marks them on the curve and lists them below it.
 */
export const deliveriesQuery = (deviceId: number) =>
  queryOptions({
    queryKey: deliveriesKey(deviceId),
    queryFn: ({ signal }) => api<DeliveryView[]>('GET', `/v2/devices/${deviceId}/deliveries`, { signal }),
  });

export function useDeliveries(deviceId: number) {
  return useQuery(deliveriesQuery(deviceId));
}
