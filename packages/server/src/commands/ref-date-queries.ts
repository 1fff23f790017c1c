import { and, eq, sql } from 'drizzle-orm';
import type { RefDateQueryBody } from '@tankportal/shared/schemas/ref-date-queries';
import type { Db } from '../db/client.ts';
import { refDateQueries, refDateQueryDevices, type UserRow } from '../db/schema.ts';
import { HttpError, notFound } from '../http-error.ts';
import { requireQueryableDevices } from '../policies/queryable-devices.ts';
import {
  findManagedRefDateQuery,
  managedBy,
  type RefDateQueryWithMembers,
} from '../repositories/ref-date-queries.ts';
import { nextRunAfter } from './ref-date-schedule.ts';
import { changedFields, createdFields, recordChange, removedFields, type ChangeAuthor } from './audit-log.ts';

/**
 * The writes of reference-date queries: a user changes its own and those of the users it manages,
 * and adds a member device only where it holds REF_DATE_QUERY (the run checks the owner's).
 */

/** One query the actor may see and change; 404 for any other. */
export async function managedRefDateQueryOrThrow(db: Db, actor: UserRow, id: number) {
  const found = await findManagedRefDateQuery(db, actor, id);
  if (!found) throw notFound();
  return found;
}

/** The stored timetable and when it runs next: from now on, and only while active. */
function timetableOf(body: RefDateQueryBody, now: Date) {
  const timetable = { intervalType: body.intervalType, intervals: body.intervals, queryAt: body.queryAt };
  return {
    ...timetable,
    olderThan: body.olderThan,
    isActive: body.active,
    nextRunAt: body.active ? nextRunAfter(timetable, now) : null,
  };
}

/** What the record keeps of a query: its timetable, active flag and members, not when it runs next. */
function recordedQuery(query: Omit<ReturnType<typeof timetableOf>, 'nextRunAt'>, deviceIds: number[]) {
  const { intervalType, intervals, queryAt, olderThan, isActive } = query;
  return {
    intervalType,
    intervals,
    queryAt,
    olderThan,
    isActive,
    deviceIds: deviceIds.toSorted((a, b) => a - b),
  };
}

/** A query's record: the user whose query it is is concerned too. */
const queryChange = (id: number, userId: number) => ({
  entityType: 'ref_date_query' as const,
  entityId: id,
  subjectUserId: userId,
});

/** Creates a query of the actor with its members (each queryable by the actor); answers its id. */
export async function createRefDateQuery(
  db: Db,
  author: ChangeAuthor,
  body: RefDateQueryBody,
): Promise<number> {
  const actor = author.actor.user;
  const deviceIds = [...new Set(body.deviceIds)];
  await requireQueryableDevices(db, actor, deviceIds, 'REF_DATE_QUERY');
  const timetable = timetableOf(body, new Date());
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(refDateQueries)
      .values({ userId: actor.id, ...timetable })
      .returning({ id: refDateQueries.id });
    if (deviceIds.length > 0)
      await tx
        .insert(refDateQueryDevices)
        .values(deviceIds.map((deviceId) => ({ refDateQueryId: row!.id, deviceId })));
    await recordChange(tx, author, {
      ...queryChange(row!.id, actor.id),
      action: 'create',
      changes: createdFields(recordedQuery(timetable, deviceIds)),
    });
    return row!.id;
  });
}

const recordedOf = ({ query, deviceIds }: RefDateQueryWithMembers) => recordedQuery(query, deviceIds);

/** Changes a query's timetable, active flag and members; 404 for a query the actor does not manage. */
export async function changeRefDateQuery(db: Db, author: ChangeAuthor, id: number, body: RefDateQueryBody) {
  const actor = author.actor.user;
  const current = await managedRefDateQueryOrThrow(db, actor, id);
  const deviceIds = [...new Set(body.deviceIds)];
  // Members that stay need no new check: one whose permission went is skipped at each run.
  const kept = new Set(current.deviceIds);
  await requireQueryableDevices(
    db,
    actor,
    deviceIds.filter((deviceId) => !kept.has(deviceId)),
    'REF_DATE_QUERY',
  );
  const timetable = timetableOf(body, new Date());
  await db.transaction(async (tx) => {
    await tx.update(refDateQueries).set(timetable).where(eq(refDateQueries.id, id));
    await tx.delete(refDateQueryDevices).where(eq(refDateQueryDevices.refDateQueryId, id));
    if (deviceIds.length > 0)
      await tx
        .insert(refDateQueryDevices)
        .values(deviceIds.map((deviceId) => ({ refDateQueryId: id, deviceId })));
    await recordChange(tx, author, {
      ...queryChange(id, current.query.userId),
      action: 'update',
      changes: changedFields(recordedOf(current), recordedQuery(timetable, deviceIds)),
    });
  });
}

/** Deletes a query (queries it sent stay in the log); 404 for a query the actor does not manage. */
export async function deleteRefDateQuery(db: Db, author: ChangeAuthor, id: number) {
  const actor = author.actor.user;
  const current = await managedRefDateQueryOrThrow(db, actor, id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(refDateQueries)
      .where(and(eq(refDateQueries.id, id), managedBy(actor)))
      .returning({ id: refDateQueries.id });
    if (!row) throw notFound();
    await recordChange(tx, author, {
      ...queryChange(id, current.query.userId),
      action: 'delete',
      changes: removedFields(recordedOf(current)),
    });
  });
}

/**
 * A query keeps at least one device (as it is saved with one at least): its last device is not
 * taken out on the device's page, which could not say what then became of the query; the person
 * deletes the query instead, in the list of reference-date queries.
 */
const lastDevice = () =>
  new HttpError(409, 'The device is the only one of the reference-date query: delete the query instead.', [
    { path: 'refDateQueryId', code: 'invalid', args: { reason: 'last_device' } },
  ]);

/** Takes the device out of a query; 404 when it is no member, 409 when it is the last one. */
export async function removeDeviceFromRefDateQuery(
  db: Db,
  author: ChangeAuthor,
  deviceId: number,
  refDateQueryId: number,
) {
  await db.transaction(async (tx) => {
    // The query's row locked: two devices taken out at once cannot both leave it without one.
    const [query] = await tx
      .select({ id: refDateQueries.id, userId: refDateQueries.userId })
      .from(refDateQueries)
      .where(eq(refDateQueries.id, refDateQueryId))
      .for('update');
    if (!query) throw notFound();
    const [members] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        isMember: sql<boolean>`coalesce(bool_or(${refDateQueryDevices.deviceId} = ${deviceId}), false)`,
      })
      .from(refDateQueryDevices)
      .where(eq(refDateQueryDevices.refDateQueryId, refDateQueryId));
    if (!members?.isMember) throw notFound();
    if (members.count <= 1) throw lastDevice();
    await tx
      .delete(refDateQueryDevices)
      .where(
        and(
          eq(refDateQueryDevices.deviceId, deviceId),
          eq(refDateQueryDevices.refDateQueryId, refDateQueryId),
        ),
      );
    // On the device's record too: it was the device's page it was taken out on.
    await recordChange(tx, author, {
      ...queryChange(refDateQueryId, query.userId),
      deviceId,
      action: 'remove_device',
      changes: changedFields({ deviceId }, { deviceId: null }),
    });
  });
}
