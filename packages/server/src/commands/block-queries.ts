import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { blockQueries, queries } from '../db/schema.ts';
import { enqueue } from '../queue/queue.ts';
import { DISPATCH_QUERIES, queueQueries } from './dispatch-queries.ts';
import { presentQueryFailure } from './send-query.ts';

/**
 * A block query: one query to each of the devices (the caller checked that the actor may query
 * them), queued with the block query in one transaction and handed to the gateways paced by the
 * dispatcher job. Answers its id.
 */
export async function createBlockQuery(db: Db, userId: number, deviceIds: number[]): Promise<number> {
  return db.transaction(async (tx) => {
    const [blockQuery] = await tx.insert(blockQueries).values({ userId }).returning();
    await queueQueries(tx, deviceIds, { userId, blockQueryId: blockQuery!.id });
    await enqueue(tx, DISPATCH_QUERIES, [{ v: 1 }]);
    return blockQuery!.id;
  });
}

/** A block query with the status of each of its queries, or null. */
export async function findBlockQuery(db: Db, id: number) {
  const [blockQuery] = await db.select().from(blockQueries).where(eq(blockQueries.id, id));
  if (!blockQuery) return null;
  const rows = await db.select().from(queries).where(eq(queries.blockQueryId, id)).orderBy(asc(queries.id));
  return {
    id: blockQuery.id,
    userId: blockQuery.userId,
    createdAt: blockQuery.createdAt,
    queries: rows.map((query) => ({
      deviceId: query.deviceId,
      queryId: query.id,
      status: query.status,
      failure: presentQueryFailure(query),
    })),
  };
}
