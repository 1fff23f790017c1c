import { z } from 'zod';
import { pathId } from '@tankportal/shared/schemas/common';
import {
  deviceDetailSchema,
  deviceListQuery,
  deviceListRouteQuery,
  deviceMapEntrySchema,
  deviceSummarySchema,
  SENSOR_TOTALS_HEADER,
} from '@tankportal/shared/schemas/devices';
import type { Api, AppContext } from '../../../context.ts';
import { devicePermissions } from '../../../policies/device-access.ts';
import { minimumRole, requireRole } from '../../../policies/roles.ts';
import { presentDeviceMapEntry, presentDeviceSummary } from '../../../presenters/device.ts';
import {
  listDeviceIds,
  listDevices,
  listMapDevices,
  sensorsOfDevices,
} from '../../../repositories/devices.ts';
import { loadDeviceDetail } from './device-detail.ts';
import { errorSchema } from '../../schemas.ts';

/** DESIGN.md [1]: device ids are positive integers; anything else is an unknown device (404). */
export const deviceIdParams = z.object({ id: pathId() });

/** JSON for a header value: a header carries Latin-1 only, so anything beyond ASCII is escaped. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

export function deviceRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices',
    {
      onRequest: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['devices'],
        summary:
          'The devices the actor may see (x-total-count, x-location-enabled-devices-count, ' +
          'x-sensor-totals: the footer totals of every matching device as JSON); with ' +
          '`view=map` and `location_enabled_only=true` every located one, compact and unpaged',
        querystring: deviceListRouteQuery,
        response: {
          // The map's compact entries are strict objects: a full row never passes for one.
          200: z.union([z.array(deviceMapEntrySchema), z.array(deviceSummarySchema)]),
          400: errorSchema,
          401: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request.actor, 'ROLE_DEMO').user;
      if (request.query.view === 'map') {
        const located = await listMapDevices(db, actor, request.query);
        const count = String(located.length);
        reply.header('x-total-count', count).header('x-location-enabled-devices-count', count);
        return located.map(presentDeviceMapEntry);
      }
      const { rows, total, locationEnabled, sensorTotals } = await listDevices(db, actor, request.query);
      const ids = rows.map((row) => row.device.id);
      const [sensors, permissions] = await Promise.all([
        sensorsOfDevices(db, ids),
        devicePermissions(db, actor, ids),
      ]);
      reply
        .header('x-total-count', String(total))
        .header('x-location-enabled-devices-count', String(locationEnabled))
        .header(SENSOR_TOTALS_HEADER, asciiJson(sensorTotals));
      return rows.map(({ device, owner }) =>
        presentDeviceSummary(device, owner, sensors.get(device.id) ?? [], permissions.get(device.id)!),
      );
    },
  );

  app.get(
    '/devices/ids',
    {
      onRequest: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['devices'],
        summary: 'Ids of every device matching the list filters, in list order',
        querystring: deviceListQuery,
        response: { 200: z.array(z.number()), 400: errorSchema },
      },
    },
    async (request) => listDeviceIds(db, requireRole(request.actor, 'ROLE_DEMO').user, request.query),
  );

  app.get(
    '/devices/:id',
    {
      onRequest: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['devices'],
        summary: 'One device with permissions, sensors, address, open alarms and thresholds',
        params: deviceIdParams,
        response: { 200: deviceDetailSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = requireRole(request.actor, 'ROLE_DEMO').user;
      return loadDeviceDetail(db, actor, request.params.id);
    },
  );
}
