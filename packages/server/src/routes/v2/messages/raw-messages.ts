import { rawMessageBody, rawMessageSchema } from '@tankportal/shared/schemas/device-metadata';
import type { Api, AppContext } from '../../../context.ts';
import { sendRawMessage } from '../../../commands/send-raw-message.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { requireRole } from '../../../policies/roles.ts';
import { errorSchema } from '../../schemas.ts';
import { findDeviceRow } from '../../../repositories/devices.ts';

/**
 * POST /v2/messages: a message typed by an operator, sent to one device. SMS needs
 * an admin with EDIT on the device; raw IoT and LX-IoT telegrams are the master's.
 */
export function rawMessageRoutes(app: Api, { db, deviceChannels }: AppContext) {
  app.post(
    '/messages',
    {
      config: { role: 'ROLE_ADMIN' },
      schema: {
        tags: ['messages'],
        summary:
          'Sends a message to a device: sms (admin, EDIT) through its outbound gateway, iot / lx_iot ' +
          '(master) on its MQTT command topic',
        body: rawMessageBody,
        response: {
          201: rawMessageSchema,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const actor = requireRole(request.actor, body.type === 'sms' ? 'ROLE_ADMIN' : 'ROLE_MASTER').user;
      await requireDevicePermission(db, actor, body.deviceId, 'EDIT');
      const device = (await findDeviceRow(db, body.deviceId))!;
      const message = await sendRawMessage(db, deviceChannels, device, body, actor.id);
      return reply.code(201).send({
        id: message.id,
        type: body.type,
        status: message.status,
        content: message.content,
        report: message.report,
        createdAt: message.createdAt,
      });
    },
  );
}
