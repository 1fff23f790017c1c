import type { Message } from '@tankportal/shared/schemas/messages';
import type { MessageRow } from '../repositories/messages.ts';

/** A message of the log with its device (id and name) and the name of the user who sent it. */
export function presentMessage({ message, deviceName, username }: MessageRow): Message {
  return {
    id: message.id,
    deviceId: message.deviceId,
    device:
      message.deviceId !== null && deviceName !== null ? { id: message.deviceId, name: deviceName } : null,
    type: message.type,
    direction: message.direction,
    mode: message.mode,
    status: message.status,
    indication: message.indication,
    content: message.content,
    from: message.fromIdent,
    to: message.toIdent,
    fromType: message.fromType,
    toType: message.toType,
    gatewayId: message.gatewayId,
    username,
    report: message.report,
    createdAt: message.createdAt,
    receivedAt: message.receivedAt,
    sentAt: message.sentAt,
  };
}
