import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recurringJob } from '../../queue/scheduler.ts';

const DAY_MS = 86_400_000;
/** Rows per statement: each delete is short, so ingest writing beside it never waits long. */
const BATCH = 10_000;

/** The logs a retention applies to, with the column that dates their rows. */
const LOGS = { messages: 'created_at', audit_entries: 'at' } as const;

/**
 * Deletes the rows of `log` older than `retentionDays` before `now`, a batch at a time; answers
 * how many. 0 days keeps everything.
 */
export async function purgeOlderRows(
  db: Db,
  log: keyof typeof LOGS,
  now: Date,
  retentionDays: number,
): Promise<number> {
  if (retentionDays <= 0) return 0;
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  const [table, column] = [sql.identifier(log), sql.identifier(LOGS[log])];
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      DELETE FROM ${table} WHERE id IN (
        SELECT id FROM ${table} WHERE ${column} < ${cutoff}::timestamptz ORDER BY ${column} LIMIT ${BATCH})`);
    // PGlite reports affectedRows, node-postgres rowCount.
    const counts = result as unknown as { affectedRows?: number; rowCount?: number | null };
    const deleted = counts.affectedRows ?? counts.rowCount ?? 0;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/**
 * The messages older than the retention; queries that named a deleted message keep their row
 * (their message id becomes null).
 */
export const purgeOldMessages = (db: Db, now: Date, retentionDays: number) =>
  purgeOlderRows(db, 'messages', now, retentionDays);

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

/**
 * The record of changes' retention (AUDIT_RETENTION_DAYS): nightly at 03:20 German time. The only
 * way an entry ever leaves the record.
 */
export const purgeAuditEntries = recurringJob({
  name: 'purge-audit-entries',
  schedule: '20 3 * * *',
  async run({ dueAt }, _run, { db, config }) {
    await purgeOlderRows(db, 'audit_entries', dueAt, config.auditRetentionDays);
  },
});
