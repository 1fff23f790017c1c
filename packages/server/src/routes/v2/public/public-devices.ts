import { z } from 'zod';
import { publicDeviceSchema } from '@tankportal/shared/schemas/public-device';
import type { Api, AppContext } from '../../../context.ts';
import { notFound } from '../../../http-error.ts';
import { presentPublicDevice } from '../../../presenters/public-device.ts';
import { findPublicDevice, openAlarmsOf, sensorsOfDevices } from '../../../repositories/devices.ts';
import { errorSchema } from '../../schemas.ts';

/**
 * The public status page of a device: no session, the link's token is the key.
 * Unknown token and switched-off page answer the same 404.
 */
export function publicDeviceRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/public/devices/:token',
    {
      config: { role: 'public' },
      schema: {
        tags: ['public'],
        summary: 'Levels and open alarms of a device whose public status page is switched on',
        params: z.object({ token: z.string().max(128) }),
        response: { 200: publicDeviceSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      // Whoever holds the link may look; search engines and shared caches should not keep it.
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
      const device = await findPublicDevice(db, request.params.token);
      if (!device) throw notFound();
      const [sensors, alarms] = await Promise.all([
        sensorsOfDevices(db, [device.id]),
        openAlarmsOf(db, device.id),
      ]);
      return presentPublicDevice(device, sensors.get(device.id) ?? [], alarms);
    },
  );
}
