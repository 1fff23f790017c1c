import { useMutation, useQuery } from '@tanstack/react-query';
import { BLOCK_QUERY_POLL_MS, type BlockQuery } from '@tankportal/shared/schemas/block-queries';
import type { DevicePermission } from '@tankportal/shared/devices';
import { api, apiResponse } from '../../../lib/api-client.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

/** A block query as the web receives it (createdAt: an ISO string). */
export type BlockQueryView = JsonOf<BlockQuery>;
export type BlockQueryEntry = BlockQueryView['queries'][number];

/** The device types a query reaches (SMS and LX-IoT devices). */
export const QUERYABLE_TYPES = 'sms,lx_iot';

/** The API path of a `location` header (`/api/v2/block-queries/7` -> `/v2/block-queries/7`). */
export function apiPathOf(location: string): string {
  const path = new URL(location, window.location.origin).pathname;
  return path.startsWith('/api/') ? path.slice('/api'.length) : path;
}

/** A query of the block is under way while the server has not heard back or given up. */
export const isUnderWay = (entry: Pick<BlockQueryEntry, 'status'>) =>
  entry.status === 'pending' || entry.status === 'sent';

/** Every query of the block has ended (processed or failed): polling stops. */
export const isFinished = (blockQuery: Pick<BlockQueryView, 'queries'>) =>
  !blockQuery.queries.some(isUnderWay);

/** Where the block query is polled, and its state at the start. */
export interface StartedBlockQuery {
  location: string;
  blockQuery: BlockQueryView;
  /** When the POST answered (ms): the first poll comes one interval later. */
  answeredAt: number;
}

/** POST /v2/block-queries {deviceIds}; 201 with the block query and its location. */
export function useStartBlockQuery() {
  return useMutation({
    mutationFn: async (deviceIds: number[]): Promise<StartedBlockQuery> => {
      const response = await apiResponse<BlockQueryView>('POST', '/v2/block-queries', {
        body: { deviceIds },
      });
      const location = response.headers.get('location');
      return {
        location: location ? apiPathOf(location) : `/v2/block-queries/${response.data.id}`,
        blockQuery: response.data,
        answeredAt: Date.now(),
      };
    },
    // Refused devices are listed in the dialog; other failures toast.
    meta: { errorToast: 'unlessFieldErrors' },
  });
}

/**
 * The block query from its location, polled every BLOCK_QUERY_POLL_MS until
 * no query of it is pending or sent any more; the dialog closing (unmounting) stops it too. A poll
 * that fails keeps the last state and tries again at the next interval.
 */
export function useBlockQueryProgress(started: StartedBlockQuery) {
  return useQuery({
    queryKey: ['blockQueries', started.location],
    queryFn: ({ signal }) => api<BlockQueryView>('GET', started.location, { signal }),
    initialData: started.blockQuery,
    // The first answer is the POST's: the first poll comes one interval later.
    initialDataUpdatedAt: started.answeredAt,
    staleTime: BLOCK_QUERY_POLL_MS,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) =>
      query.state.data && isFinished(query.state.data) ? false : BLOCK_QUERY_POLL_MS,
    refetchIntervalInBackground: true,
  });
}

/** GET /v2/devices/ids with the choice's filter: every id the actor may choose, in list order. */
export function fetchChoosableIds(
  permission: DevicePermission,
  notReportedSince?: number,
  signal?: AbortSignal,
): Promise<number[]> {
  return api<number[]>('GET', '/v2/devices/ids', {
    query: { type: QUERYABLE_TYPES, permission, notReportedSince },
    signal,
  });
}

/**
 * The ids of the SMS devices among the queryable ones: a failed query is explained in the words
 * of its channel (SMS or MQTT), as the manual query does.
 */
export function useSmsDeviceIds(enabled: boolean) {
  return useQuery({
    queryKey: ['devices', 'ids', 'block-query-sms'],
    queryFn: ({ signal }) =>
      api<number[]>('GET', '/v2/devices/ids', { query: { type: 'sms', permission: 'QUERY' }, signal }),
    enabled,
    select: (ids) => new Set(ids),
    staleTime: 60_000,
  });
}
