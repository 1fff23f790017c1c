import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { toFieldError } from '@tankportal/shared/field-errors';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { errorBody } from '../http-error.ts';
import { deliveryKey } from '../channels/sms-gateways.ts';
import { storableText } from './malformed-excerpt.ts';
import { tokenMatches } from './sms-webhooks.ts';

/** What a gateway says became of an SMS it accepted: sent on to the network, delivered, or not. */
type Outcome = 'sent' | 'delivered' | 'delivery_failed';

/** The statuses each outcome moves a message from: no report undoes a later state. */
const MOVES_FROM: Record<Outcome, ('gateway' | 'sent')[]> = {
  sent: ['gateway'],
  delivered: ['gateway', 'sent'],
  delivery_failed: ['gateway', 'sent'],
};

const outcomeOf = (status: string): Outcome =>
  status === 'DELIVERED' ? 'delivered' : status === 'SENT' ? 'sent' : 'delivery_failed';

interface DeliveryReport {
  /** The gateway's id of the SMS, as its API answered when it took it. */
  id: string;
  outcome: Outcome;
  /** The gateway's own word for it, kept in the message's report. */
  detail: string;
}

const FAILED = ['UNDELIVERABLE', 'EXPIRED', 'REJECTED', 'FAILED'] as const;

// Lionel posts `{ messageId, status }`, 1NCE `{ id, status }` (docs/protocols.md).
const WEBHOOKS = {
  lionel: {
    path: '/ingest/sms/lionel/delivery',
    body: z.object({
      messageId: z.string().min(1).max(200),
      status: z.enum(['SENT', 'DELIVERED', ...FAILED]),
      reason: z.string().max(500).optional(),
    }),
    toReport: (body: { messageId: string; status: string; reason?: string }): DeliveryReport => ({
      id: body.messageId,
      outcome: outcomeOf(body.status),
      detail: [body.status, body.reason].filter(Boolean).join(': '),
    }),
  },
  '1nce': {
    path: '/ingest/sms/1nce/delivery',
    body: z.object({
      id: z.union([z.string().min(1).max(200), z.number().int()]),
      status: z.enum(['SENT', 'DELIVERED', 'FAILED']),
      error: z.string().max(500).optional(),
    }),
    toReport: (body: { id: string | number; status: string; error?: string }): DeliveryReport => ({
      id: String(body.id),
      outcome: outcomeOf(body.status),
      detail: [body.status, body.error].filter(Boolean).join(': '),
    }),
  },
} as const;

/**
 * Moves the outgoing SMS the report names on: from `gateway` to `sent`, or from either to
 * `delivered` or `delivery_failed`. An id no message of this gateway has, or a message already past
 * what the report says, changes nothing: a report cannot invent a message nor undo a later state.
 */
async function applyReport(db: Db, provider: keyof typeof WEBHOOKS, report: DeliveryReport) {
  const updated = await db
    .update(messages)
    .set({
      status: report.outcome,
      report: sql`concat_ws(' | ', ${messages.report}, ${`delivery report: ${storableText(report.detail)}`}::text)`,
    })
    .where(
      and(
        eq(messages.gatewayMessageId, deliveryKey(provider, storableText(report.id))),
        eq(messages.type, 'sms'),
        eq(messages.direction, 'out'),
        inArray(messages.status, MOVES_FROM[report.outcome]),
      ),
    )
    .returning({ id: messages.id });
  return updated.length;
}

/**
 * A report can overtake the portal's note of the gateway's id: the gateway has answered the send
 * and reports at once, while the portal is still writing the id down. A report whose id no message
 * has yet is looked for again after these pauses (6 s in all: the portal notes the id after the
 gateway's answer, which a busy embedded database can keep waiting) before it counts as unknown.
 */
const OVERTAKEN_REPORT_PAUSES_MS = [250, 500, 1_000, 2_000, 2_250];

async function applyReportOnceKnown(db: Db, provider: keyof typeof WEBHOOKS, report: DeliveryReport) {
  const key = deliveryKey(provider, storableText(report.id));
  let changed = await applyReport(db, provider, report);
  for (const pause of OVERTAKEN_REPORT_PAUSES_MS) {
    if (changed) break;
    const [known] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.gatewayMessageId, key))
      .limit(1);
    // A message past what the report says stays as it is; only a missing one is waited for.
    if (known) break;
    await sleep(pause);
    changed = await applyReport(db, provider, report);
  }
  return changed;
}

/**
 * The gateways' delivery report webhooks, authenticated like the inbound SMS
 * webhooks by the gateway's token in `x-webhook-token`; a gateway without one is switched off (503).
 * Every well-formed report answers 200, so that the gateway does not send it again.
 */
export function registerSmsDeliveryReports(
  app: FastifyInstance,
  db: Db,
  tokens: { lionel?: string; '1nce'?: string },
) {
  for (const [provider, webhook] of Object.entries(WEBHOOKS) as [
    keyof typeof WEBHOOKS,
    (typeof WEBHOOKS)[keyof typeof WEBHOOKS],
  ][]) {
    app.post(webhook.path, { bodyLimit: 4096 }, async (request, reply) => {
      const token = tokens[provider];
      if (!token) return reply.code(503).send(errorBody(503, `The ${provider} webhook is not configured`));
      if (!tokenMatches(token, request.headers['x-webhook-token']))
        return reply.code(401).send(errorBody(401, 'Wrong webhook token'));
      const body = webhook.body.safeParse(request.body);
      if (!body.success)
        return reply
          .code(400)
          .send(errorBody(400, 'Malformed delivery report', body.error.issues.map(toFieldError)));
      const report = webhook.toReport(body.data as never);
      const changed = await applyReportOnceKnown(db, provider, report);
      return reply.code(200).send({ status: changed ? report.outcome : 'unchanged' });
    });
  }
}
