import { and, eq, sql } from 'drizzle-orm';
import type { RefDateQueryBody } from '@tankportal/shared/schemas/ref-date-queries';
import type { Db } from '../db/client.ts';
import { refDateQueries, refDateQueryDevices, type UserRow } from '../db/schema.ts';
import { HttpError, notFound } from '../http-error.ts';
import { requireQueryableDevices } from '../policies/queryable-devices.ts';
import { findManagedRefDateQuery, managedBy } from '../repositories/ref-date-queries.ts';
import { nextRunAfter } from './ref-date-schedule.ts';

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

/** Creates a query of the actor with its members (each queryable by the actor); answers its id. */
export async function createRefDateQuery(db: Db, actor: UserRow, body: RefDateQueryBody): Promise<number> {
  const deviceIds = [...new Set(body.deviceIds)];
  await requireQueryableDevices(db, actor, deviceIds, 'REF_DATE_QUERY');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(refDateQueries)
      .values({ userId: actor.id, ...timetableOf(body, new Date()) })
      .returning({ id: refDateQueries.id });
    if (deviceIds.length > 0)
      await tx
        .insert(refDateQueryDevices)
        .values(deviceIds.map((deviceId) => ({ refDateQueryId: row!.id, deviceId })));
    return row!.id;
  });
}

/** Changes a query's timetable, active flag and members; 404 for a query the actor does not manage. */
export async function changeRefDateQuery(db: Db, actor: UserRow, id: number, body: RefDateQueryBody) {
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
  await db.transaction(async (tx) => {
    await tx.update(refDateQueries).set(timetableOf(body, new Date())).where(eq(refDateQueries.id, id));
    await tx.delete(refDateQueryDevices).where(eq(refDateQueryDevices.refDateQueryId, id));
    if (deviceIds.length > 0)
      await tx
        .insert(refDateQueryDevices)
        .values(deviceIds.map((deviceId) => ({ refDateQueryId: id, deviceId })));
  });
}

/** Deletes a query (queries it sent stay in the log); 404 for a query the actor does not manage. */
export async function deleteRefDateQuery(db: Db, actor: UserRow, id: number) {
  const [row] = await db
    .delete(refDateQueries)
    .where(and(eq(refDateQueries.id, id), managedBy(actor)))
    .returning({ id: refDateQueries.id });
  if (!row) throw notFound();
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
export async function removeDeviceFromRefDateQuery(db: Db, deviceId: number, refDateQueryId: number) {
  await db.transaction(async (tx) => {
    // The query's row locked: two devices taken out at once cannot both leave it without one.
    const [query] = await tx
      .select({ id: refDateQueries.id })
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
  });
}
