import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { and, eq, sql } from 'drizzle-orm';
import type { ConfigurationCommandV1, DeviceConfigurationV1 } from '@tankportal/shared/protocols/config-sms';
import type { ReportV1 } from '@tankportal/shared/protocols/report';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { reportKey } from '../db/report-key.ts';
import type { DeviceRow } from '../repositories/devices.ts';

// The net devices' outbound channel: the server cannot call a net device, so what it sends (the
// configuration command) waits here and goes with the answer to the device's next report. The
// configuration command queues (commands/update-configuration.ts), the net ingest takes
// (ingest/net-http.ts); living below both, neither reaches into the other.

type OutgoingMessage = typeof messages.$inferInsert;

// net: a configuration waits (message status `created`) until the device's next report.
//
// Every net report asks whether one waits, so the question must cost next to nothing: the waiting
// message is found through the unique (type, dedup_key) index under a key of its own, and a device
// known to have none is not asked about again for a few seconds (a configuration saved by another
// server process then goes with a report a few seconds later). Report dedup keys start with
// `report/` (store-batch.ts, reportKey), these with `configuration/`, so they cannot meet. The
// answer's key names the report as the report's key does (message id and time): a device whose
// message counter started again gets the configuration with its new report, not a repetition.

/** The report a configuration goes with the answer to. */
type AnsweredReport = Pick<ReportV1, 'messageId' | 'measuredAt'>;

const pendingKey = (deviceId: number) => `configuration/pending/${deviceId}`;
const answerKey = (deviceId: number, report: AnsweredReport) =>
  `configuration/answer/${deviceId}/${createHash('sha256').update(reportKey(deviceId, report)).digest('hex')}`;

const NOTHING_PENDING_TTL_MS = 5_000;

/**
 * The waiting configurations of one database, with this process's memory of the devices that have
 * none: one per process and database, built at start and reached through DeviceChannels (`net`).
 */
export class PendingNetConfigurations {
  private readonly db: Db;
  private readonly nothingPending = new LRUCache<number, true>({ max: 50_000, ttl: NOTHING_PENDING_TTL_MS });

  constructor(db: Db) {
    this.db = db;
  }

  /** Queues the configuration command `content` for the device's next report. */
  async queue(
    device: DeviceRow,
    content: string,
    base: Pick<OutgoingMessage, 'deviceId' | 'direction' | 'mode' | 'userId'>,
  ) {
    await this.db.transaction(async (tx) => {
      // Only the newest configuration matters to the device.
      await tx
        .update(messages)
        .set({ status: 'finalized', dedupKey: null, report: 'superseded by a newer configuration' })
        .where(and(eq(messages.type, 'net'), eq(messages.dedupKey, pendingKey(device.id))));
      await tx.insert(messages).values({
        ...base,
        type: 'net',
        status: 'created',
        content,
        toIdent: device.identCode,
        toType: 'net_ident_code',
        dedupKey: pendingKey(device.id),
        report: "waiting for the device's next report",
      });
    });
    this.nothingPending.delete(device.id);
  }

  /**
   * The configuration a net device gets with the answer to its report: the one
   * waiting (then marked sent), or, when the report is a repetition, the one that went with the
   * first answer (the device may not have received that answer). Null when there is none.
   */
  async take(
    deviceId: number,
    report: AnsweredReport,
    duplicate: boolean,
  ): Promise<DeviceConfigurationV1 | null> {
    const db = this.db;
    let content: string | undefined;
    if (!this.nothingPending.has(deviceId)) {
      const [pending] = await db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.type, 'net'), eq(messages.dedupKey, pendingKey(deviceId))));
      this.nothingPending.set(deviceId, true);
      if (pending) content = await claim(db, pending.id, deviceId, report, duplicate);
    }
    if (!content && duplicate) {
      const [again] = await db
        .select({ content: messages.content })
        .from(messages)
        .where(and(eq(messages.type, 'net'), eq(messages.dedupKey, answerKey(deviceId, report))));
      content = again?.content;
    }
    return content ? (JSON.parse(content) as ConfigurationCommandV1).configuration : null;
  }
}

/** Marks the waiting configuration sent with this answer; undefined when another answer took it. */
async function claim(
  db: Db,
  messageId: number,
  deviceId: number,
  report: AnsweredReport,
  duplicate: boolean,
) {
  return db.transaction(async (tx) => {
    // A repeated report answered before: this answer now carries the newer configuration.
    if (duplicate)
      await tx
        .update(messages)
        .set({ dedupKey: null })
        .where(and(eq(messages.type, 'net'), eq(messages.dedupKey, answerKey(deviceId, report))));
    // Of reports arriving at the same time, one answer carries it.
    const [claimed] = await tx
      .update(messages)
      .set({
        status: 'sent',
        sentAt: sql`now()`,
        dedupKey: answerKey(deviceId, report),
        report: `sent with the answer to report ${report.messageId}`,
      })
      .where(and(eq(messages.id, messageId), eq(messages.status, 'created')))
      .returning({ content: messages.content });
    return claimed?.content;
  });
}
