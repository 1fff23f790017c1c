import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { DEVICE_LIST_DEFAULTS } from '../lib/list-defaults.ts';
import { listRequestQuery, loadListQuery } from '../lib/list-query.ts';
import { deviceKeys } from '../../../lib/api/devices.ts';

/**
 * "The current device id list" of the quick navigation: every id the list
 * shows with its current filter, sort and grouping, in list order (`GET /v2/devices/ids`).
 */
export function useNavigationIds() {
  const query = listRequestQuery(loadListQuery() ?? DEVICE_LIST_DEFAULTS);
  return useQuery({
    queryKey: deviceKeys.navigationIds(query),
    queryFn: ({ signal }) => api<number[]>('GET', '/v2/devices/ids', { query, signal }),
    staleTime: 60_000,
  });
}
