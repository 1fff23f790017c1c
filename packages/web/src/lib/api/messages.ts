import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RawMessage, RawMessageBody } from '@tankportal/shared/schemas/device-metadata';
import { api } from '../api-client.ts';
import type { JsonOf } from './json.ts';

/** The query keys of the message log: lists and details, one prefix. */
export const messageKeys = {
  all: ['messages'] as const,
  list: (query: unknown) => [...messageKeys.all, 'list', query] as const,
  one: (messageId: number) => [...messageKeys.all, 'one', messageId] as const,
};

/**
 * POST /v2/messages: an SMS to a device through its outbound gateway (admin, EDIT), or a raw IoT
 * or LX-IoT telegram (master). The log shows it at once. A message the channel did not take (no
 * gateway, broker down) is logged and answered as `sending_failed` with its report: not sent.
 */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RawMessageBody) => api<JsonOf<RawMessage>>('POST', '/v2/messages', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
    // A send failure has its own words, whatever the server said.
    meta: { errorToast: 'unlessFieldErrors', errorText: 'device-metadata.rawMessage.failed' },
  });
}
