import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { blockQuerySchema, createBlockQueryBody } from '@tankportal/shared/schemas/block-queries';
import type { Api, AppContext } from '../../../context.ts';
import { createBlockQuery, findBlockQuery } from '../../../commands/block-queries.ts';
import { notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';
import { requireQueryableDevices } from '../../../policies/queryable-devices.ts';
import { errorSchema } from '../../schemas.ts';

const blockQueryParams = z.object({ blockQueryId: pathId() });

/**
 * Block queries: one query to each of many SMS and LX-IoT devices
 * the actor may query, handed to the gateways paced (commands/dispatch-queries.ts); the web polls
 * the location every 5 s until each query is processed or failed.
 */
export function blockQueryRoutes(app: Api, { db }: AppContext) {
  app.post(
    '/block-queries',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['queries'],
        summary: 'Queries many SMS and LX-IoT devices at once, paced per gateway; poll the location',
        body: createBlockQueryBody,
        response: { 201: blockQuerySchema, 400: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const deviceIds = [...new Set(request.body.deviceIds)];
      await requireQueryableDevices(db, actor, deviceIds, 'QUERY');
      const id = await createBlockQuery(db, actor.id, deviceIds);
      const created = (await findBlockQuery(db, id))!;
      return reply.code(201).header('location', `/api/v2/block-queries/${id}`).send(created);
    },
  );

  app.get(
    '/block-queries/:blockQueryId',
    {
      config: { role: 'ROLE_USER' },
      schema: {
        tags: ['queries'],
        summary: 'A block query: per device the status of its query',
        params: blockQueryParams,
        response: { 200: blockQuerySchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const blockQuery = await findBlockQuery(db, request.params.blockQueryId);
      // Only whoever sent it follows it: another user's block query is no business of the actor.
      if (!blockQuery || blockQuery.userId !== actor.id) throw notFound();
      return blockQuery;
    },
  );
}
