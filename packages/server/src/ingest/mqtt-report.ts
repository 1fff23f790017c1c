import type { IngestContext } from './ingest-context.ts';
import { logParsingFailed, parseAndStoreReport, recordUnassigned } from './store-report.ts';
import type { Sender } from './ingest-item.ts';
import type { ReportTopic } from '../channels/mqtt-topics.ts';

export type MqttOutcome = 'processed' | 'duplicate' | 'parsing_failed' | 'unassigned';

/**
 * Handles one report published over MQTT, whichever broker delivered it. Resolves once the result
 * is committed; the caller acknowledges the publish only then (at-least-once, idempotent store).
 * Failures of the database reject, and the publish stays unacknowledged so that it comes again; a
 * report whose data the database refuses resolves as parsing_failed (sending it again would not help).
 */
export async function handleMqttReport(
  ingest: IngestContext,
  topic: ReportTopic,
  payload: Buffer,
): Promise<MqttOutcome> {
  const sender: Sender =
    topic.kind === 'iot'
      ? { type: 'iot', identType: 'thing_name', ident: topic.ident }
      : { type: 'lx_iot', identType: 'iccid', ident: topic.ident };
  const device = await ingest.deviceDirectory.find(topic.kind === 'iot' ? 'thingName' : 'iccid', topic.ident);
  if (!device || device.type !== topic.kind) {
    await recordUnassigned(ingest, topic.kind, topic.ident, null);
    return 'unassigned';
  }
  const content = payload.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(content);
  } catch {
    await logParsingFailed(ingest, sender, content, [{ path: '', code: 'invalid', args: {} }], {
      deviceId: device.id,
    });
    return 'parsing_failed';
  }
  const taken = await parseAndStoreReport(ingest, device.id, sender, body, content);
  // Refused by the database (logged as parsing_failed): acknowledged like any malformed payload.
  if (!taken.parsed || taken.result.refused) return 'parsing_failed';
  return taken.result.duplicate ? 'duplicate' : 'processed';
}
