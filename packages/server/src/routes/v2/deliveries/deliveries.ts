import { z } from 'zod';
import { moment, pathId } from '@tankportal/shared/schemas/common';
import {
  deliveriesResponseSchema,
  deliverySchema,
  deliveryTicketBody,
} from '@tankportal/shared/schemas/tank-health';
import type { Api, AppContext } from '../../../context.ts';
import { presentDelivery } from '../../../presenters/delivery.ts';
import { setTicketQuantity } from '../../../commands/delivery-tickets.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { deliveriesOfDevice, findDelivery } from '../../../repositories/deliveries.ts';
import { notFound } from '../../../http-error.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from '../devices/devices.ts';

/**
 * Deliveries: the refills the intelligence round recognised, per device with the
 * process's right, and the dealer's ticket quantity with the right to edit the device.
 */
export function deliveryRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/deliveries',
    {
      config: { role: 'ROLE_DEMO', device: { permission: 'VIEW_PROCESS' } },
      schema: {
        tags: ['devices'],
        summary: 'Deliveries of the level sensors, newest first, optionally between from and to',
        params: deviceIdParams,
        querystring: z.object({ from: moment().optional(), to: moment().optional() }),
        response: { 200: deliveriesResponseSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const deviceId = request.params.id;
      const { from, to } = request.query;
      const rows = await deliveriesOfDevice(db, deviceId, { from, to });
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
      await setTicketQuantity(db, authorOf(request), found.delivery, request.body.ticketQuantity);
      return presentDelivery({
        ...found,
        delivery: { ...found.delivery, ticketQuantity: request.body.ticketQuantity },
      });
    },
  );
}
