import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageType } from '@tankportal/shared/devices';
import {
  MESSAGE_HEADERS,
  type Message,
  type MessageListQuery,
  type MessageSortKey,
} from '@tankportal/shared/schemas/messages';
import { api, apiResponse } from '../../../lib/api-client.ts';
import type { JsonOf } from '../../../lib/api/json.ts';
import { dayEnd, dayStart } from '../../../lib/day-range.ts';
import { messageKeys } from '../../../lib/api/messages.ts';

export type MessageView = JsonOf<Message>;

export type MessageSort = `${MessageSortKey}:${'asc' | 'desc'}`;

/** What the filters of a message list hold (dates as the date fields give them, yyyy-MM-dd). */
export interface MessageFilter {
  from: string;
  to: string;
  type?: MessageType;
  direction?: MessageListQuery['direction'];
  status?: MessageListQuery['status'];
  mode?: MessageListQuery['mode'];
  /** `key:asc` or `key:desc`, a key of MESSAGE_SORT_KEYS. */
  sort: MessageSort;
  perPage: number;
  page: number;
  /** The newest message of the list when its first page loaded: later pages stay put. */
  maxId?: number;
}

export interface MessagePage {
  items: MessageView[];
  /** Device context only: every message matching the filter. */
  total: number | null;
  hasMore: boolean;
  maxId: number;
}

/** GET /v2/messages: a device's messages (with their total) or the global log (has-more only). */
export function useMessages(filter: MessageFilter, deviceId?: number) {
  const { from, to, maxId, ...rest } = filter;
  const query = {
    ...rest,
    from: from ? dayStart(from) : undefined,
    to: to ? dayEnd(to) : undefined,
    maxId,
    deviceId,
    totalCount: deviceId === undefined ? undefined : 1,
  };
  return useQuery({
    queryKey: messageKeys.list(query),
    queryFn: async ({ signal }): Promise<MessagePage> => {
      const { data, headers } = await apiResponse<MessageView[]>('GET', '/v2/messages', { query, signal });
      const total = headers.get(MESSAGE_HEADERS.totalCount);
      return {
        items: data,
        total: total === null ? null : Number(total),
        hasMore: headers.get(MESSAGE_HEADERS.hasMore) === '1',
        maxId: Number(headers.get(MESSAGE_HEADERS.maxId) ?? 0),
      };
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /v2/messages/{id}: one message (a link to a message that is not in the loaded list); within
 * a device's pages only a message of that device (another device's answers 404).
 */
export function useMessage(messageId: number | null, deviceId?: number) {
  return useQuery({
    queryKey: [...messageKeys.one(messageId ?? 0), deviceId ?? null],
    queryFn: ({ signal }) =>
      api<MessageView>('GET', `/v2/messages/${messageId}`, { query: { deviceId }, signal }),
    enabled: messageId !== null,
    retry: false,
  });
}

/** POST /v2/messages/{id}/release (master): an unprocessed inbound SMS processed again. */
export function useReleaseMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (messageId: number) => api<MessageView>('POST', `/v2/messages/${messageId}/release`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
    // The dialog says why a release failed.
    meta: { errorToast: false },
  });
}

/** What the server may answer for a message it cannot release (decision 040). */
export const RELEASE_REFUSALS = [
  'not_releasable',
  'no_sender',
  'unknown_sender',
  'unreadable',
  'refused',
] as const;
