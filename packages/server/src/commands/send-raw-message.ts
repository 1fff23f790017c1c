import type { RawMessageBody } from '@tankportal/shared/schemas/device-metadata';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import type { DeviceChannels } from '../channels/device-channels.ts';
import { commandTopic } from '../channels/mqtt-topics.ts';
import { acceptedStatus, sendSms, type AcceptedSms } from '../channels/sms-gateways.ts';
import { outboundAddress } from './outbound-gateway.ts';
import { invalidFields } from '../http-error.ts';
import type { DeviceRow } from '../repositories/devices.ts';

export type MessageRow = typeof messages.$inferSelect;

/** Where a raw message goes and how it is handed over. */
interface Addressed {
  toIdent: string;
  toType: 'cell_number' | 'iccid' | 'thing_name';
  gatewayId: number | null;
  /** Hands it over; an SMS answers what the log notes of it (a published MQTT message: null). */
  deliver: () => Promise<AcceptedSms | null>;
}

async function addressed(
  db: Db,
  channels: DeviceChannels,
  device: DeviceRow,
  body: RawMessageBody,
): Promise<Addressed> {
  const noIdent = () => invalidFields([{ path: 'deviceId', code: 'invalid', args: { reason: 'no_ident' } }]);
  if (body.type === 'sms') {
    const { gatewayId, provider, to, toType } = await outboundAddress(db, device);
    if (!to) throw noIdent();
    return {
      toIdent: to,
      toType,
      gatewayId,
      deliver: () => sendSms(channels.smsGateway(provider), { to, text: body.content }),
    };
  }
  const ident = body.type === 'iot' ? device.thingName : device.iccid;
  if (!ident) throw noIdent();
  return {
    toIdent: ident,
    toType: body.type === 'iot' ? 'thing_name' : 'iccid',
    gatewayId: null,
    deliver: async () => {
      await channels.publish(commandTopic(body.type as 'iot' | 'lx_iot', ident), body.content);
      return null;
    },
  };
}

/**
 * A raw message typed by an operator (the master's raw IoT and LX-IoT JSON
 * sender, an admin's SMS): the content goes unchanged to the device, over MQTT on its command
 * topic or as an SMS through its outbound gateway, and is logged as an outgoing message. The
 * device must be of the message's type (400 otherwise). A channel that refuses it (gateway down,
 * broker not running) leaves the message `sending_failed` with the reason.
 */
export async function sendRawMessage(
  db: Db,
  channels: DeviceChannels,
  device: DeviceRow,
  body: RawMessageBody,
  userId: number,
): Promise<MessageRow> {
  if (device.type !== body.type)
    throw invalidFields([{ path: 'deviceId', code: 'invalid', args: { reason: 'type' } }]);
  const target = await addressed(db, channels, device, body);
  let failure: string | null = null;
  let answer: AcceptedSms | null = null;
  try {
    answer = await target.deliver();
  } catch (error) {
    failure = (error as Error).message;
  }
  const [message] = await db
    .insert(messages)
    .values({
      deviceId: device.id,
      type: body.type,
      direction: 'out',
      mode: 'systemToDevice',
      status: failure ? 'sending_failed' : acceptedStatus(answer),
      content: body.content,
      toIdent: target.toIdent,
      toType: target.toType,
      gatewayId: target.gatewayId,
      userId,
      report: failure ?? answer?.report ?? null,
      gatewayMessageId: answer?.gatewayMessageId,
      sentAt: failure ? null : new Date(),
    })
    .returning();
  return message;
}
