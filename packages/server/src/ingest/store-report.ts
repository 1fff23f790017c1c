import { sql } from 'drizzle-orm';
import { toFieldError, type FieldError } from '@tankportal/shared/field-errors';
import type { IngestContext } from './ingest-context.ts';
import { messages, unassignedDevices } from '../db/schema.ts';
import type { IngestResult, Sender } from './ingest-item.ts';
import { reportV1, type ReportV1 } from '@tankportal/shared/protocols/report';
import type { WriteAllowance } from './ingest-write-limit.ts';
import { excerpt, reasonsText, storableText } from './malformed-excerpt.ts';

/** A body that was no report (logged as parsing_failed, or not when over the limit), or the stored report. */
export type IntakeOutcome =
  | { parsed: false; fieldErrors: FieldError[]; logged: WriteAllowance }
  | { parsed: true; report: ReportV1; result: IngestResult };

/**
 * The one step between a channel and the store: the body the channel read from a known device
 * (JSON, an SMS's fields) parsed as a report v1 and stored (`storeReport`); a failure logged as a
 * parsing_failed message with its reasons, in that device's log. The channel calls this once per
 * report, and this calls only below it (the batcher, the write limit, the message log).
 */
export async function parseAndStoreReport(
  ingest: IngestContext,
  deviceId: number,
  sender: Sender,
  body: unknown,
  content: string,
): Promise<IntakeOutcome> {
  const parsed = reportV1.safeParse(body);
  if (!parsed.success) {
    const fieldErrors = parsed.error.issues.map(toFieldError);
    const logged = await logParsingFailed(ingest, sender, content, fieldErrors, { deviceId });
    return { parsed: false, fieldErrors, logged };
  }
  const result = await storeReport(ingest, deviceId, sender, parsed.data, content);
  return { parsed: true, report: parsed.data, result };
}

/**
 * A refused body as a parsing_failed message: an excerpt of it and the first reasons. At most so
 * many per minute and sender ident, and per client IP address (`source`) when the sender is not
 * authenticated (ingest-write-limit.ts); beyond that nothing is written and the answer says when
 * the next one would be.
 */
export async function logParsingFailed(
  ingest: IngestContext,
  sender: Partial<Sender> & Pick<Sender, 'type'>,
  content: string,
  fieldErrors: FieldError[],
  {
    source,
    deviceId,
  }: {
    /** The client's address, counted when the sender is not authenticated. */
    source?: string;
    /**
     * The device the sender is, once it authenticated (its secret, its gateway, its topic): the
     * unreadable message then shows in that device's messages, where its owner looks first.
     */
    deviceId?: number;
  } = {},
): Promise<WriteAllowance> {
  const allowance = await ingest.ingestWriteLimit.take({
    source,
    sender: senderKey(sender.type, sender.ident),
  });
  if (!allowance.allowed) return allowance;
  await ingest.db.insert(messages).values({
    deviceId: deviceId ?? null,
    type: sender.type,
    direction: 'in',
    mode: 'deviceToSystem',
    status: 'parsing_failed',
    content: excerpt(content),
    fromIdent: sender.ident === undefined ? null : storableText(sender.ident),
    fromType: sender.identType ?? null,
    receivedAt: new Date(),
    report: reasonsText(fieldErrors),
  });
  return allowance;
}

/**
 * A sender the system does not know: listed for an admin to create or assign the device, one entry
 * per ident that each report updates. Limited as parsing_failed messages are, `host` (the client's
 * address, when known) counting as the source.
 */
export async function recordUnassigned(
  ingest: IngestContext,
  kind: 'net' | 'iot' | 'lx_iot',
  ident: string,
  host: string | null,
): Promise<WriteAllowance> {
  const allowance = await ingest.ingestWriteLimit.take({ source: host, sender: senderKey(kind, ident) });
  if (!allowance.allowed) return allowance;
  await ingest.db
    .insert(unassignedDevices)
    .values({ kind, ident, host })
    .onConflictDoUpdate({
      target: [unassignedDevices.kind, unassignedDevices.ident],
      set: { host, lastReportedAt: sql`now()` },
    });
  return allowance;
}

/** The limit's key of a sender: its message type and ident, or none when it gave no ident. */
export function senderKey(type: string, ident: string | undefined): string | undefined {
  return ident === undefined ? undefined : `${type}:${ident}`;
}

/**
 * Logs the message and records the report in one transaction (shared with the reports that arrive
 * at the same moment, see ingest-batcher.ts): either both are committed or neither, so a sender that
 * repeats after a crash finds nothing half done; a report sent again (same message id and time) is
 * recognised and stores nothing. A report the database refuses (`refused`; validation should have
 * caught it) is logged as parsing_failed with the database's reason: a malformed report, not a
 * failure to repeat.
 */
export async function storeReport(
  ingest: IngestContext,
  deviceId: number,
  sender: Sender,
  report: ReportV1,
  content: string,
): Promise<IngestResult> {
  const result = await ingest.ingestBatcher.submit({ deviceId, sender, report, content });
  if (result.deviceGone) {
    // Deleted since it was looked up (device-directory.ts): nothing stored, not acknowledged; the
    // device sends again and is then treated as the unknown sender it now is.
    ingest.deviceDirectory.forget(deviceId);
    throw new Error(`device ${deviceId} no longer exists`);
  }
  if (result.refused)
    await logParsingFailed(ingest, sender, content, [refusalError(result.refused)], { deviceId });
  return result;
}

/** The field error of a report the database refused, at `path` (the report's place in a request). */
export function refusalError(reason: string, path = ''): FieldError {
  return { path, code: 'invalid', args: { reason: `refused by the database: ${reason}` } };
}
