import type { Delivery } from '@tankportal/shared/schemas/tank-health';
import type { DeliveryRow } from '../repositories/deliveries.ts';

/** A delivery with the difference of the measured quantity (at 15 °C where known) to the ticket's. */
export function presentDelivery({ delivery, sequence, sensorName, unit }: DeliveryRow): Delivery {
  const measured = delivery.quantity15 ?? delivery.quantity;
  return {
    id: delivery.id,
    sequence,
    sensorName,
    unit,
    deliveredAt: delivery.deliveredAt,
    startedAt: delivery.startedAt,
    levelBefore: delivery.levelBefore,
    levelAfter: delivery.levelAfter,
    quantity: delivery.quantity,
    quantity15: delivery.quantity15,
    temperature: delivery.temperature,
    ticketQuantity: delivery.ticketQuantity,
    difference: delivery.ticketQuantity === null ? null : measured - delivery.ticketQuantity,
  };
}
