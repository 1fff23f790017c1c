import { z } from 'zod';
import { and, asc, eq } from 'drizzle-orm';
import { devices, messages, smsGateways } from '../db/schema.ts';
import { ChannelUnavailableError } from '../channels/device-channels.ts';
import { sendSms, SmsGatewayError } from '../channels/sms-gateways.ts';
import type { JobDeps } from '../queue/deps.ts';
import { PermanentJobError, type JobKind, type JobRun } from '../queue/queue.ts';
import { MailNotConfiguredError, MailRejectedError } from '../channels/mailer.ts';

/**
 * The job that delivers a notification Message (its handler: jobs/definitions/deliver-notification.ts).
 * Payload version 1: the Message to deliver (its content and address are in the row).
 */
export const DELIVER_NOTIFICATION: JobKind<{ v: 1; messageId: number }> = {
  name: 'deliver-notification',
  payload: z.object({ v: z.literal(1), messageId: z.number().int().positive() }),
  maxAttempts: 20,
};

type MessageRow = typeof messages.$inferSelect;

/**
 * Splits a notification mail's content (subject, blank line, body; see outbox.ts) for sending.
 */
export function mailParts(content: string): { subject: string; text: string } {
  const cut = content.indexOf('\n\n');
  return cut < 0
    ? { subject: content, text: content }
    : { subject: content.slice(0, cut), text: content.slice(cut + 2) };
}

/**
 * The gateway for notification SMS: they go to a contact's cell number, which only a gateway
 * addressing cell numbers reaches (Lionel; 1NCE's API sends only to its own SIMs). The device's
 * outbound gateway when it is such a one, otherwise the first one configured.
 */
async function smsGatewayFor(deps: JobDeps, deviceId: number | null) {
  const lionel = await deps.db
    .select({ id: smsGateways.id })
    .from(smsGateways)
    .where(eq(smsGateways.provider, 'lionel'))
    .orderBy(asc(smsGateways.id));
  let gatewayId = lionel[0]?.id ?? null;
  if (deviceId !== null) {
    const [device] = await deps.db
      .select({ outboundGatewayId: devices.outboundGatewayId })
      .from(devices)
      .where(eq(devices.id, deviceId));
    if (device?.outboundGatewayId && lionel.some((row) => row.id === device.outboundGatewayId))
      gatewayId = device.outboundGatewayId;
  }
  return { gatewayId, gateway: deps.deviceChannels.smsGateway('lionel') };
}

async function send(
  message: MessageRow,
  deps: JobDeps,
): Promise<{ report: string; gatewayId?: number | null; gatewayMessageId?: string }> {
  if (!message.toIdent) throw new PermanentJobError('the message has no address');
  if (message.type === 'mail') {
    const { subject, text } = mailParts(message.content);
    const answer = await deps.mailer.send({ to: message.toIdent, subject, text });
    return { report: `SMTP: ${answer}` };
  }
  if (message.type === 'sms') {
    const { gatewayId, gateway } = await smsGatewayFor(deps, message.deviceId);
    return { ...(await sendSms(gateway, { to: message.toIdent, text: message.content })), gatewayId };
  }
  throw new PermanentJobError(`notifications are not sent as ${message.type}`);
}

/** Errors that another attempt cannot cure: the job gives up at once. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof PermanentJobError ||
    error instanceof MailNotConfiguredError ||
    error instanceof MailRejectedError ||
    error instanceof ChannelUnavailableError ||
    (error instanceof SmsGatewayError && !error.retryable)
  );
}

/**
 * Delivers one notification Message (the deliver-notification job). A Message already sent (an
 * earlier run that died before the job was marked done) is not sent again; one deleted with its
 * device is gone. Success: status `sent` with the channel's answer in `report`. A failed attempt is
 * noted in `report` (status stays `created`) and retried by the queue; the last one, or a permanent
 * failure, ends as `sending_failed` (recordDeliveryFailure).
 */
export async function deliverMessage(messageId: number, run: JobRun, deps: JobDeps): Promise<void> {
  const [message] = await deps.db.select().from(messages).where(eq(messages.id, messageId));
  if (!message || message.status !== 'created') return;
  try {
    const { report, gatewayId, gatewayMessageId } = await send(message, deps);
    await deps.db
      .update(messages)
      .set({
        // An SMS is at the gateway until its delivery report; a mail handed to SMTP is sent.
        status: gatewayMessageId ? 'gateway' : 'sent',
        sentAt: new Date(),
        report,
        gatewayMessageId,
        ...(gatewayId ? { gatewayId } : {}),
      })
      .where(eq(messages.id, messageId));
  } catch (error) {
    const reason = (error as Error).message;
    if (isPermanent(error)) throw new PermanentJobError(reason);
    await deps.db
      .update(messages)
      .set({ report: `attempt ${run.attempt} of ${run.maxAttempts} failed: ${reason}` })
      .where(eq(messages.id, messageId));
    throw error;
  }
}

/** The job gave up: the Message keeps its content, with `sending_failed` and the reason. */
export async function recordDeliveryFailure(messageId: number, error: Error, deps: JobDeps): Promise<void> {
  await deps.db
    .update(messages)
    .set({ status: 'sending_failed', report: error.message })
    .where(and(eq(messages.id, messageId), eq(messages.status, 'created')));
}
