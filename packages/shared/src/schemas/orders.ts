import { z } from 'zod';

/**
 * An order's life (docs/product/orders.md):
 * proposed (automatic replenishment) → requested | confirmed | rejected;
 * requested (customer or dealer) → confirmed | rejected | cancelled;
 * confirmed (planned date set) → on_tour (a tour stop planned) → delivered (the driver's ticket) →
 * closed (the delivery measured by the tank); any open state → cancelled with a reason.
 */
export const ORDER_STATES = [
  'proposed',
  'requested',
  'confirmed',
  'on_tour',
  'delivered',
  'closed',
  'cancelled',
  'rejected',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** The states an order is still to be acted on in: at most one per sensor at a time. */
export const OPEN_ORDER_STATES = [
  'proposed',
  'requested',
  'confirmed',
  'on_tour',
  'delivered',
] as const satisfies readonly OrderState[];
export type OpenOrderState = (typeof OPEN_ORDER_STATES)[number];
export const isOpenOrderState = (state: OrderState): state is OpenOrderState =>
  (OPEN_ORDER_STATES as readonly OrderState[]).includes(state);

/** Who started the order: the tank's customer, the dealer (e.g. an order phoned in), or the portal's replenishment. */
export const ORDER_SOURCES = ['customer', 'dealer', 'replenishment'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

/** What an order event records: its new state, or `edited` for a change of quantity or window. */
export const ORDER_EVENTS = [...ORDER_STATES, 'edited', 'overdue'] as const;
export type OrderEventName = (typeof ORDER_EVENTS)[number];

/** What an order event's detail may hold (reason, planned date, quantities). */
export const orderEventDetailSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export type OrderEventDetail = z.infer<typeof orderEventDetailSchema>;
