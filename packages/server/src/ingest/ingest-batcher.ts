import type { Db } from '../db/client.ts';
import { storeBatch, type IngestItem, type IngestResult } from './store-batch.ts';

interface Waiting {
  item: IngestItem;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the reports that arrive within a few milliseconds and stores them together
 * (`storeBatch`): the cost of a transaction is shared by the whole batch. Batches run one after
 * the other, so the reports of a device are stored in the order they arrived. Each submitter's
 * promise settles after its batch's commit: protocols acknowledge only then.
 */
export class IngestBatcher {
  private readonly db: Db;
  private readonly maxBatch: number;
  private readonly maxWaitMs: number;
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(db: Db, options: { maxBatch?: number; maxWaitMs?: number } = {}) {
    this.db = db;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxWaitMs = options.maxWaitMs ?? 2;
  }

  submit(item: IngestItem): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.running) return;
      if (this.queue.length >= this.maxBatch) void this.run();
      else this.timer ??= setTimeout(() => void this.run(), this.maxWaitMs);
    });
  }

  private async run() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await storeBatch(
            this.db,
            batch.map((waiting) => waiting.item),
          );
          batch.forEach((waiting, index) => waiting.resolve(results[index]));
        } catch (error) {
          // Nothing of the batch is committed: every sender is told, none acknowledged.
          batch.forEach((waiting) => waiting.reject(error));
        }
      }
    } finally {
      this.running = false;
    }
  }
}

const batchers = new WeakMap<Db, IngestBatcher>();

/** One batcher per database of the process. */
export function batcherFor(db: Db): IngestBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new IngestBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher;
}
