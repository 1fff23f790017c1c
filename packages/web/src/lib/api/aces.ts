import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Ace, AceBody, AceUpdateBody } from '@tankportal/shared/schemas/aces';
import { api } from '../api-client.ts';
import { deviceKeys } from './devices.ts';
import { userKeys } from './users.ts';

/** The access entries of a device; every call needs DELETE on the device. */

const acesPath = (deviceId: number) => `/v2/devices/${deviceId}/aces`;

/** GET /v2/devices/{id}/aces, sorted by username. */
export function useAces(deviceId: number) {
  return useQuery({
    queryKey: deviceKeys.aces(deviceId),
    queryFn: ({ signal }) => api<Ace[]>('GET', acesPath(deviceId), { signal }),
  });
}

/** GET /v2/devices/{id}/aces/{aceId}; not retried: a 404 closes the edit dialog at once. */
export function useAce(deviceId: number, aceId: number, enabled = true) {
  return useQuery({
    queryKey: [...deviceKeys.aces(deviceId), aceId],
    queryFn: ({ signal }) => api<Ace>('GET', `${acesPath(deviceId)}/${aceId}`, { signal }),
    retry: false,
    enabled,
  });
}

/**
 * Create, change and delete; the list reloads after each. A failure is silent, only the busy
 * state resets.
 */
export function useAceMutations(deviceId: number) {
  const queryClient = useQueryClient();
  // The device's entries and the access pages of users (an entry is a row of both), and the
  // pickers that offer a user only the devices it does not reach yet.
  const onSuccess = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: deviceKeys.aces(deviceId) }),
      queryClient.invalidateQueries({ queryKey: userKeys.deviceAccess() }),
      queryClient.invalidateQueries({ queryKey: deviceKeys.pickers() }),
    ]);
  const meta = { errorToast: false } as const;
  const create = useMutation({
    mutationFn: (body: AceBody) => api<Ace>('POST', acesPath(deviceId), { body }),
    onSuccess,
    meta,
  });
  const update = useMutation({
    mutationFn: ({ aceId, body }: { aceId: number; body: AceUpdateBody }) =>
      api<Ace>('PUT', `${acesPath(deviceId)}/${aceId}`, { body }),
    onSuccess,
    meta,
  });
  const remove = useMutation({
    mutationFn: (aceId: number) => api<void>('DELETE', `${acesPath(deviceId)}/${aceId}`),
    onSuccess,
    meta,
  });
  return { create, update, remove };
}
