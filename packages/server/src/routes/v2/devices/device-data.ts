import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { moment, pathId, queryInteger } from '@tankportal/shared/schemas/common';
import type { Api, AppContext } from '../../../context.ts';
import { measurements, monthlyConsumption, sensors, unassignedDevices } from '../../../db/schema.ts';
import { notFound } from '../../../http-error.ts';
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
      timestamp: z.iso.datetime(),
      value: z.number().nullable(),
      percent: z.number().nullable(),
      temperature: z.number().nullable(),
    }),
  ),
});

interface ProcessRow extends Record<string, unknown> {
  /** bigint: a string from node-postgres, a number from PGlite. */
  epoch_ms: string | number;
  timestamp: string;
  value: number | null;
  percent: number | null;
  temperature: number | null;
}

export function deviceDataRoutes(app: Api, { db }: AppContext) {
  app.get(
    '/devices/:id/process',
    {
      onRequest: minimumRole('ROLE_DEMO'),
      schema: {
        tags: ['devices'],
        summary:
          'Process curve per sensor, newest `limit` rows each; x-process-start names the first measurement',
        params: deviceIdParams,
        querystring: z.object({
          limit: queryInteger({ min: 1, max: MAX_PROCESS_ROWS }).default(MAX_PROCESS_ROWS),
          from: moment().optional(),
          to: moment().optional(),
        }),
        response: { 200: z.array(processSeries), 403: errorSchema, 404: errorSchema },
      },
      // Megabytes of points built right here from typed rows: checking each of them against the
      // schema on the way out would cost more than the query. The schema stays for types and docs.
      serializerCompiler: () => (data) => JSON.stringify(data),
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
        // Newest rows first through the (sensor, time) key, then in time order for the chart. With
        // up to 25,000 rows per sensor, per-cell mapping and Date objects (parsed on the way in,
        // serialised one by one on the way out) would cost more than the query: plain SQL, the time
        // as ISO text and epoch milliseconds.
        const { rows } = await db.execute<ProcessRow>(sql`
          SELECT floor(extract(epoch FROM measured_at) * 1000)::bigint AS epoch_ms,
            to_char(measured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp,
            value, percent, temperature
          FROM ${measurements}
          WHERE ${and(
            visible,
            from ? gte(measurements.measuredAt, from) : undefined,
            to ? lte(measurements.measuredAt, to) : undefined,
          )}
          ORDER BY measured_at DESC
          LIMIT ${limit}`);
        rows.reverse();
        series.push({
          sensorId: sensor.id,
          sequence: sensor.sequence,
          name: sensor.name,
          type: sensor.type,
          unit: sensor.unit,
          data: rows.map((row) => ({
            id: `${sensor.id}-${row.epoch_ms}`,
            timestamp: row.timestamp,
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
      onRequest: minimumRole('ROLE_DEMO'),
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
        onRequest: minimumRole('ROLE_ADMIN'),
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

  app.delete(
    '/devices/unassigned/:id',
    {
      onRequest: minimumRole('ROLE_MASTER'),
      schema: {
        tags: ['devices'],
        summary:
          'Removes a sender from the unassigned list (master); it is listed again when it reports again',
        params: z.object({ id: pathId() }),
        response: { 204: z.null(), 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      // One row per sender (store-report.ts recordUnassigned): the removal is immediate, no job.
      const removed = await db
        .delete(unassignedDevices)
        .where(eq(unassignedDevices.id, request.params.id))
        .returning({ id: unassignedDevices.id });
      if (!removed.length) throw notFound();
      return reply.code(204).send(null);
    },
  );
}
