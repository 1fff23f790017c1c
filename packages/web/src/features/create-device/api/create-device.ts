import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateDeviceBody, CreatedDevice } from '@tankportal/shared/schemas/device-create';
import type { AssignToUserBody } from '@tankportal/shared/schemas/device-metadata';
import { api } from '../../../lib/api-client.ts';
import { lookupQuery } from '../../../lib/lookups.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

// Create device: the unassigned senders a new device may take its
// ident from, the SMS gateways, the creation and the assignment to a user afterwards.

export {
  useUnassignedDevices,
  type UnassignedDevice,
  type UnassignedKind,
} from '../../../lib/api/unassigned-devices.ts';

/** One entry of the SMS gateway lookup. */
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
