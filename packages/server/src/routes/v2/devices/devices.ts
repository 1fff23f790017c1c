import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  deviceDetailSchema,
  deviceListQuery,
  deviceListRouteQuery,
  deviceListTotalsSchema,
  deviceMapEntrySchema,
  deviceSummarySchema,
  type DeviceListQuery,
} from '@tankportal/shared/schemas/devices';
import type { Api, AppContext } from '../../../context.ts';
import type { UserRow } from '../../../db/schema.ts';
import type { Db } from '../../../db/client.ts';
import { notFound } from '../../../http-error.ts';
import { devicePermissions } from '../../../policies/device-access.ts';
import { userManagedBy } from '../../../policies/user-tree.ts';

import { actorOf } from '../../../plugins/auth.ts';
import { presentDeviceMapEntry, presentDeviceSummary } from '../../../presenters/device.ts';
import {
  accessEntriesOf,
  deviceListQueries,
  readListPage,
  deviceListTotals,
  healthOfDevices,
  listDeviceIds,
  listMapDevices,
  sensorsOfDevices,
} from '../../../repositories/devices.ts';
import { loadDeviceDetail } from './device-detail.ts';
import { errorSchema } from '../../schemas.ts';

/** Device ids are positive integers; anything else is an unknown device (404). */
export const deviceIdParams = z.object({ id: pathId() });

/**
 * `user_id` (and `not_reached_by`) names whose access page is asked for: the actor itself or a user
 * it manages. Anybody else is 404, as an unknown user: who holds which entries is the business of
 * who manages them.
 */
async function checkListedUsers(db: Db, actor: UserRow, { userId, notReachedBy }: DeviceListQuery) {
  for (const id of [userId, notReachedBy])
    if (id !== undefined && id !== actor.id && !(await userManagedBy(db, actor, id))) throw notFound();
}

export function deviceRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary:
          'The devices the actor may see, one page (x-total-count, x-location-enabled-devices-count; ' +
          'not with `counts=false`: the list page asks GET /devices/totals once per filter instead); ' +
          'with `view=map` and `location_enabled_only=true` every located one, compact and unpaged',
        querystring: deviceListRouteQuery,
        response: {
          404: errorSchema,
          // The map's compact entries are strict objects: a full row never passes for one. The
          // list's rows first: the answer is checked against the first array that fits, and a
          // page of full rows should not be checked against the map's entries first.
          200: z.union([z.array(deviceSummarySchema), z.array(deviceMapEntrySchema)]),
          400: errorSchema,
          401: errorSchema,
        },
      },
      // The rows come from the typed presenters, field by field: checking a page of them against
      // the union above cost about a fifth of the list's Node time (1.7 of 8 ms per page of 100 at
      // 10,000 devices). The schema stays for the types, the API document and the tests' checks.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request, reply) => {
      const actor = actorOf(request).user;
      const { userId } = request.query;
      await checkListedUsers(db, actor, request.query);
      if (request.query.view === 'map') {
        const located = await listMapDevices(db, actor, request.query);
        const count = String(located.length);
        reply.header('x-total-count', count).header('x-location-enabled-devices-count', count);
        return located.map(presentDeviceMapEntry);
      }
      const queries = deviceListQueries(db, actor, request.query);
      const [rows, counts] = await Promise.all([
        readListPage(queries.page),
        request.query.counts ? queries.count : undefined,
      ]);
      const ids = rows.map((row) => row.device.id);
      const [sensors, permissions, entries, health] = await Promise.all([
        sensorsOfDevices(db, ids),
        devicePermissions(db, actor, ids),
        userId === undefined ? undefined : accessEntriesOf(db, userId, ids),
        healthOfDevices(db, ids),
      ]);
      if (counts)
        reply
          .header('x-total-count', String(counts[0].total))
          .header('x-location-enabled-devices-count', String(counts[0].locationEnabled));
      return rows.map(({ device, owner }) => ({
        ...presentDeviceSummary(
          device,
          owner,
          sensors.get(device.id) ?? [],
          permissions.get(device.id)!,
          health.get(device.id) ?? [],
        ),
        ...(entries && { userPermissions: entries.get(device.id) ?? null }),
      }));
    },
  );

  app.get(
    '/devices/totals',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary:
          'The counts and footer totals (per unit, the probe sensors not in error) of every device ' +
          'matching the list filters, whatever the page: what the list page asks for once per filter',
        querystring: deviceListQuery,
        response: { 200: deviceListTotalsSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      await checkListedUsers(db, actor, request.query);
      return deviceListTotals(db, actor, request.query);
    },
  );

  app.get(
    '/devices/ids',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary: 'Ids of every device matching the list filters, in list order',
        querystring: deviceListQuery,
        response: { 200: z.array(z.number()), 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      await checkListedUsers(db, actor, request.query);
      return listDeviceIds(db, actor, request.query);
    },
  );

  app.get(
    '/devices/:id',
    {
      config: { role: 'ROLE_DEMO' },
      schema: {
        tags: ['devices'],
        summary: 'One device with permissions, sensors, address, open alarms and thresholds',
        params: deviceIdParams,
        response: { 200: deviceDetailSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request).user;
      return loadDeviceDetail(db, actor, request.params.id);
    },
  );
}
