import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MutationMeta } from '../../../lib/mutation-errors.ts';
import type {
  OfferedContact,
  Recipient,
  RecipientBody,
  RecipientEventsBody,
} from '@tankportal/shared/schemas/notification-recipients';
import { contactKeys } from '../../../lib/api/contacts.ts';
import { api } from '../../../lib/api-client.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';

// The notification recipients of one device: list, one, create, update, delete.

export type { OfferedContact, Recipient };
export type RecipientEvent = Recipient['events'][number];

const recipientsPath = (deviceId: number) => `/v2/devices/${deviceId}/notification-recipients`;

export function useRecipients(deviceId: number) {
  return useQuery({
    queryKey: [...deviceKeys.recipients(deviceId), 'list'],
    queryFn: ({ signal }) => api<Recipient[]>('GET', recipientsPath(deviceId), { signal }),
  });
}

/**
 * The contacts a new recipient can be chosen from: the user's own and, for a master or admin
 * looking after a customer's device, the owner's (each names its book's owner).
 */
export function useRecipientContacts(deviceId: number) {
  return useQuery({
    queryKey: [...deviceKeys.recipients(deviceId), 'contacts'],
    queryFn: ({ signal }) =>
      api<OfferedContact[]>('GET', `/v2/devices/${deviceId}/recipient-contacts`, { signal }),
  });
}

/** One recipient; not retried: a 404 closes the edit dialog at once. */
export function useRecipient(deviceId: number, recipientId: number | null) {
  return useQuery({
    queryKey: [...deviceKeys.recipients(deviceId), 'detail', recipientId],
    queryFn: ({ signal }) => api<Recipient>('GET', `${recipientsPath(deviceId)}/${recipientId}`, { signal }),
    enabled: recipientId !== null,
    retry: false,
  });
}

/** Every change reloads the device's recipients and the contacts (their device counts change). */
function useRecipientMutation<Input>(
  deviceId: number,
  call: (input: Input) => Promise<unknown>,
  meta?: MutationMeta,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    meta,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceKeys.recipients(deviceId) }),
        queryClient.invalidateQueries({ queryKey: contactKeys.all }),
      ]),
  });
}

/** The recipient forms map the server's field errors onto their fields. */
const FORM_SAVE: MutationMeta = { errorToast: 'unlessFieldErrors' };

export function useCreateRecipient(deviceId: number) {
  return useRecipientMutation(
    deviceId,
    (body: RecipientBody) => api<Recipient>('POST', recipientsPath(deviceId), { body }),
    FORM_SAVE,
  );
}

export function useUpdateRecipient(deviceId: number, recipientId: number) {
  return useRecipientMutation(
    deviceId,
    (body: RecipientEventsBody) =>
      api<Recipient>('PUT', `${recipientsPath(deviceId)}/${recipientId}`, { body }),
    FORM_SAVE,
  );
}

export function useDeleteRecipient(deviceId: number) {
  return useRecipientMutation(deviceId, (recipientId: number) =>
    api<void>('DELETE', `${recipientsPath(deviceId)}/${recipientId}`),
  );
}
