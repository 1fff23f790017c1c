import { and, eq, lte, sql } from 'drizzle-orm';
import { queries } from '../db/schema.ts';
import type { Tx } from '../db/client.ts';
import { anyOfIds, builtOnce } from '../db/named-statements.ts';

// Run with every batch of reports: built once, parsed and planned once per connection.
const completeSent = builtOnce('complete_queries', (tx) =>
  tx
    .update(queries)
    .set({ status: 'processed', processedAt: sql`now()` })
    .where(and(anyOfIds(queries.deviceId), eq(queries.status, 'sent'), lte(queries.sentAt, sql`now()`))),
);

/**
 * A manual query is answered by the device's next report, whatever protocol it arrives by:
 * called by the store path with the devices that reported something new, in the
 * transaction that stores the reports, so "processed" and the new reading commit together.
 * Only queries sent before this transaction began count: an earlier report is no answer.
 */
export async function completeQueries(tx: Tx, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  await completeSent(tx, { ids: deviceIds });
}
