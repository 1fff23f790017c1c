import { eq, sql } from 'drizzle-orm';
import { acceptedStatus, sendSms, type AcceptedSms } from '../channels/sms-gateways.ts';
import { formatQuerySms } from '@tankportal/shared/protocols/sms';
import type { Db } from '../db/client.ts';
import { messages, queries } from '../db/schema.ts';
import { ChannelUnavailableError, type DeviceChannels } from '../channels/device-channels.ts';
import type { QueryFailure } from '@tankportal/shared/schemas/queries';
import { outboundAddress } from './outbound-gateway.ts';
import { commandTopic } from '../channels/mqtt-topics.ts';
import type { DeviceRow } from '../repositories/devices.ts';

export type QueryRow = typeof queries.$inferSelect;

/** One outgoing query, addressed: what the message log records and how to hand it over. */
interface Outgoing {
  type: 'sms' | 'lx_iot';
  content: string;
  toIdent: string | null;
  toType: 'cell_number' | 'iccid';
  gatewayId: number | null;
  /** Hands the query to the gateway or broker; resolves with what the channel answered. */
  /** Hands it over; an SMS answers what the log notes of it (a published MQTT message: null). */
  deliver: () => Promise<AcceptedSms | null>;
}

type Addressing = { ok: true; outgoing: Outgoing } | { ok: false; outgoing: Outgoing; reason: string };

/** The device types a manual query reaches (devices-area §4). */
export const QUERYABLE_TYPES = ['sms', 'lx_iot'] as const;

async function address(
  db: Db,
  channels: DeviceChannels,
  device: DeviceRow,
  queryId: number,
): Promise<Addressing> {
  if (device.type === 'lx_iot') {
    const payload = JSON.stringify({ command: 'query', queryId });
    return {
      ok: true,
      outgoing: {
        type: 'lx_iot',
        content: payload,
        toIdent: device.iccid,
        toType: 'iccid',
        gatewayId: null,
        deliver: async () => {
          await channels.publish(commandTopic('lx_iot', device.iccid!), payload);
          return null;
        },
      },
    };
  }
  const { gatewayId, provider, to, toType } = await outboundAddress(db, device);
  const text = formatQuerySms(queryId);
  const outgoing: Outgoing = {
    type: 'sms',
    content: text,
    toIdent: to,
    toType,
    gatewayId,
    deliver: () => sendSms(channels.smsGateway(provider), { to: to!, text }),
  };
  if (!to)
    return {
      ok: false,
      outgoing,
      reason: `the device has no ${provider === 'lionel' ? 'cell number' : 'ICCID'} for ${provider}`,
    };
  return { ok: true, outgoing };
}

/**
 * Sends a manual query to an SMS or LX-IoT device and logs it as an outgoing message. A query the
 * channel refuses (gateway down, not configured, broker unavailable) ends as `failed`: the query
 * keeps the kind of failure (QueryFailure, shown to the user), the message log the channel's words.
 */
export async function sendQuery(
  db: Db,
  channels: DeviceChannels,
  device: DeviceRow,
  userId: number,
): Promise<QueryRow> {
  const [query] = await db.insert(queries).values({ deviceId: device.id, userId }).returning();
  const addressing = await address(db, channels, device, query.id);
  let failure = addressing.ok ? null : addressing.reason;
  // For the user (translated by the web); `failure` keeps the details for the message log.
  let failureKind: QueryFailure | null = addressing.ok ? null : 'no_address';
  let answer: AcceptedSms | null = null;
  if (addressing.ok) {
    // Marked sent before the handover: a device may answer before the gateway or broker returns,
    // and that answer must find its query.
    await db
      .update(queries)
      .set({ status: 'sent', sentAt: sql`now()` })
      .where(eq(queries.id, query.id));
    try {
      answer = await addressing.outgoing.deliver();
    } catch (error) {
      failure = (error as Error).message;
      failureKind = error instanceof ChannelUnavailableError ? 'not_configured' : 'refused';
    }
  }
  const { outgoing } = addressing;
  const [message] = await db
    .insert(messages)
    .values({
      deviceId: device.id,
      type: outgoing.type,
      direction: 'out',
      mode: 'systemToDevice',
      status: failure ? 'sending_failed' : acceptedStatus(answer),
      content: outgoing.content,
      toIdent: outgoing.toIdent,
      toType: outgoing.toType,
      gatewayId: outgoing.gatewayId,
      userId,
      report: failure ?? answer?.report ?? null,
      gatewayMessageId: answer?.gatewayMessageId,
      sentAt: failure ? null : new Date(),
    })
    .returning({ id: messages.id });
  const [row] = await db
    .update(queries)
    .set(
      failure
        ? {
            messageId: message.id,
            // An answer that came in meanwhile stays: the device did report.
            status: sql`CASE WHEN ${queries.status} = 'processed' THEN 'processed' ELSE 'failed' END`,
            failureReason: failureKind,
          }
        : { messageId: message.id },
    )
    .where(eq(queries.id, query.id))
    .returning();
  return row;
}
