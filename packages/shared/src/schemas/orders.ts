import { z } from 'zod';
import { calendarDay } from './billing.ts';
import { bodyId, isStorableText, queryId, queryInteger, requiredText } from './common.ts';

/**
 * An order's life (docs/product/orders.md):
 * proposed (automatic replenishment) → requested | confirmed | rejected;
 * requested (customer or dealer) → confirmed | rejected | cancelled;
 * confirmed (planned date set) → on_tour (a tour stop planned) → delivered (the driver's ticket) →
 * closed (the delivery measured by the tank, or the dealer's hand where the tank never reports it);
 * any open state → cancelled with a reason.
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

/** The largest quantity an order may name (litres, or the sensor's unit): more than any tank holds. */
export const ORDER_QUANTITY_MAX = 1_000_000;
export const ORDER_NOTE_MAX = 1000;
export const ORDER_REASON_MAX = 500;
/** How far ahead an order's window may lie (days). */
export const ORDER_MAX_DAYS_AHEAD = 365;
/** Replenishment lead days a dealer may set, and the default of a device without a setting. */
export const REPLENISHMENT_LEAD_DAYS = { min: 1, max: 60, default: 7 } as const;
/** Orders per page of the dealer's list. */
export const ORDERS_PAGE_SIZE_MAX = 200;

const requiredOrInvalid = (issue: { code?: string; input?: unknown }) =>
  issue.code !== 'invalid_type' ? undefined : issue.input == null ? 'required' : 'invalid';

/** A calendar day `YYYY-MM-DD` (German calendar) from 1900 to 9999. */
export const orderDay = () => calendarDay();

const quantity = () =>
  z.number({ error: requiredOrInvalid }).positive({ error: 'invalid' }).max(ORDER_QUANTITY_MAX);

const optionalNote = (max: number) =>
  z
    .string({ error: 'invalid' })
    .trim()
    .max(max)
    .refine(isStorableText, { error: 'invalid', params: { code: 'invalid', args: { reason: 'character' } } })
    .nullish()
    .transform((value) => value || null);

const requiredReason = () =>
  requiredText()
    .max(ORDER_REASON_MAX)
    .refine(isStorableText, { error: 'invalid', params: { code: 'invalid', args: { reason: 'character' } } });

/** The window's end is not before its start. */
function windowInOrder<T extends { earliest?: string; latest?: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.earliest && value.latest && value.latest < value.earliest)
    ctx.addIssue({
      code: 'custom',
      path: ['latest'],
      message: 'min',
      params: { code: 'min', args: { min: value.earliest } },
    });
}

/** Body of `POST /v2/devices/{id}/orders`: the tank, how much, when (plannedDate: the dealer confirms at once). */
export const orderCreateBody = z
  .strictObject({
    sensorId: bodyId(),
    quantity: quantity(),
    earliest: orderDay(),
    latest: orderDay(),
    note: optionalNote(ORDER_NOTE_MAX),
    plannedDate: orderDay().nullish(),
  })
  .superRefine(windowInOrder);
export type OrderCreateBody = z.infer<typeof orderCreateBody>;

/** Body of `PUT /v2/orders/{id}` (the dealer): any of quantity, window, planned date and note. */
export const orderUpdateBody = z
  .strictObject({
    quantity: quantity().optional(),
    earliest: orderDay().optional(),
    latest: orderDay().optional(),
    plannedDate: orderDay().nullish(),
    note: optionalNote(ORDER_NOTE_MAX).optional(),
  })
  .superRefine(windowInOrder);
export type OrderUpdateBody = z.infer<typeof orderUpdateBody>;

export const orderConfirmBody = z.strictObject({ plannedDate: orderDay() });
export const orderReasonBody = z.strictObject({ reason: requiredReason() });

/** Query of `GET /v2/devices/{id}/orders/proposal`. */
export const orderProposalQuery = z.object({ sensorId: queryId(), date: orderDay() });

export const orderProposalSchema = z.object({
  sensorId: z.number(),
  date: z.string(),
  /** What fills the tank to its fill limit on that day, from the forecast's use per day; null without capacity or level. */
  quantity: z.number().nullable(),
  /** The level the forecast expects on that day. */
  expectedLevel: z.number().nullable(),
  capacity: z.number().nullable(),
  fillLimit: z.number().nullable(),
  unit: z.string(),
});
export type OrderProposal = z.infer<typeof orderProposalSchema>;

/** What the actor may do with an order now, as the server decides it. */
export const ORDER_ACTIONS = ['request', 'confirm', 'reject', 'cancel', 'edit', 'close'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const orderEventSchema = z.object({
  state: z.enum(ORDER_EVENTS),
  at: z.date(),
  /** Who made the change; null: the portal itself (replenishment, a recognised delivery). */
  user: z.object({ id: z.number(), username: z.string() }).nullable(),
  detail: orderEventDetailSchema.nullable(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

export const orderSchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  deviceName: z.string().nullable(),
  /** The device's owner: the customer. */
  customer: z.object({ id: z.number(), username: z.string(), company: z.string().nullable() }),
  sensorId: z.number(),
  sequence: z.number(),
  sensorName: z.string(),
  unit: z.string(),
  state: z.enum(ORDER_STATES),
  source: z.enum(ORDER_SOURCES),
  quantity: z.number(),
  earliest: z.string(),
  latest: z.string(),
  plannedDate: z.string().nullable(),
  note: z.string().nullable(),
  cancelReason: z.string().nullable(),
  deliveryId: z.number().nullable(),
  /** The quantity the tank measured (at 15 °C where known). */
  measuredQuantity: z.number().nullable(),
  measuredQuantity15: z.number().nullable(),
  ticketQuantity: z.number().nullable(),
  /** Measured minus ordered. */
  differenceToOrdered: z.number().nullable(),
  /** Measured minus the ticket's. */
  differenceToTicket: z.number().nullable(),
  deliveredAt: z.date().nullable(),
  overdueAt: z.date().nullable(),
  createdBy: z.object({ id: z.number(), username: z.string() }).nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  actions: z.array(z.enum(ORDER_ACTIONS)),
});
export type Order = z.infer<typeof orderSchema>;

export const orderDetailSchema = orderSchema.extend({ events: z.array(orderEventSchema) });
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** Query of the dealer's `GET /v2/orders`. */
export const ordersQuery = z.object({
  state: z
    .union([z.enum(ORDER_STATES, { error: 'invalid' }), z.array(z.enum(ORDER_STATES, { error: 'invalid' }))])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .optional(),
  overdue: z
    .enum(['true', 'false'], { error: 'invalid' })
    .transform((value) => value === 'true')
    .optional(),
  deviceId: queryId().optional(),
  page: queryInteger({ min: 1, max: 100_000 }).default(1),
  size: queryInteger({ min: 1, max: ORDERS_PAGE_SIZE_MAX }).default(50),
});
export type OrdersQuery = z.infer<typeof ordersQuery>;

/** The dealer's automatic replenishment of one device. */
export const replenishmentSchema = z.object({
  enabled: z.boolean(),
  leadDays: z.number(),
});
export type Replenishment = z.infer<typeof replenishmentSchema>;

export const replenishmentBody = z.strictObject({
  enabled: z.boolean({ error: requiredOrInvalid }),
  leadDays: z
    .number({ error: requiredOrInvalid })
    .int({ error: 'invalid' })
    .min(REPLENISHMENT_LEAD_DAYS.min)
    .max(REPLENISHMENT_LEAD_DAYS.max),
});
