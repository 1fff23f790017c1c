import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  deviceRefDateQuerySchema,
  refDateQueryBody,
  refDateQuerySchema,
  type RefDateQueryBody,
} from '@tankportal/shared/schemas/ref-date-queries';
import type { Api, AppContext } from '../../../context.ts';
import type { Db } from '../../../db/client.ts';
import { refDateQueries, refDateQueryDevices, type UserRow, users } from '../../../db/schema.ts';
import { nextRunAfter } from '../../../commands/ref-date-schedule.ts';
import { HttpError, notFound } from '../../../http-error.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { requireQueryableDevices } from '../../../policies/queryable-devices.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { managedUserIds } from '../../../policies/user-tree.ts';

import { errorSchema } from '../../schemas.ts';

const refDateQueryParams = z.object({ refDateQueryId: pathId() });
const deviceRefDateQueryParams = z.object({ id: pathId(), refDateQueryId: pathId() });
const deviceParams = z.object({ id: pathId() });

type RefDateQueryRow = typeof refDateQueries.$inferSelect;

/** The queries an actor may see and change: its own and those of the users it manages. */
const managedBy = (actor: UserRow): SQL => sql`${refDateQueries.userId} IN (${managedUserIds(actor)})`;

function present(row: RefDateQueryRow, username: string) {
  return {
    id: row.id,
    userId: row.userId,
    username,
    intervalType: row.intervalType,
    intervals: row.intervals,
    queryAt: row.queryAt,
    olderThan: row.olderThan,
    isActive: row.isActive,
    lastRunAt: row.lastRunAt,
    nextRunAt: row.nextRunAt,
  };
}

/** The queries matching `condition`, with their users' names and, if asked, their members. */
async function loadQueries(db: Db, condition: SQL) {
  const rows = await db
    .select({ query: refDateQueries, username: users.username })
    .from(refDateQueries)
    .innerJoin(users, eq(users.id, refDateQueries.userId))
    .where(condition)
    .orderBy(asc(refDateQueries.id));
  const members = new Map<number, number[]>(rows.map(({ query }) => [query.id, []]));
  if (rows.length > 0) {
    const memberRows = await db
      .select()
      .from(refDateQueryDevices)
      .where(inArray(refDateQueryDevices.refDateQueryId, [...members.keys()]))
      .orderBy(asc(refDateQueryDevices.deviceId));
    for (const row of memberRows) members.get(row.refDateQueryId)!.push(row.deviceId);
  }
  return rows.map(({ query, username }) => ({
    ...present(query, username),
    deviceIds: members.get(query.id)!,
  }));
}

async function loadQuery(db: Db, actor: UserRow, id: number) {
  const [found] = await loadQueries(db, and(eq(refDateQueries.id, id), managedBy(actor))!);
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

/**
 * Reference-date queries: member devices are queried on a
 * schedule in German time by the `ref-date-queries` job (commands/run-ref-date-queries.ts).
 * A member needs its adder's REF_DATE_QUERY permission; at each run, its owner's.
 */
export function refDateQueryRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/ref-date-queries',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['ref-date-queries'],
        summary: 'The reference-date queries of the actor and of the users it manages',
        response: { 200: z.array(refDateQuerySchema) },
      },
    },
    async (request) => loadQueries(db, managedBy(actorOf(request).user)),
  );

  app.post(
    '/ref-date-queries',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['ref-date-queries'],
        summary: 'Creates a reference-date query of the actor',
        body: refDateQueryBody,
        response: { 201: refDateQuerySchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const deviceIds = [...new Set(request.body.deviceIds)];
      await requireQueryableDevices(db, actor, deviceIds, 'REF_DATE_QUERY');
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(refDateQueries)
          .values({ userId: actor.id, ...timetableOf(request.body, new Date()) })
          .returning({ id: refDateQueries.id });
        if (deviceIds.length > 0)
          await tx
            .insert(refDateQueryDevices)
            .values(deviceIds.map((deviceId) => ({ refDateQueryId: row!.id, deviceId })));
        return row!.id;
      });
      const created = await loadQuery(db, actor, id);
      return reply.code(201).header('location', `/api/v2/ref-date-queries/${id}`).send(created);
    },
  );

  app.get(
    '/ref-date-queries/:refDateQueryId',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['ref-date-queries'],
        summary: 'One reference-date query with its member devices',
        params: refDateQueryParams,
        response: { 200: refDateQuerySchema, 404: errorSchema },
      },
    },
    async (request) => loadQuery(db, actorOf(request).user, request.params.refDateQueryId),
  );

  app.put(
    '/ref-date-queries/:refDateQueryId',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['ref-date-queries'],
        summary: 'Changes a reference-date query: its timetable, active flag and members',
        params: refDateQueryParams,
        body: refDateQueryBody,
        response: { 200: refDateQuerySchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const id = request.params.refDateQueryId;
      const current = await loadQuery(db, actor, id);
      const deviceIds = [...new Set(request.body.deviceIds)];
      // Members that stay need no new check: one whose permission went is skipped at each run.
      const kept = new Set(current.deviceIds);
      await requireQueryableDevices(
        db,
        actor,
        deviceIds.filter((deviceId) => !kept.has(deviceId)),
        'REF_DATE_QUERY',
      );
      await db.transaction(async (tx) => {
        await tx
          .update(refDateQueries)
          .set(timetableOf(request.body, new Date()))
          .where(eq(refDateQueries.id, id));
        await tx.delete(refDateQueryDevices).where(eq(refDateQueryDevices.refDateQueryId, id));
        if (deviceIds.length > 0)
          await tx
            .insert(refDateQueryDevices)
            .values(deviceIds.map((deviceId) => ({ refDateQueryId: id, deviceId })));
      });
      return loadQuery(db, actor, id);
    },
  );

  app.delete(
    '/ref-date-queries/:refDateQueryId',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['ref-date-queries'],
        summary: 'Deletes a reference-date query (queries it sent stay in the log)',
        params: refDateQueryParams,
        response: { 204: z.null(), 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const [row] = await db
        .delete(refDateQueries)
        .where(and(eq(refDateQueries.id, request.params.refDateQueryId), managedBy(actor)))
        .returning({ id: refDateQueries.id });
      if (!row) throw notFound();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/devices/:id/ref-date-queries',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['ref-date-queries'],
        summary: "The reference-date queries a device belongs to (needs the device's DELETE permission)",
        params: deviceParams,
        response: { 200: z.array(deviceRefDateQuerySchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const deviceId = request.params.id;
      // The section sits beside the access tab and has its permission.
      await requireDevicePermission(db, actor, deviceId, 'DELETE');
      const rows = await loadQueries(
        db,
        sql`${refDateQueries.id} IN (SELECT ref_date_query_id FROM ${refDateQueryDevices} WHERE device_id = ${deviceId})`,
      );
      return rows.map(({ deviceIds: _members, ...query }) => query);
    },
  );

  app.delete(
    '/devices/:id/ref-date-queries/:refDateQueryId',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['ref-date-queries'],
        summary: 'Takes the device out of a reference-date query',
        description:
          "The query's last device is not taken out (409, `refDateQueryId` `invalid {reason: last_device}`): a query has at least one device; delete the query instead.",
        params: deviceRefDateQueryParams,
        response: { 204: z.null(), 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const { id: deviceId, refDateQueryId } = request.params;
      await requireDevicePermission(db, actor, deviceId, 'DELETE');
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
      return reply.code(204).send(null);
    },
  );
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
