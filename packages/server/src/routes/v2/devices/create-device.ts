import { createDeviceBody, createdDeviceSchema } from '@tankportal/shared/schemas/device-create';
import type { Api, AppContext } from '../../../context.ts';
import { createDevice } from '../../../commands/create-device.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { errorSchema } from '../../schemas.ts';
import { loadDeviceDetail } from './device-detail.ts';
import { requireKnownCountry } from './device-metadata.ts';

/** Create device: admins and above. */
export function createDeviceRoutes(app: Api, { db }: AppContext) {
  app.post(
    '/devices',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['devices'],
        summary:
          'Creates a device of the actor (assign it to a user afterwards); net, IoT and LX-IoT ' +
          'devices get a secret, answered once as deviceSecret',
        body: createDeviceBody,
        response: { 201: createdDeviceSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      requireKnownCountry(request.body.address.countryCode);
      const created = await createDevice(db, authorOf(request), request.body);
      const device = await loadDeviceDetail(db, actor, created.id);
      return reply
        .code(201)
        .header('location', `/api/v2/devices/${created.id}`)
        .header('cache-control', 'no-store')
        .send(created.secret ? { device, deviceSecret: created.secret } : { device });
    },
  );
}
