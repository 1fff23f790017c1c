import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfirmationStatus } from '@tankportal/shared/devices';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys, type AlarmView } from '../../../lib/api/devices.ts';

/**
 * The user picks seen, disregard or revoked; seen and disregard are set (PUT),
 * revoked removes the confirmation (DELETE).
 */
function confirm<T>(path: string, status: ConfirmationStatus) {
  return status === 'revoked' ? api<T>('DELETE', path) : api<T>('PUT', path, { body: { status } });
}

/** Confirmation of one open alarm; the device is reloaded afterwards (its status may change). */
export function useAlarmConfirmation(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alarmId, status }: { alarmId: number; status: ConfirmationStatus }) =>
      confirm<AlarmView>(`/v2/alarms/${alarmId}/confirmation`, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
  });
}

/** Confirmation of the device's threshold notice. */
export function useThresholdConfirmation(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: ConfirmationStatus) =>
      confirm<{ thresholdConfirmationStatus: ConfirmationStatus | null }>(
        `/v2/devices/${deviceId}/threshold-confirmation`,
        status,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.detail(deviceId) }),
  });
}
