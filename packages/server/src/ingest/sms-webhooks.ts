import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { toFieldError } from '@tankportal/shared/field-errors';
import type { IngestContext } from './ingest-context.ts';
import type { Db } from '../db/client.ts';
import { devices, messages } from '../db/schema.ts';
import { errorBody } from '../http-error.ts';
import { logParsingFailed, parseAndStoreReport, refusalError, senderKey } from './store-report.ts';
import type { Sender } from './ingest-item.ts';
import { storableText } from './malformed-excerpt.ts';
import { forwardDeviceMessage } from '../notifications/forward.ts';
import { parseMeasurementSms, SmsFormatError } from '@tankportal/shared/protocols/sms';

/**
 * An inbound SMS as each gateway's webhook delivers it, reduced to what ingest needs; its text and
 * id made storable (a NUL would make every insert of it fail).
 */
interface InboundSms {
  sender: Sender;
  text: string;
  /** The gateway's id of the SMS: a redelivered webhook is recognised. */
  id: string;
}

interface GatewayWebhook {
  path: string;
  body: z.ZodType;
  toSms(body: any): InboundSms;
}

// Lionel posts the sender's number; 1NCE the ICCID of the sending SIM (docs/protocols.md).
const WEBHOOKS: Record<'lionel' | '1nce', GatewayWebhook> = {
  lionel: {
    path: '/ingest/sms/lionel',
    body: z.object({
      messageId: z.string().min(1),
      from: z.string().regex(/^\+?\d{6,16}$/),
      to: z.string().optional(),
      text: z.string().max(1600),
    }),
    toSms: (body: { messageId: string; from: string; text: string }) => ({
      id: storableText(body.messageId),
      sender: {
        type: 'sms',
        identType: 'cell_number',
        ident: body.from.startsWith('+') ? body.from : `+${body.from}`,
      },
      text: storableText(body.text),
    }),
  },
  '1nce': {
    path: '/ingest/sms/1nce',
    body: z.object({
      id: z.union([z.string(), z.number()]),
      iccid: z.string().regex(/^\d{18,22}$/),
      msisdn: z.string().optional(),
      payload: z.string().max(1600),
    }),
    toSms: (body: { id: string | number; iccid: string; payload: string }) => ({
      id: storableText(String(body.id)),
      sender: { type: 'sms', identType: 'iccid', ident: body.iccid },
      text: storableText(body.payload),
    }),
  },
};

/**
 * An SMS from a number (or SIM) no device has: one message per sender, showing its latest SMS and
 * when it came, not a row per SMS. Updated at most so often per minute (ingest-write-limit.ts).
 */
async function recordUnknownSender(ingest: IngestContext, sender: Sender, text: string) {
  const allowance = await ingest.ingestWriteLimit.take({ sender: senderKey(sender.type, sender.ident) });
  if (!allowance.allowed) return;
  const latest = { content: text, receivedAt: new Date() };
  await ingest.db
    .insert(messages)
    .values({
      type: 'sms',
      direction: 'in',
      mode: 'deviceToSystem',
      status: 'unknown',
      fromIdent: sender.ident,
      fromType: sender.identType,
      dedupKey: `unknown-sender:${sender.identType}:${sender.ident}`,
      ...latest,
    })
    .onConflictDoUpdate({ target: [messages.type, messages.dedupKey], set: latest });
}

/** The SMS device a sender is: Lionel's by its cell number, 1NCE's by its SIM's ICCID. */
export async function smsDeviceOf(db: Db, sender: Sender): Promise<{ id: number } | undefined> {
  const identColumn = sender.identType === 'iccid' ? devices.iccid : devices.cellNumber;
  const [device] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(identColumn, sender.ident), eq(devices.type, 'sms')))
    .limit(1);
  return device;
}

export function tokenMatches(expected: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Inbound SMS webhooks of the gateways. Each gateway authenticates with its token in the
 * `x-webhook-token` header; a gateway without a configured token is switched off (503).
 */
export function registerSmsWebhooks(
  app: FastifyInstance,
  ingest: IngestContext,
  tokens: { lionel?: string; '1nce'?: string },
) {
  for (const [gateway, webhook] of Object.entries(WEBHOOKS) as [keyof typeof WEBHOOKS, GatewayWebhook][]) {
    app.post(webhook.path, { bodyLimit: 16_384 }, async (request: FastifyRequest, reply: FastifyReply) => {
      const token = tokens[gateway];
      if (!token) return reply.code(503).send(errorBody(503, `The ${gateway} webhook is not configured`));
      if (!tokenMatches(token, request.headers['x-webhook-token']))
        return reply.code(401).send(errorBody(401, 'Wrong webhook token'));
      const body = webhook.body.safeParse(request.body);
      if (!body.success)
        return reply.code(400).send(errorBody(400, 'Malformed webhook', body.error.issues.map(toFieldError)));
      const { sender, text, id } = webhook.toSms(body.data);

      const device = await smsDeviceOf(ingest.db, sender);
      if (!device) {
        await recordUnknownSender(ingest, sender, text);
        return reply.code(200).send({ status: 'unknown_sender' });
      }
      if (!/^TP\d+;/.test(text.trim())) {
        // Free text of a known device, not a report: the forward event (docs/architecture.md).
        const forwarded = await forwardDeviceMessage(ingest.db, device.id, {
          type: 'sms',
          fromIdent: sender.ident,
          fromType: sender.identType,
          text,
          dedupKey: `${gateway}:${id}`,
        });
        return reply.code(200).send({ status: forwarded.duplicate ? 'duplicate' : 'forwarded' });
      }
      let report: unknown;
      try {
        report = parseMeasurementSms(text);
      } catch (error) {
        if (!(error instanceof SmsFormatError)) throw error;
        // Limited per sender (the webhook's address is the gateway's): beyond the limit the answer
        // stays the same, so the gateway does not repeat an SMS that would not be logged again.
        await logParsingFailed(
          ingest,
          sender,
          text,
          [{ path: 'text', code: 'invalid', args: { reason: error.message } }],
          { deviceId: device.id },
        );
        return reply.code(422).send(errorBody(422, `Unreadable SMS: ${error.message}`));
      }
      const taken = await parseAndStoreReport(ingest, device.id, sender, report, text);
      if (!taken.parsed) return reply.code(422).send(errorBody(422, 'Unreadable SMS', taken.fieldErrors));
      const { result } = taken;
      if (result.refused)
        return reply.code(422).send(errorBody(422, 'Unreadable SMS', [refusalError(result.refused)]));
      return reply
        .code(200)
        .send({ status: result.duplicate ? 'duplicate' : 'processed', stored: result.stored });
    });
  }
}
