import { z } from 'zod';
import { toFieldError, type FieldError } from '@tankportal/shared/field-errors';
import { hasRole } from '@tankportal/shared/roles';
import {
  CONFIGURATION_DELIVERY_HEADERS as DELIVERY,
  configurationContextOf,
  configurationFromDevice,
  deviceConfigurationBody,
  masterOnlyChanges,
} from '@tankportal/shared/schemas/device-configuration';
import { deviceDetailSchema } from '@tankportal/shared/schemas/devices';
import type { Api, AppContext } from '../../../context.ts';
import {
  checkConfigurationReferences,
  deliverConfiguration,
  saveConfiguration,
  withoutMasterFields,
} from '../../../commands/update-configuration.ts';
import { forbidden, invalidFields } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { errorSchema } from '../../schemas.ts';
import { loadDeviceDetail } from './device-detail.ts';
import { deviceIdParams } from './devices.ts';
import { findDeviceRow } from '../../../repositories/devices.ts';

/** Each path once, its first error: what a form field can show. */
function firstPerPath(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => !seen.has(error.path) && seen.add(error.path));
}

/**
 * The configuration of a device: sensors, threshold
 * intervals and the type's own settings, validated by the shared rules of the device's variant
 * (which depend on the stored device, so the body is checked in the handler, after access).
 */
export function deviceConfigurationRoutes(app: Api, { db, deviceChannels, deviceDirectory }: AppContext) {
  app.put(
    '/devices/:id/configuration',
    {
      // Demo accounts are read-only: 403 whatever the device. No transaction of the chain's: the
      // configuration is committed before it is sent (update-configuration.ts).
      config: { role: 'ROLE_APP_USER', device: { permission: 'CONFIGURATION' } },
      schema: {
        tags: ['devices'],
        summary:
          'Saves the configuration and sends it to the device (SMS, MQTT command, or with the answer to the next net report); headers say whether it reached the device',
        description: [
          'Body: see packages/shared/src/schemas/device-configuration.ts (deviceConfigurationBody); intervals in seconds, send times HH:mm. Only a master may change master-only fields (403).',
          'The configuration is saved even when it cannot be sent (decision 025). Answer headers:',
          `x-sms-sent: configuration SMS handed to the gateway; ${DELIVERY.status}: sent | pending (net: with the answer to the next report) | failed;`,
          `${DELIVERY.channel}: sms | mqtt | net; ${DELIVERY.failure} (only when failed): not_configured (no SMS gateway API or MQTT broker on the server) | no_address (the device has no cell number, ICCID or client id) | refused (the gateway or broker was not reachable or refused).`,
        ].join(' '),
        params: deviceIdParams,
        body: z.looseObject({}),
        response: {
          200: deviceDetailSchema,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const { id } = request.params;
      const isMaster = hasRole(actor.role, 'ROLE_MASTER');
      // What this actor sees (master-only values hidden from others) is what its form sends back.
      const seen = await loadDeviceDetail(db, actor, id);
      const context = configurationContextOf(seen, isMaster);
      const parsed = deviceConfigurationBody(context).safeParse(request.body);
      if (!parsed.success) throw invalidFields(firstPerPath(parsed.error.issues.map(toFieldError)));
      let change = parsed.data;
      const before = configurationFromDevice(seen);
      if (!isMaster) {
        if (masterOnlyChanges(before, change).length) throw forbidden();
        change = withoutMasterFields(change);
      }
      const device = (await findDeviceRow(db, id))!;
      await checkConfigurationReferences(db, device, change, context.smsGatewayType ?? null);
      await saveConfiguration(db, deviceDirectory, device, change, { author: authorOf(request), before });
      const delivery = await deliverConfiguration(db, deviceChannels, device, actor.id);
      reply.header('x-sms-sent', String(delivery.smsSent));
      reply.header(DELIVERY.status, delivery.status);
      reply.header(DELIVERY.channel, delivery.channel);
      if (delivery.failure) reply.header(DELIVERY.failure, delivery.failure);
      return loadDeviceDetail(db, actor, id);
    },
  );
}
