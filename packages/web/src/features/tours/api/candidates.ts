import { useQuery } from '@tanstack/react-query';
import { OPEN_ORDER_STATES, type Order } from '@tankportal/shared/schemas/orders';
import type { DispatchResponse } from '@tankportal/shared/schemas/dispatch';
import { apiResponse } from '../../../lib/api-client.ts';
import type { JsonOf } from '../../../lib/api/json.ts';
import { dispatchHorizon, dueOn, ordersForDay } from '../lib/planning.ts';
import { tourKeys } from './keys.ts';

export type OrderView = JsonOf<Order>;
export type DueTankView = JsonOf<DispatchResponse['rows'][number]>;

const PAGE = 200;
/** More confirmed orders than a dealer's trucks take in a day; the rest waits for the next day. */
const MAX_PAGES = 10;

/** The dealer's open orders: the confirmed ones to plan, the others to keep their tanks out of the due ones. */
async function openOrders(signal: AbortSignal): Promise<OrderView[]> {
  const orders: OrderView[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const { data, headers } = await apiResponse<OrderView[]>('GET', '/v2/orders', {
      query: { state: OPEN_ORDER_STATES, page, size: PAGE },
      signal,
    });
    orders.push(...data);
    if (data.length < PAGE || orders.length >= Number(headers.get('x-total-count') ?? 0)) break;
  }
  return orders;
}

/**
 * What a day's tours may take: the confirmed orders planned for the day (or whose window holds
 * it), and the tanks the dispatch view sees at their reorder level by then that have no open order.
 */
export function useCandidates(day: string) {
  return useQuery({
    queryKey: tourKeys.candidates(day),
    queryFn: async ({ signal }) => {
      const [orders, dispatch] = await Promise.all([
        openOrders(signal),
        dispatchHorizon(day) === null
          ? Promise.resolve([])
          : apiResponse<JsonOf<DispatchResponse>>('GET', '/v2/dispatch', {
              query: { withinDays: dispatchHorizon(day), deliveryOn: day },
              signal,
            }).then(({ data }) => dueOn(data.rows, day)),
      ]);
      const dayOrders = ordersForDay(orders, day);
      const ordered = new Set(orders.map((order) => order.sensorId));
      return { orders: dayOrders, dueTanks: dispatch.filter((row) => !ordered.has(row.sensorId)) };
    },
  });
}
