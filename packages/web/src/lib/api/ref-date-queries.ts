import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DeviceRefDateQuery,
  RefDateQuery,
  RefDateQueryBody,
} from '@tankportal/shared/schemas/ref-date-queries';
import { api } from '../api-client.ts';
import type { JsonOf } from './json.ts';

// The reference-date query calls, in one place for the queries' dialogs of the
// device list and the section of a device's metadata tab.

/** A reference-date query as the web receives it (lastRunAt, nextRunAt: ISO strings). */
export type RefDateQueryView = JsonOf<RefDateQuery>;
/** One of the queries a device belongs to (no member list). */
export type DeviceRefDateQueryView = JsonOf<DeviceRefDateQuery>;
export type { RefDateQueryBody };

/**
 * Every key starts with `refDateQueryKeys.all`: a change of a query (its members above all)
 * reloads the list, the query and the device sections alike.
 */
export const refDateQueryKeys = {
  all: ['refDateQueries'] as const,
  list: () => [...refDateQueryKeys.all, 'list'] as const,
  one: (queryId: number | null) => [...refDateQueryKeys.all, 'one', queryId] as const,
  ofDevice: (deviceId: number) => [...refDateQueryKeys.all, 'device', deviceId] as const,
};

/** GET /v2/ref-date-queries: the signed-in user's queries (and those of the users it manages). */
export function useRefDateQueries() {
  return useQuery({
    queryKey: refDateQueryKeys.list(),
    queryFn: ({ signal }) => api<RefDateQueryView[]>('GET', '/v2/ref-date-queries', { signal }),
  });
}

/** GET /v2/ref-date-queries/{id}; not retried: a 404 closes the edit dialog at once. */
export function useRefDateQuery(queryId: number | null) {
  return useQuery({
    queryKey: refDateQueryKeys.one(queryId),
    queryFn: ({ signal }) => api<RefDateQueryView>('GET', `/v2/ref-date-queries/${queryId}`, { signal }),
    enabled: queryId !== null,
    retry: false,
    // The form starts from what is stored now, not from a copy of an earlier visit.
    staleTime: 0,
    gcTime: 0,
  });
}

function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: refDateQueryKeys.all });
}

/** POST /v2/ref-date-queries; the answer is the new query. */
export function useCreateRefDateQuery() {
  const onSuccess = useInvalidateAll();
  return useMutation({
    mutationFn: (body: RefDateQueryBody) => api<RefDateQueryView>('POST', '/v2/ref-date-queries', { body }),
    // The form maps the server's field errors onto its fields; other failures toast.
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess,
  });
}

/** PUT /v2/ref-date-queries/{id}; the answer is the saved query. */
export function useUpdateRefDateQuery(queryId: number) {
  const onSuccess = useInvalidateAll();
  return useMutation({
    mutationFn: (body: RefDateQueryBody) =>
      api<RefDateQueryView>('PUT', `/v2/ref-date-queries/${queryId}`, { body }),
    meta: { errorToast: 'unlessFieldErrors' },
    onSuccess,
  });
}

/**
 * DELETE /v2/ref-date-queries/{id}. The deleted query itself is not asked for again: its edit
 * dialog, open while deleting, would hear "not found" before it closes.
 */
export function useDeleteRefDateQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (queryId: number) => api<void>('DELETE', `/v2/ref-date-queries/${queryId}`),
    onSuccess: (_answer, queryId) =>
      queryClient.invalidateQueries({
        queryKey: refDateQueryKeys.all,
        predicate: ({ queryKey }) => queryKey[1] !== 'one' || queryKey[2] !== queryId,
      }),
  });
}

/** GET /v2/devices/{id}/ref-date-queries: the queries the device belongs to. */
export function useDeviceRefDateQueries(deviceId: number, enabled = true) {
  return useQuery({
    queryKey: refDateQueryKeys.ofDevice(deviceId),
    queryFn: ({ signal }) =>
      api<DeviceRefDateQueryView[]>('GET', `/v2/devices/${deviceId}/ref-date-queries`, { signal }),
    enabled,
  });
}

/**
 * DELETE /v2/devices/{id}/ref-date-queries/{queryId}: takes the device out of that query; the
 * query's last device is refused (409, reason `last_device`): the query is deleted instead.
 */
export function useRemoveDeviceFromRefDateQuery(deviceId: number) {
  const onSuccess = useInvalidateAll();
  return useMutation({
    mutationFn: (queryId: number) =>
      api<void>('DELETE', `/v2/devices/${deviceId}/ref-date-queries/${queryId}`),
    onSuccess,
    // The dialog says why it failed.
    meta: { errorToast: false },
  });
}
