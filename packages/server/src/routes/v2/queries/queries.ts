import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import { createQueryBody, QUERYABLE_TYPES, querySchema } from '@tankportal/shared/schemas/queries';
import type { Api, AppContext } from '../../../context.ts';
import { presentQueryFailure, sendQuery, type QueryRow } from '../../../commands/send-query.ts';
import { invalidFields, notFound } from '../../../http-error.ts';
import { actorOf } from '../../../plugins/auth.ts';

import { errorSchema } from '../../schemas.ts';
import { identOf } from '../../../db/device-ident.ts';
import { findDeviceRow, findVisibleQuery } from '../../../repositories/devices.ts';

const queryIdParams = z.object({ queryId: pathId() });

function presentQuery(row: QueryRow) {
  return {
    id: row.id,
    deviceId: row.deviceId,
    status: row.status,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
    processedAt: row.processedAt,
    failure: presentQueryFailure(row),
  };
}

/** Manual queries: ask an SMS or LX-IoT device to report now. */
export function queryRoutes(app: Api, { db, deviceChannels }: AppContext) {
  app.post(
    '/queries',
    {
      // Demo accounts are read-only: 403 whatever the device.
      config: { role: 'ROLE_APP_USER', device: { permission: 'QUERY', in: 'body' } },
      schema: {
        tags: ['queries'],
        summary: 'Sends a manual query to an SMS or LX-IoT device; poll the location until processed',
        body: createQueryBody,
        response: { 201: querySchema, 400: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const { deviceId } = request.body;
      const device = (await findDeviceRow(db, deviceId))!;
      if (!(QUERYABLE_TYPES as readonly string[]).includes(device.type) || !identOf(device))
        throw invalidFields([{ path: 'deviceId', code: 'invalid', args: { reason: 'not_queryable' } }]);
      const query = await sendQuery(db, deviceChannels, device, actor.id);
      return reply.code(201).header('location', `/api/v2/queries/${query.id}`).send(presentQuery(query));
    },
  );

  app.get(
    '/queries/:queryId',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['queries'],
        summary: 'A manual query and its status (pending, sent, processed, failed)',
        params: queryIdParams,
        response: { 200: querySchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      const query = await findVisibleQuery(db, actor, request.params.queryId);
      if (!query) throw notFound();
      return presentQuery(query);
    },
  );
}
