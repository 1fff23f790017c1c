import { and, asc, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { z } from 'zod';
import type { Api, AppContext } from '../../../context.ts';
import { measurements, monthlyConsumption, sensors, unassignedDevices } from '../../../db/schema.ts';
import { requireDevicePermission } from '../../../policies/device-access.ts';
import { minimumRole, requireRole } from '../../../policies/roles.ts';
import { errorSchema } from '../../schemas.ts';
import { deviceIdParams } from './devices.ts';

const MAX_PROCESS_ROWS = 25_000;

const processSeries = z.object({
  sensorId: z.number(),
  sequence: z.number(),
  name: z.string(),
  type: z.enum(['probe', 'counter']),
  unit: z.string(),
  data: z.array(
    z.object({
      /** Opaque id of the data point, for hiding it (`DELETE /v2/sensor-data/{id}`). */
      id: z.string(),
      timestamp: z.date(),
      value: z.number().nullable(),
      percent: z.number().nullable(),
      temperature: z.number().nullable(),
    }),
  ),
});

export function deviceDataRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/process',
    {
      preHandler: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['devices'],
        summary:
          'Process curve per sensor, newest `limit` rows each; x-process-start names the first measurement',
        params: deviceIdParams,
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(MAX_PROCESS_ROWS).default(MAX_PROCESS_ROWS),
          from: z.coerce.date().optional(),
          to: z.coerce.date().optional(),
        }),
        response: { 200: z.array(processSeries), 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const actor = requireRole(request.actor, 'ROLE_DEMO').user;
      const deviceId = request.params.id;
      await requireDevicePermission(db, actor, deviceId, 'VIEW_PROCESS');
      const { limit, from, to } = request.query;
      const deviceSensors = await db
        .select()
        .from(sensors)
        .where(eq(sensors.deviceId, deviceId))
        .orderBy(asc(sensors.sequence));
      let start: Date | null = null;
      const series = [];
      for (const sensor of deviceSensors) {
        const visible = and(eq(measurements.sensorId, sensor.id), eq(measurements.hidden, false));
        const [first] = await db
          .select({ at: measurements.measuredAt })
          .from(measurements)
          .where(visible)
          .orderBy(asc(measurements.measuredAt))
          .limit(1);
        if (first && (!start || first.at < start)) start = first.at;
        // Newest rows first through the (sensor, time) key, then in time order for the chart.
        const rows = await db
          .select()
          .from(measurements)
          .where(
            and(
              visible,
              from ? gte(measurements.measuredAt, from) : undefined,
              to ? lte(measurements.measuredAt, to) : undefined,
            ),
          )
          .orderBy(desc(measurements.measuredAt))
          .limit(limit);
        rows.reverse();
        series.push({
          sensorId: sensor.id,
          sequence: sensor.sequence,
          name: sensor.name,
          type: sensor.type,
          unit: sensor.unit,
          data: rows.map((row) => ({
            id: `${row.sensorId}-${row.measuredAt.getTime()}`,
            timestamp: row.measuredAt,
            value: row.value,
            percent: row.percent,
            temperature: row.temperature,
          })),
        });
      }
      if (start) reply.header('x-process-start', start.toISOString());
      return series;
    },
  );

  app.get(
    '/devices/:id/consumption',
    {
      preHandler: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['devices'],
        summary: 'Monthly consumption per sensor, newest month first',
        params: deviceIdParams,
        response: {
          200: z.array(
            z.object({
              year: z.number(),
              month: z.number(),
              data: z.array(z.object({ sensorId: z.number(), consumption: z.number() })),
            }),
          ),
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request) => {
      const actor = requireRole(request.actor, 'ROLE_DEMO').user;
      await requireDevicePermission(db, actor, request.params.id, 'VIEW_CONSUMPTION');
      const deviceSensors = await db
        .select({ id: sensors.id })
        .from(sensors)
        .where(eq(sensors.deviceId, request.params.id));
      if (deviceSensors.length === 0) return [];
      const rows = await db
        .select()
        .from(monthlyConsumption)
        .where(
          inArray(
            monthlyConsumption.sensorId,
            deviceSensors.map((sensor) => sensor.id),
          ),
        )
        .orderBy(
          desc(monthlyConsumption.year),
          desc(monthlyConsumption.month),
          asc(monthlyConsumption.sensorId),
        );
      const months = new Map<
        string,
        { year: number; month: number; data: { sensorId: number; consumption: number }[] }
      >();
      for (const row of rows) {
        const key = `${row.year}-${row.month}`;
        const entry = months.get(key) ?? { year: row.year, month: row.month, data: [] };
        entry.data.push({ sensorId: row.sensorId, consumption: row.consumption });
        months.set(key, entry);
      }
      return [...months.values()];
    },
  );

  const unassigned = z.object({
    id: z.number(),
    ident: z.string(),
    host: z.string().nullable(),
    lastReportedAt: z.date(),
  });
  for (const [path, kind] of [
    ['net', 'net'],
    ['iot', 'iot'],
    ['lx-iot', 'lx_iot'],
  ] as const) {
    app.get(
      `/devices/unassigned/${path}`,
      {
        preHandler: minimumRole('ROLE_ADMIN'),
        schema: {
          tags: ['devices'],
          summary: `Senders of kind ${kind} the system does not know`,
          response: { 200: z.array(unassigned) },
        },
      },
      async () =>
        db
          .select({
            id: unassignedDevices.id,
            ident: unassignedDevices.ident,
            host: unassignedDevices.host,
            lastReportedAt: unassignedDevices.lastReportedAt,
          })
          .from(unassignedDevices)
          .where(eq(unassignedDevices.kind, kind))
          .orderBy(desc(unassignedDevices.lastReportedAt)),
    );
  }
}
