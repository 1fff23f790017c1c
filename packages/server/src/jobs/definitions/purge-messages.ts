import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recurringJob } from '../../queue/scheduler.ts';

const DAY_MS = 86_400_000;
/** Rows per statement: each delete is short, so ingest writing beside it never waits long. */
const BATCH = 10_000;

/**
 * Deletes the messages older than `retentionDays` before `now`, a batch at a time; answers how
 * many. Queries that named a deleted message keep their row (their message id becomes null).
 */
export async function purgeOldMessages(db: Db, now: Date, retentionDays: number): Promise<number> {
  if (retentionDays <= 0) return 0;
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      DELETE FROM messages WHERE id IN (
        SELECT id FROM messages WHERE created_at < ${cutoff}::timestamptz ORDER BY created_at LIMIT ${BATCH})`);
    // PGlite reports affectedRows, node-postgres rowCount.
    const counts = result as unknown as { affectedRows?: number; rowCount?: number | null };
    const deleted = counts.affectedRows ?? counts.rowCount ?? 0;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/**
 * The message log's retention (MESSAGE_RETENTION_DAYS): nightly at 03:10 German
 * time, by one process of the installation; after downtime one run catches up.
 */
export const purgeMessages = recurringJob({
  name: 'purge-messages',
  schedule: '10 3 * * *',
  async run({ dueAt }, _run, { db, config }) {
    await purgeOldMessages(db, dueAt, config.messageRetentionDays);
  },
});
