import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfigurationBody } from '@tankportal/shared/schemas/device-configuration';
import { apiResponse } from '../../../lib/api-client.ts';
import { deviceKeys, type DeviceDetailView } from '../../../lib/api/devices.ts';

export interface ConfigurationSaved {
  device: DeviceDetailView;
  /** Configuration SMS the server sent to the device (header x-sms-sent; 0 for other types). */
  smsSent: number;
}

/**
 * PUT /v2/devices/{id}/configuration (contracts §5): answers the device detail; the cached device
 * takes it at once, so the view shows the new configuration while it reloads.
 */
export function useSaveConfiguration(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Partial<ConfigurationBody>): Promise<ConfigurationSaved> => {
      const response = await apiResponse<DeviceDetailView>('PUT', `/v2/devices/${deviceId}/configuration`, {
        body,
      });
      return { device: response.data, smsSent: Number(response.headers.get('x-sms-sent')) || 0 };
    },
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: ({ device }) => queryClient.setQueryData(deviceKeys.detail(deviceId), device),
  });
}
