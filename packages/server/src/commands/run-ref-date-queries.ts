import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices, queries, refDateQueries, refDateQueryDevices, users } from '../db/schema.ts';
import { enqueue } from '../queue/queue.ts';
import { DISPATCH_QUERIES } from './dispatch-queries.ts';
import { deviceVisibleTo } from '../policies/device-access.ts';
import { QUERYABLE_TYPES } from '@tankportal/shared/schemas/queries';
import { nextRunAfter } from './ref-date-schedule.ts';

export interface RefDateRun {
  refDateQueryId: number;
  /** The due time it ran for (its nextRunAt before the run). */
  ranFor: Date;
  queued: number;
}

/**
 * Runs every active reference-date query due by `dueAt`, each exactly once: the query's row is
 * locked (`SKIP LOCKED`: a second process takes the next one), its member devices that have not
 * reported within olderThan before `dueAt` get a waiting query, and its nextRunAt moves past
 * `dueAt`, all in one transaction. A query whose due times were missed (the server was down) runs
 * once for all of them. Members its user no longer holds REF_DATE_QUERY on, devices that cannot be
 * queried and devices whose last query still waits are left out. Answers what ran.
 */
export async function runDueRefDateQueries(db: Db, dueAt: Date): Promise<RefDateRun[]> {
  const runs: RefDateRun[] = [];
  for (;;) {
    const run = await db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(refDateQueries)
        .where(
          and(
            eq(refDateQueries.isActive, true),
            isNotNull(refDateQueries.nextRunAt),
            lte(refDateQueries.nextRunAt, dueAt),
          ),
        )
        .orderBy(asc(refDateQueries.nextRunAt), asc(refDateQueries.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      const [owner] = await tx.select().from(users).where(eq(users.id, due.userId));
      const reportedSince = new Date(dueAt.getTime() - due.olderThan * 1000).toISOString();
      const queued = await tx.execute<{ id: number }>(sql`
        INSERT INTO ${queries} (device_id, user_id, ref_date_query_id, status)
        SELECT ${devices.id}, ${due.userId}::int, ${due.id}::int, 'pending'
        FROM ${refDateQueryDevices} m JOIN ${devices} ON ${devices.id} = m.device_id
        WHERE m.ref_date_query_id = ${due.id}
          AND ${devices.type} IN (${sql.join(
            QUERYABLE_TYPES.map((type) => sql`${type}`),
            sql`, `,
          )})
          AND (${devices.lastReportedAt} IS NULL OR ${devices.lastReportedAt} < ${reportedSince}::timestamptz)
          AND ${owner && owner.status !== 'deleted' ? deviceVisibleTo(owner, 'REF_DATE_QUERY') : sql`false`}
          AND NOT EXISTS (SELECT 1 FROM ${queries} w WHERE w.device_id = ${devices.id} AND w.status = 'pending')
        RETURNING id`);
      await tx
        .update(refDateQueries)
        .set({ lastRunAt: dueAt, nextRunAt: nextRunAfter(due, dueAt) })
        .where(eq(refDateQueries.id, due.id));
      if (queued.rows.length > 0) await enqueue(tx, DISPATCH_QUERIES, [{ v: 1 }]);
      return { refDateQueryId: due.id, ranFor: due.nextRunAt!, queued: queued.rows.length };
    });
    if (!run) return runs;
    runs.push(run);
  }
}
