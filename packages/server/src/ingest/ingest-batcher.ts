import type { Database, Db } from '../db/client.ts';
import { storeBatch } from './store-batch.ts';
import type { IngestItem, IngestResult } from './ingest-item.ts';
import { dataErrorReason } from './refused-by-database.ts';
import { isConnectionLost } from '../db/connection-lost.ts';
import type { IngestObserver, IngestOutcome } from '../metrics/metrics.ts';

/**
 * Pauses before a batch whose connection was lost is stored again on a fresh one: about 8 s in all,
 * which covers a connection cut and a quick restart; a longer outage fails the batch, and the
 * protocols leave its reports unacknowledged (the devices and the broker repeat them).
 */
const RECONNECT_PAUSES_MS = [100, 500, 1_500, 2_000, 4_000];

interface Waiting {
  item: IngestItem;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

export interface BatcherOptions {
  /** Most reports in one transaction. */
  maxBatch?: number;
  /** How long the first report of a batch waits for others while a transaction slot is free. */
  maxWaitMs?: number;
  /** Transactions in flight at once: 1 for PGlite (one connection), a few on a PostgreSQL pool. */
  concurrency?: number;
  /** Told of every batch, settled report and change of the queue (the metrics). */
  observer?: IngestObserver;
}

/** What a result means for the metrics; a device deleted meanwhile is not acknowledged: failed. */
function outcomeOf(result: IngestResult): IngestOutcome {
  if (result.refused !== undefined) return 'refused';
  if (result.deviceGone) return 'failed';
  return result.duplicate ? 'duplicate' : 'stored';
}

const NO_OBSERVER: IngestObserver = { waiting() {}, batch() {}, settled() {} };

/**
 * Gathers the reports that arrive within a few milliseconds and stores them together
 * (`storeBatch`): the cost of a transaction is shared by the whole batch. While all transaction
 * slots are busy, arriving reports queue up and form the next batch.
 *
 * Several batches may be in flight (PostgreSQL), but a device is in at most one of them: a report
 * of a device whose batch is still running waits for the next one. So the reports of a device are
 * stored in the order they arrived, and concurrent batches never wait on each other's device locks.
 * Each submitter's promise settles after its batch's commit: protocols acknowledge only then. A
 * report the database refuses fails alone (see `store`), never the reports that share its batch.
 */
export class IngestBatcher {
  private readonly db: Db;
  private readonly maxBatch: number;
  private readonly maxWaitMs: number;
  private readonly concurrency: number;
  private readonly observer: IngestObserver;
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  /** Devices with a batch in flight. */
  private readonly busy = new Set<number>();

  constructor(db: Db, options: BatcherOptions = {}) {
    this.db = db;
    this.maxBatch = options.maxBatch ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 2;
    this.concurrency = options.concurrency ?? 1;
    this.observer = options.observer ?? NO_OBSERVER;
  }

  submit(item: IngestItem): Promise<IngestResult> {
    const arrivedAt = performance.now();
    let settled = false;
    // Told where the submitter is answered: after the commit, or the failure. Once: a batch that
    // fails after some of its halves were stored rejects reports already resolved (see `run`).
    const settle = (outcome: IngestOutcome) => {
      if (settled) return;
      settled = true;
      this.observer.settled(item.sender.type, outcome, (performance.now() - arrivedAt) / 1000);
    };
    return new Promise((resolve, reject) => {
      this.queue.push({
        item,
        resolve: (result) => {
          settle(outcomeOf(result));
          resolve(result);
        },
        reject: (error) => {
          settle('failed');
          reject(error);
        },
      });
      this.observer.waiting(this.queue.length);
      if (this.inFlight >= this.concurrency) return; // the next finished batch takes it
      if (this.queue.length >= this.maxBatch) this.pump();
      else this.timer ??= setTimeout(() => this.pump(), this.maxWaitMs);
    });
  }

  /** Starts batches while slots are free and queued reports of idle devices are waiting. */
  private pump() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return; // only reports of busy devices: they follow their batch
      void this.run(batch);
    }
  }

  /** Up to maxBatch queued reports of devices without a batch in flight, in arrival order. */
  private take(): Waiting[] {
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    const claimed = new Set<number>();
    for (const waiting of this.queue) {
      const device = waiting.item.deviceId;
      if (batch.length < this.maxBatch && (claimed.has(device) || !this.busy.has(device))) {
        claimed.add(device);
        batch.push(waiting);
      } else rest.push(waiting);
    }
    this.queue = rest;
    for (const device of claimed) this.busy.add(device);
    this.observer.waiting(this.queue.length);
    if (batch.length > 0) this.observer.batch(batch.length);
    return batch;
  }

  private async run(batch: Waiting[]) {
    this.inFlight++;
    try {
      await this.store(batch);
    } catch (error) {
      // Not the data's fault (connection, serialization, shutdown ...): nothing of the batch that
      // was still open is committed, every sender of it is told, none acknowledged. (Settled
      // promises ignore the rejection: parts stored before the failure stay acknowledged.)
      batch.forEach((waiting) => waiting.reject(error));
    } finally {
      this.inFlight--;
      for (const waiting of batch) this.busy.delete(waiting.item.deviceId);
      this.pump();
    }
  }

  /**
   * Stores a batch in one transaction. When the database refuses its data (dataErrorReason), the
   * batch is split in halves, each stored on its own, down to the report that fails alone: that
   * one is refused with the database's reason, every other report is stored and settled as usual
   * (one bad report must not fail other devices' reports). A report's halves run
   * one after the other, so a device's reports are still stored in arrival order.
   */
  private async store(batch: Waiting[]): Promise<void> {
    let results: IngestResult[];
    try {
      results = await this.storeReconnecting(batch.map((waiting) => waiting.item));
    } catch (error) {
      const reason = dataErrorReason(error);
      if (reason === null) throw error;
      if (batch.length === 1) {
        batch[0].resolve({ duplicate: false, stored: 0, refused: reason });
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await this.store(batch.slice(0, half));
      await this.store(batch.slice(half));
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(results[index]));
  }

  /**
   * One transaction for the batch; when its connection is lost, the same batch again on a fresh
   * one. Storing twice is harmless where a commit's answer was lost: every row has its unique key
   * and a report already stored comes back as a duplicate.
   */
  private async storeReconnecting(items: IngestItem[]): Promise<IngestResult[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await storeBatch(this.db, items);
      } catch (error) {
        const pause = RECONNECT_PAUSES_MS[attempt];
        if (pause === undefined || !isConnectionLost(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}

/**
 * Transactions in flight per process on PostgreSQL: enough to overlap one batch's round trips with
 * another's work, while leaving most of the pool (10 connections) to the API.
 */
const POSTGRES_CONCURRENCY = 4;

/**
 * The process's batcher for its database, built once at start (ingest/ingest-context.ts): one per
 * process and database, so that a device's reports from every protocol share its ordering.
 */
export function createIngestBatcher(
  db: Db,
  kind: Database['kind'],
  observer?: IngestObserver,
): IngestBatcher {
  // PGlite is one connection: one transaction at a time.
  return new IngestBatcher(db, {
    concurrency: kind === 'postgres' ? POSTGRES_CONCURRENCY : 1,
    ...(observer ? { observer } : {}),
  });
}
