import { eq } from 'drizzle-orm';
import type { IdentType, MessageType } from '@tankportal/shared/devices';
import type { Db } from '../db/client.ts';
import { devices, messages } from '../db/schema.ts';
import { NotificationOutbox } from './outbox.ts';

export interface InboundText {
  type: Exclude<MessageType, 'mail'>;
  fromIdent: string;
  fromType: IdentType;
  text: string;
  /** The gateway's id of the message: a redelivered webhook is recognised and forwarded once. */
  dedupKey?: string;
}

/**
 * The forward event (docs/architecture.md, Notifications): a message of a known device that is no
 * measurement report — a free-text SMS, e.g. a technician's note or the answer of the SIM
 * provider to a credit query — is logged (status processed, indication `forward`) and forwarded
 * by mail to the recipients of the device's forward event, in the same transaction.
 */
export async function forwardDeviceMessage(
  db: Db,
  deviceId: number,
  inbound: InboundText,
): Promise<{ duplicate: boolean; forwarded: number }> {
  return db.transaction(async (tx) => {
    // Locked as by ingest: the recipients' throttle is read and written by one transaction at a time.
    const [device] = await tx
      .select({ id: devices.id, name: devices.name, active: devices.active })
      .from(devices)
      .where(eq(devices.id, deviceId))
      .for('update');
    if (!device) throw new Error(`device ${deviceId} does not exist`);
    const receivedAt = new Date();
    const [logged] = await tx
      .insert(messages)
      .values({
        deviceId,
        type: inbound.type,
        direction: 'in',
        mode: 'deviceToSystem',
        status: 'processed',
        indication: 'forward',
        content: inbound.text.slice(0, 10_000),
        fromIdent: inbound.fromIdent,
        fromType: inbound.fromType,
        dedupKey: inbound.dedupKey ?? null,
        receivedAt,
      })
      .onConflictDoNothing()
      .returning({ id: messages.id });
    if (!logged) return { duplicate: true, forwarded: 0 };
    const outbox = new NotificationOutbox();
    outbox.add(device, {
      name: 'forward',
      at: receivedAt,
      text: inbound.text,
      from: inbound.fromIdent,
      via: inbound.type,
    });
    const forwarded = await outbox.flush(tx, receivedAt);
    await tx
      .update(messages)
      .set({
        report: device.active
          ? `forwarded by mail to ${forwarded} recipient(s)`
          : 'not forwarded: device inactive',
      })
      .where(eq(messages.id, logged.id));
    return { duplicate: false, forwarded };
  });
}
