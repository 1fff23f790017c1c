import { and, desc, eq, gte, lte } from 'drizzle-orm';
import { z } from 'zod';
import { moment, pathId } from '@tankportal/shared/schemas/common';
import {
  deliveriesResponseSchema,
  deliverySchema,
  deliveryTicketBody,
  type Delivery,
} from '@tankportal/shared/schemas/tank-health';
import type { Api, AppContext } from '../../../context.ts';
import type { Db } from '../../../db/client.ts';
import { deliveries, sensors } from '../../../db/schema.ts';
import { notFound } from '../../../http-error.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from '../devices/devices.ts';

/** At most this many deliveries in one answer: over twenty years of weekly refills. */
const MAX_DELIVERIES = 1_000;

const columns = {
  delivery: deliveries,
  sequence: sensors.sequence,
  sensorName: sensors.name,
  unit: sensors.unit,
};
type DeliveryRow = {
  delivery: typeof deliveries.$inferSelect;
  sequence: number;
  sensorName: string;
  unit: string;
};

function presentDelivery({ delivery, sequence, sensorName, unit }: DeliveryRow): Delivery {
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

async function findDelivery(db: Db, id: number) {
  const [row] = await db
    .select(columns)
    .from(deliveries)
    .innerJoin(sensors, eq(sensors.id, deliveries.sensorId))
    .where(eq(deliveries.id, id));
  return row;
}

/**
 * Deliveries: the refills the intelligence round recognised, per device with the
 * process's right, and the dealer's ticket quantity with the right to edit the device.
 */
export function deliveryRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/deliveries',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary: 'Deliveries of the level sensors, newest first, optionally between from and to',
        params: deviceIdParams,
        querystring: z.object({ from: moment().optional(), to: moment().optional() }),
        response: { 200: deliveriesResponseSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const deviceId = request.params.id;
      await requireDevicePermission(db, actor, deviceId, 'VIEW_PROCESS');
      const { from, to } = request.query;
      const rows = await db
        .select(columns)
        .from(deliveries)
        .innerJoin(sensors, eq(sensors.id, deliveries.sensorId))
        .where(
          and(
            eq(deliveries.deviceId, deviceId),
            from ? gte(deliveries.deliveredAt, from) : undefined,
            to ? lte(deliveries.deliveredAt, to) : undefined,
          ),
        )
        .orderBy(desc(deliveries.deliveredAt))
        .limit(MAX_DELIVERIES);
      return rows.map(presentDelivery);
    },
  );

  app.put(
    '/deliveries/:id',
    {
      config: { role: 'ROLE_APP_USER' },
      schema: {
        tags: ['devices'],
        summary: "The delivery ticket's quantity (null clears it); answers the delivery with the difference",
        params: z.object({ id: pathId() }),
        body: deliveryTicketBody,
        response: { 200: deliverySchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const found = await findDelivery(db, request.params.id);
      if (!found) throw notFound();
      await requireDevicePermission(db, actor, found.delivery.deviceId, 'EDIT');
      await db
        .update(deliveries)
        .set({ ticketQuantity: request.body.ticketQuantity })
        .where(eq(deliveries.id, found.delivery.id));
      return presentDelivery({
        ...found,
        delivery: { ...found.delivery, ticketQuantity: request.body.ticketQuantity },
      });
    },
  );
}
