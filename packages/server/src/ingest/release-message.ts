import { eq } from 'drizzle-orm';
import { reportV1 } from '@tankportal/shared/protocols/report';
import { parseMeasurementSms, SmsFormatError } from '@tankportal/shared/protocols/sms';
import type { FieldError } from '@tankportal/shared/field-errors';
import { messages } from '../db/schema.ts';
import { HttpError, notFound } from '../http-error.ts';
import type { IngestContext } from './ingest-context.ts';
import type { Sender } from './ingest-item.ts';
import { storeReport } from './store-report.ts';
import { smsDeviceOf } from './sms-webhooks.ts';

/** Inbound SMS that were kept but not processed: unreadable, or from a sender no device had. */
const RELEASABLE = ['parsing_failed', 'unknown'] as const;

const refused = (reason: string, text: string) =>
  new HttpError(409, text, [{ path: 'message', code: 'invalid', args: { reason } } satisfies FieldError]);

/**
 * Releasing a message (decision 040): an inbound SMS that could not be processed —
 * unreadable then, or from a number no device had — is processed again now that the cause may be
 * fixed (the parser, or a device created with that number). Processed, it stores the report as if
 * it had just arrived (its own log entry `processed`) and the released message says so (`released`,
 * now with its device). Still not processable, nothing changes and the answer says why (409).
 * Net and IoT bodies are not kept whole (an excerpt), so only SMS are released.
 */
export async function releaseMessage(ingest: IngestContext, messageId: number, username: string) {
  const [message] = await ingest.db.select().from(messages).where(eq(messages.id, messageId));
  if (!message) throw notFound();
  if (message.type !== 'sms' || message.direction !== 'in' || !RELEASABLE.includes(message.status as never))
    throw refused('not_releasable', 'Only unprocessed inbound SMS can be released.');
  if (!message.fromIdent || (message.fromType !== 'cell_number' && message.fromType !== 'iccid'))
    throw refused('no_sender', 'The message names no sender.');
  const sender: Sender = { type: 'sms', identType: message.fromType, ident: message.fromIdent };
  const device = await smsDeviceOf(ingest.db, sender);
  if (!device) throw refused('unknown_sender', 'Still no device has this sender.');
  let report;
  try {
    report = parseMeasurementSms(message.content);
  } catch (error) {
    if (!(error instanceof SmsFormatError)) throw error;
    throw refused('unreadable', `The SMS is still unreadable: ${error.message}`);
  }
  // Checked here, not through parseAndStoreReport: a release that fails logs no new message.
  const parsed = reportV1.safeParse(report);
  if (!parsed.success) throw refused('unreadable', 'The SMS is still unreadable.');
  const result = await storeReport(ingest, device.id, sender, parsed.data, message.content);
  if (result.refused) throw refused('refused', `The database refused the report: ${result.refused}`);
  const [released] = await ingest.db
    .update(messages)
    .set({
      status: 'released',
      deviceId: device.id,
      report: `released by ${username}: ${result.duplicate ? 'the report was stored before' : 'processed as a report'} of device ${device.id}`,
    })
    .where(eq(messages.id, message.id))
    .returning();
  return released;
}
