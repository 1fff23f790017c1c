import { sql } from 'drizzle-orm';
import { toFieldError, type FieldError } from '@tankportal/shared/field-errors';
import type { IdentType, MessageType } from '@tankportal/shared/devices';
import type { Db } from '../db/client.ts';
import { messages, unassignedDevices } from '../db/schema.ts';
import type { DeviceReport } from '../commands/record-report.ts';
import { batcherFor } from './ingest-batcher.ts';
import { deviceDirectory } from './device-directory.ts';
import type { IngestResult } from './store-batch.ts';
import { reportV1, type ReportV1 } from '@tankportal/shared/protocols/report';

/** Who sent a report, in the terms of the message log. */
export interface Sender {
  type: Exclude<MessageType, 'mail'>;
  identType: IdentType;
  ident: string;
}

export type ParseOutcome = { ok: true; report: ReportV1 } | { ok: false; fieldErrors: FieldError[] };

/** Parses a report v1; a failure is logged as a parsing_failed message with its reasons. */
export async function parseReport(
  db: Db,
  sender: Sender,
  body: unknown,
  content: string,
): Promise<ParseOutcome> {
  const parsed = reportV1.safeParse(body);
  if (parsed.success) return { ok: true, report: parsed.data };
  const fieldErrors = parsed.error.issues.map(toFieldError);
  await logParsingFailed(db, sender, content, fieldErrors);
  return { ok: false, fieldErrors };
}

export async function logParsingFailed(
  db: Db,
  sender: Partial<Sender> & Pick<Sender, 'type'>,
  content: string,
  fieldErrors: FieldError[],
) {
  await db.insert(messages).values({
    type: sender.type,
    direction: 'in',
    mode: 'deviceToSystem',
    status: 'parsing_failed',
    content: content.slice(0, 10_000),
    fromIdent: sender.ident ?? null,
    fromType: sender.identType ?? null,
    receivedAt: new Date(),
    report: fieldErrors.map((e) => `${e.path || '(payload)'}: ${e.code}`).join('; '),
  });
}

/** A sender the system does not know: listed for an admin to create or assign the device. */
export async function recordUnassigned(
  db: Db,
  kind: 'net' | 'iot' | 'lx_iot',
  ident: string,
  host: string | null,
) {
  await db
    .insert(unassignedDevices)
    .values({ kind, ident, host })
    .onConflictDoUpdate({
      target: [unassignedDevices.kind, unassignedDevices.ident],
      set: { host, lastReportedAt: sql`now()` },
    });
}

/**
 * Logs the message and records the report in one transaction (shared with the reports that arrive
 * at the same moment, see ingest-batcher.ts): either both are committed or neither, so a sender that
 * repeats after a crash finds nothing half done; a repeated message id is recognised and stores nothing.
 */
export async function storeReport(
  db: Db,
  deviceId: number,
  sender: Sender,
  report: ReportV1,
  content: string,
): Promise<IngestResult> {
  const result = await batcherFor(db).submit({ deviceId, sender, report, content });
  if (result.deviceGone) {
    // Deleted since it was looked up (device-directory.ts): nothing stored, not acknowledged; the
    // device sends again and is then treated as the unknown sender it now is.
    deviceDirectory(db).forget(deviceId);
    throw new Error(`device ${deviceId} no longer exists`);
  }
  return result;
}

export function toDeviceReport(report: ReportV1): DeviceReport {
  return {
    measuredAt: new Date(report.measuredAt),
    readings: report.sensors,
    alarmCodes: report.alarms,
    simCreditQty: report.simCredit,
    batteryCharge: report.battery,
    location: report.location,
  };
}
