import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateDeviceBody, CreatedDevice } from '@tankportal/shared/schemas/device-create';
import type { AssignToUserBody } from '@tankportal/shared/schemas/device-metadata';
import { api } from '../../../lib/api-client.ts';
import { lookupQuery } from '../../../lib/lookups.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

// Create device (devices-area §4, contracts §6): the unassigned senders a new device may take its
// ident from, the SMS gateways, the creation and the assignment to a user afterwards.

/** A sender the system does not know yet (`GET /v2/devices/unassigned/{kind}`). */
export interface UnassignedDevice {
  id: number;
  /** Its ident code (net), thing name (IoT) or ICCID (LX-IoT). */
  ident: string;
  host: string | null;
  lastReportedAt: string;
}

export type UnassignedKind = 'net' | 'iot' | 'lx_iot';

/** Admins only; a failure to load is swallowed (devices-area §8): the choice then offers nothing. */
export function useUnassignedDevices(kind: UnassignedKind | null) {
  return useQuery({
    queryKey: deviceKeys.unassigned(kind),
    queryFn: ({ signal }) =>
      api<UnassignedDevice[]>('GET', `/v2/devices/unassigned/${kind!.replace('_', '-')}`, { signal }),
    enabled: kind !== null,
  });
}

/** One entry of the SMS gateway lookup (portal-area §3). */
export interface SmsGateway {
  id: number;
  label: string;
  provider: 'lionel' | '1nce';
  owner: string;
  country: string;
}

export function useSmsGateways() {
  const query = useQuery(lookupQuery('smsGateways'));
  return (query.data ?? []) as SmsGateway[];
}

export type CreatedDeviceView = JsonOf<CreatedDevice>;

/** POST /v2/devices; the lists that show devices are reloaded afterwards. */
export function useCreateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDeviceBody) => api<CreatedDeviceView>('POST', '/v2/devices', { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}

/** PUT /v2/devices/{id}/assign-to-user. */
export function useAssignToUser(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AssignToUserBody) =>
      api<unknown>('PUT', `/v2/devices/${deviceId}/assign-to-user`, { body }),
    // The dialog shows the failure at the user field.
    meta: { errorToast: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}
