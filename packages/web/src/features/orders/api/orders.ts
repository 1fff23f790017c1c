import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Order,
  OrderDetail,
  OrderProposal,
  OrderState,
  Replenishment,
} from '@tankportal/shared/schemas/orders';
import { api, apiResponse } from '../../../lib/api-client.ts';
import type { JsonOf } from '../../../lib/api/json.ts';

/** An order as the web receives it (times as ISO strings). */
export type OrderView = JsonOf<Order>;
export type OrderDetailView = JsonOf<OrderDetail>;

export const orderKeys = {
  all: ['orders'] as const,
  ofDevice: (deviceId: number) => ['orders', 'device', deviceId] as const,
  list: (filter: OrdersFilter) => ['orders', 'list', filter] as const,
  one: (id: number) => ['orders', 'one', id] as const,
  proposal: (deviceId: number, sensorId: number, date: string) =>
    ['orders', 'proposal', deviceId, sensorId, date] as const,
  replenishment: (deviceId: number) => ['orders', 'replenishment', deviceId] as const,
};

/** `GET /v2/devices/{id}/orders`: the device's orders, newest first. */
export function useDeviceOrders(deviceId: number) {
  return useQuery({
    queryKey: orderKeys.ofDevice(deviceId),
    queryFn: ({ signal }) => api<OrderView[]>('GET', `/v2/devices/${deviceId}/orders`, { signal }),
  });
}

/** `GET /v2/devices/{id}/orders/proposal`: what fills the tank on the day (null until both are chosen). */
export function useOrderProposal(deviceId: number | null, sensorId: number | null, date: string | null) {
  return useQuery({
    queryKey: orderKeys.proposal(deviceId ?? 0, sensorId ?? 0, date ?? ''),
    queryFn: ({ signal }) =>
      api<OrderProposal>('GET', `/v2/devices/${deviceId}/orders/proposal`, {
        query: { sensorId, date },
        signal,
      }),
    enabled: deviceId !== null && sensorId !== null && date !== null && /^\d{4}-\d{2}-\d{2}$/.test(date),
    retry: false,
  });
}

export interface OrderInput {
  sensorId: number;
  quantity: number;
  earliest: string;
  latest: string;
  note: string | null;
  plannedDate?: string | null;
}

/** `POST /v2/devices/{id}/orders`. Field errors go onto the form; other failures are told by the form. */
export function useCreateOrder(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OrderInput) =>
      api<OrderDetailView>('POST', `/v2/devices/${deviceId}/orders`, { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
    meta: { errorToast: false },
  });
}

export interface OrdersFilter {
  states: OrderState[];
  overdue: boolean;
  page: number;
  size: number;
}

/** `GET /v2/orders`: the dealer's orders, a page of them with the count. */
export function useDealerOrders(filter: OrdersFilter) {
  return useQuery({
    queryKey: orderKeys.list(filter),
    queryFn: async ({ signal }) => {
      const response = await apiResponse<OrderView[]>('GET', '/v2/orders', {
        query: {
          state: filter.states,
          overdue: filter.overdue ? 'true' : undefined,
          page: filter.page,
          size: filter.size,
        },
        signal,
      });
      return { rows: response.data, total: Number(response.headers.get('x-total-count') ?? 0) };
    },
    placeholderData: keepPreviousData,
  });
}

/** `GET /v2/orders/{id}`: one order with its history. */
export function useOrder(id: number | null) {
  return useQuery({
    queryKey: orderKeys.one(id ?? 0),
    queryFn: ({ signal }) => api<OrderDetailView>('GET', `/v2/orders/${id}`, { signal }),
    enabled: id !== null,
  });
}

export type OrderChange =
  | { action: 'request' | 'close' }
  | { action: 'confirm'; plannedDate: string }
  | { action: 'reject' | 'cancel'; reason: string }
  | {
      action: 'edit';
      quantity: number;
      earliest: string;
      latest: string;
      plannedDate: string | null;
      note: string | null;
    };

/** One of an order's steps (`POST /v2/orders/{id}/{action}`, or `PUT /v2/orders/{id}` to edit it). */
export function useChangeOrder(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OrderChange) => {
      const { action, ...body } = change;
      return action === 'edit'
        ? api<OrderDetailView>('PUT', `/v2/orders/${id}`, { body })
        : api<OrderDetailView>('POST', `/v2/orders/${id}/${action}`, {
            body: action === 'request' || action === 'close' ? undefined : body,
          });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
    meta: { errorToast: false },
  });
}

/** `GET /v2/devices/{id}/replenishment` (the dealer's). */
export function useReplenishment(deviceId: number) {
  return useQuery({
    queryKey: orderKeys.replenishment(deviceId),
    queryFn: ({ signal }) => api<Replenishment>('GET', `/v2/devices/${deviceId}/replenishment`, { signal }),
    retry: false,
  });
}

export function useSaveReplenishment(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Replenishment) =>
      api<Replenishment>('PUT', `/v2/devices/${deviceId}/replenishment`, { body }),
    onSuccess: (saved) => queryClient.setQueryData(orderKeys.replenishment(deviceId), saved),
    meta: { errorToast: 'unlessFieldErrors' },
  });
}
