import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CONFIGURATION_DELIVERY_CHANNELS,
  CONFIGURATION_DELIVERY_FAILURES,
  CONFIGURATION_DELIVERY_HEADERS,
  CONFIGURATION_DELIVERY_STATUSES,
  type ConfigurationBody,
  type ConfigurationDeliveryChannel,
  type ConfigurationDeliveryFailure,
  type ConfigurationDeliveryStatus,
} from '@tankportal/shared/schemas/device-configuration';
import { apiResponse } from '../../../lib/api-client.ts';
import { deviceKeys, type DeviceDetailView } from '../../../lib/api/devices.ts';

/** Whether the saved configuration reached the device (decision 025, the answer's headers). */
export interface ConfigurationDelivery {
  status: ConfigurationDeliveryStatus;
  channel: ConfigurationDeliveryChannel | null;
  failure: ConfigurationDeliveryFailure | null;
}

export interface ConfigurationSaved {
  device: DeviceDetailView;
  /** Configuration SMS the server sent to the device (header x-sms-sent; 0 for other types). */
  smsSent: number;
  delivery: ConfigurationDelivery;
}

const oneOf = <T extends string>(options: readonly T[], value: string | null): T | null =>
  options.find((option) => option === value) ?? null;

/** The delivery headers; an answer without them (an older server) counts as sent. */
export function deliveryOf(headers: Headers): ConfigurationDelivery {
  return {
    status:
      oneOf(CONFIGURATION_DELIVERY_STATUSES, headers.get(CONFIGURATION_DELIVERY_HEADERS.status)) ?? 'sent',
    channel: oneOf(CONFIGURATION_DELIVERY_CHANNELS, headers.get(CONFIGURATION_DELIVERY_HEADERS.channel)),
    failure: oneOf(CONFIGURATION_DELIVERY_FAILURES, headers.get(CONFIGURATION_DELIVERY_HEADERS.failure)),
  };
}

/**
 * PUT /v2/devices/{id}/configuration: answers the device detail; the cached device
 * takes it at once, so the view shows the new configuration while it reloads.
 */
export function useSaveConfiguration(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Partial<ConfigurationBody>): Promise<ConfigurationSaved> => {
      const response = await apiResponse<DeviceDetailView>('PUT', `/v2/devices/${deviceId}/configuration`, {
        body,
      });
      return {
        device: response.data,
        smsSent: Number(response.headers.get('x-sms-sent')) || 0,
        delivery: deliveryOf(response.headers),
      };
    },
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: ({ device }) => queryClient.setQueryData(deviceKeys.detail(deviceId), device),
  });
}
