import type { Order, OrderEvent, OrderEventName } from '@tankportal/shared/schemas/orders';
import type { orderEvents } from '../db/schema.ts';
import type { OrderSide } from '../policies/orders.ts';
import { orderActions } from '../policies/orders.ts';
import type { OrderRow } from '../repositories/orders.ts';

/** An order as the API answers it, with the differences of the measured quantity and what the actor may do. */
export function presentOrder(row: OrderRow, side: OrderSide, actorId: number): Order {
  const { order } = row;
  const measured = order.measuredQuantity15 ?? order.measuredQuantity;
  const own = order.createdBy === actorId || row.deviceOwnerId === actorId;
  return {
    id: order.id,
    deviceId: order.deviceId,
    deviceName: row.deviceName,
    customer: { id: row.deviceOwnerId, username: row.customerUsername, company: row.customerCompany },
    sensorId: order.sensorId,
    sequence: row.sequence,
    sensorName: row.sensorName,
    unit: row.unit,
    state: order.state,
    source: order.source,
    quantity: order.quantity,
    earliest: order.earliest,
    latest: order.latest,
    plannedDate: order.plannedDate,
    note: order.note,
    cancelReason: order.cancelReason,
    deliveryId: order.deliveryId,
    measuredQuantity: order.measuredQuantity,
    measuredQuantity15: order.measuredQuantity15,
    ticketQuantity: order.ticketQuantity,
    differenceToOrdered: measured === null ? null : measured - order.quantity,
    differenceToTicket:
      measured === null || order.ticketQuantity === null ? null : measured - order.ticketQuantity,
    deliveredAt: order.deliveredAt,
    overdueAt: order.overdueAt,
    createdBy:
      order.createdBy === null || row.creatorUsername === null
        ? null
        : { id: order.createdBy, username: row.creatorUsername },
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    actions: orderActions(order.state, side, own),
  };
}

export function presentOrderEvent({
  event,
  username,
}: {
  event: typeof orderEvents.$inferSelect;
  username: string | null;
}): OrderEvent {
  return {
    state: event.state as OrderEventName,
    at: event.at,
    user: event.userId === null || username === null ? null : { id: event.userId, username },
    detail: event.detail ?? null,
  };
}
