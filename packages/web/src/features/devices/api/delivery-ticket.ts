import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { deliveryTicketBody } from '@tankportal/shared/schemas/tank-health';
import { api } from '../../../lib/api-client.ts';
import { deliveriesKey, type DeliveryView } from './deliveries.ts';

export type DeliveryTicketBody = z.infer<typeof deliveryTicketBody>;

/**
 * `PUT /v2/deliveries/{id}`: the quantity on the delivery ticket, null to clear it. The
 * answer (with the difference the server works out) replaces the delivery in the device's list.
 * Field errors go onto the form's field; any other failure is the error toast.
 */
export function useSaveDeliveryTicket(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: DeliveryTicketBody }) =>
      api<DeliveryView>('PUT', `/v2/deliveries/${id}`, { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess: (saved) =>
      queryClient.setQueryData<DeliveryView[]>(deliveriesKey(deviceId), (list) =>
        list?.map((delivery) => (delivery.id === saved.id ? saved : delivery)),
      ),
  });
}
