import { and, eq, sql } from 'drizzle-orm';
import { acceptedStatus, sendSms, type AcceptedSms } from '../channels/sms-gateways.ts';
import { formatQuerySms } from '@tankportal/shared/protocols/sms';
import type { Db } from '../db/client.ts';
import { messages, queries } from '../db/schema.ts';
import { ChannelUnavailableError, type DeviceChannels } from '../channels/device-channels.ts';
import { QUERY_FAILURES, type QueryFailure } from '@tankportal/shared/schemas/queries';
import { outboundAddress, type GatewayLookups } from './outbound-gateway.ts';
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
  /** The way out it is paced on (dispatch-queries.ts): one per SMS gateway, one for the broker. */
  lane: string;
  /** Hands it over; an SMS answers what the log notes of it (a published MQTT message: null). */
  deliver: () => Promise<AcceptedSms | null>;
}

export type Addressing = { ok: true; outgoing: Outgoing } | { ok: false; outgoing: Outgoing; reason: string };

/**
 * Why a failed query failed, as the API names it; null unless failed. Queries failed before
 * decision 033 stored the channel's words: they read as refused.
 */
export function presentQueryFailure(row: Pick<QueryRow, 'status' | 'failureReason'>): QueryFailure | null {
  if (row.status !== 'failed') return null;
  return QUERY_FAILURES.find((failure) => failure === row.failureReason) ?? 'refused';
}

/** How a query reaches the device, or why it cannot. */
export async function address(
  db: Db,
  channels: DeviceChannels,
  device: DeviceRow,
  queryId: number,
  lookups?: GatewayLookups,
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
        lane: 'mqtt',
        deliver: async () => {
          await channels.publish(commandTopic('lx_iot', device.iccid!), payload);
          return null;
        },
      },
    };
  }
  const { gatewayId, provider, to, toType } = await outboundAddress(db, device, lookups);
  const text = formatQuerySms(queryId);
  const outgoing: Outgoing = {
    type: 'sms',
    content: text,
    toIdent: to,
    toType,
    gatewayId,
    lane: `sms:${gatewayId ?? provider}`,
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
  return handOverQuery(db, await address(db, channels, device, query.id), query);
}

/**
 * Hands a query over as addressed and logs it as an outgoing message of its device, on behalf of
 * the query's user. A query the channel refuses ends as `failed`.
 */
export async function handOverQuery(db: Db, addressing: Addressing, query: QueryRow): Promise<QueryRow> {
  let failure = addressing.ok ? null : addressing.reason;
  // For the user (translated by the web); `failure` keeps the details for the message log.
  let failureKind: QueryFailure | null = addressing.ok ? null : 'no_address';
  let answer: AcceptedSms | null = null;
  // Marked sent before the handover: a device may answer before the gateway or broker returns,
  // and that answer must find its query. (A dispatched query was marked when it was claimed.)
  if (addressing.ok) {
    if (query.status === 'pending')
      await db
        .update(queries)
        .set({ status: 'sent', sentAt: sql`now()` })
        .where(and(eq(queries.id, query.id), eq(queries.status, 'pending')));
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
      deviceId: query.deviceId,
      type: outgoing.type,
      direction: 'out',
      mode: 'systemToDevice',
      status: failure ? 'sending_failed' : acceptedStatus(answer),
      content: outgoing.content,
      toIdent: outgoing.toIdent,
      toType: outgoing.toType,
      gatewayId: outgoing.gatewayId,
      userId: query.userId,
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
