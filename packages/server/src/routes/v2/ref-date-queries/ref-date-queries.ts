import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  deviceRefDateQuerySchema,
  refDateQueryBody,
  refDateQuerySchema,
} from '@tankportal/shared/schemas/ref-date-queries';
import type { Api, AppContext } from '../../../context.ts';
import {
  changeRefDateQuery,
  createRefDateQuery,
  deleteRefDateQuery,
  managedRefDateQueryOrThrow,
  removeDeviceFromRefDateQuery,
} from '../../../commands/ref-date-queries.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { authorOf } from '../../../plugins/route-chain.ts';
import { presentRefDateQuery } from '../../../presenters/ref-date-query.ts';
import { refDateQueriesManagedBy, refDateQueriesOfDevice } from '../../../repositories/ref-date-queries.ts';

import { errorSchema } from '../../schemas.ts';

const refDateQueryParams = z.object({ refDateQueryId: pathId() });
const deviceRefDateQueryParams = z.object({ id: pathId(), refDateQueryId: pathId() });
const deviceParams = z.object({ id: pathId() });

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
    async (request) => (await refDateQueriesManagedBy(db, actorOf(request).user)).map(presentRefDateQuery),
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
      const author = authorOf(request);
      const actor = author.actor.user;
      const id = await createRefDateQuery(db, author, request.body);
      const created = presentRefDateQuery(await managedRefDateQueryOrThrow(db, actor, id));
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
    async (request) =>
      presentRefDateQuery(
        await managedRefDateQueryOrThrow(db, actorOf(request).user, request.params.refDateQueryId),
      ),
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
      const author = authorOf(request);
      const id = request.params.refDateQueryId;
      await changeRefDateQuery(db, author, id, request.body);
      return presentRefDateQuery(await managedRefDateQueryOrThrow(db, author.actor.user, id));
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
      await deleteRefDateQuery(db, authorOf(request), request.params.refDateQueryId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/devices/:id/ref-date-queries',
    {
      // The section sits beside the access tab and has its permission.
      config: { role: 'ROLE_USER', device: { permission: 'DELETE' } },
      schema: {
        tags: ['ref-date-queries'],
        summary: "The reference-date queries a device belongs to (needs the device's DELETE permission)",
        params: deviceParams,
        response: { 200: z.array(deviceRefDateQuerySchema), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const deviceId = request.params.id;
      const rows = (await refDateQueriesOfDevice(db, deviceId)).map(presentRefDateQuery);
      return rows.map(({ deviceIds: _members, ...query }) => query);
    },
  );

  app.delete(
    '/devices/:id/ref-date-queries/:refDateQueryId',
    {
      config: { role: 'ROLE_USER', device: { permission: 'DELETE' } },
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
      const { id: deviceId, refDateQueryId } = request.params;
      await removeDeviceFromRefDateQuery(db, authorOf(request), deviceId, refDateQueryId);
      return reply.code(204).send(null);
    },
  );
}
