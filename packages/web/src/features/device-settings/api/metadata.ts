import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ActiveFlagBody,
  CommentBody,
  MetadataBody,
  PublicUrlBody,
} from '@tankportal/shared/schemas/device-metadata';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys, type DeviceDetailView } from '../../../lib/api/devices.ts';

/**
 * The metadata tab's calls. The saves answer the device detail; the tab reloads
 * the device itself after closing its dialog.
 */

/** PUT /v2/devices/{id}/metadata: name, project, address, and the owner for admins holding DELETE. */
export function useSaveMetadata(deviceId: number) {
  return useMutation({
    mutationFn: (body: MetadataBody) =>
      api<DeviceDetailView>('PUT', `/v2/devices/${deviceId}/metadata`, { body }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** Which of the two comments: the user's, or the master's (ROLE_MASTER only). */
export type CommentKind = 'comment' | 'master-comment';

/** PUT /v2/devices/{id}/comment or /master-comment. */
export function useSaveComment(deviceId: number, kind: CommentKind) {
  return useMutation({
    mutationFn: (body: CommentBody) =>
      api<DeviceDetailView>('PUT', `/v2/devices/${deviceId}/${kind}`, { body }),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/** PUT /v2/devices/{id}/public-url: the server creates the token on first enabling. */
export function useSavePublicUrl(deviceId: number) {
  return useMutation({
    mutationFn: (publicUrlAccessEnabled: boolean) =>
      api<DeviceDetailView>('PUT', `/v2/devices/${deviceId}/public-url`, {
        body: { publicUrlAccessEnabled } satisfies PublicUrlBody,
      }),
  });
}

/** PUT /v2/devices/{id}/active-flag. */
export function useSaveActiveFlag(deviceId: number) {
  return useMutation({
    mutationFn: (active: boolean) =>
      api<DeviceDetailView>('PUT', `/v2/devices/${deviceId}/active-flag`, {
        body: { active } satisfies ActiveFlagBody,
      }),
  });
}

/**
 * Every query about the device (detail, process curve, consumption...) goes; lists and pickers
 * show the device too: they reload when next shown.
 */
function forgetDevice(queryClient: QueryClient, deviceId: number) {
  queryClient.removeQueries({ queryKey: deviceKeys.one(deviceId) });
  return queryClient.invalidateQueries({ queryKey: deviceKeys.all });
}

/** DELETE /v2/devices/{id} (ROLE_MASTER). */
export function useDeleteDevice(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('DELETE', `/v2/devices/${deviceId}`),
    // The pages still shown ask for the device again, get a 404 and lead to the list, where the
    // dialog is going anyway.
    onSuccess: () => void forgetDevice(queryClient, deviceId),
  });
}

/**
 * POST /v2/devices/{id}/reset-data (ROLE_MASTER, or EDIT where the white-label allows it):
 * measurements, consumption and alarms are gone, so the curve and consumption load afresh.
 */
export function useResetData(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('POST', `/v2/devices/${deviceId}/reset-data`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.one(deviceId) }),
  });
}

/** POST /v2/devices/{id}/reset-gps-data (ROLE_MASTER): the device's location is forgotten. */
export function useResetGps(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('POST', `/v2/devices/${deviceId}/reset-gps-data`),
    // The map shows the device's location.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.map() }),
  });
}
