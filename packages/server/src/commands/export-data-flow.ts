import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Locale } from '@tankportal/shared/constants';
import {
  DATA_FLOW_OUTPUTS,
  type DataFlowOutput,
  type InterpolationDate,
  type InterpolationMode,
} from '@tankportal/shared/schemas/export';
import type { Db } from '../db/client.ts';
import { devices, measurements, sensors, type UserRow } from '../db/schema.ts';
import { deviceVisibleTo } from '../policies/device-access.ts';

import { monthlyDataFlow } from '../sensor-logic/data-flow.ts';
import type { ExportPlan } from './export-consumption.ts';
import { contentTypeName, exportLabels, sensorLabel, unitCell } from './export-labels.ts';
import type { Cell, Column } from './export-sheet.ts';

export interface DataFlowExportRequest {
  /** `last13month` or a year. */
  period: string;
  contentTypes: string[];
  outputs: DataFlowOutput[];
  mode: InterpolationMode;
  at: InterpolationDate;
  locale: Locale;
}

/** The calendar months (UTC, as the consumption) of a period. */
export function periodMonths(period: string, now = new Date()): { year: number; month: number }[] {
  const first =
    period === 'last13month' ? now.getUTCFullYear() * 12 + now.getUTCMonth() - 12 : Number(period) * 12;
  return Array.from({ length: period === 'last13month' ? 13 : 12 }, (_, offset) => ({
    year: Math.floor((first + offset) / 12),
    month: ((first + offset) % 12) + 1,
  }));
}

/**
 * probe_data_flow: for every level sensor of the devices the actor may export (optionally only
 * some content types), one row per month of the period with inflow, outflow and quantity — the
 * outputs asked for, in that order.
 */
export async function dataFlowExport(
  db: Db,
  actor: UserRow,
  request: DataFlowExportRequest,
): Promise<ExportPlan> {
  const labels = exportLabels(request.locale);
  const months = periodMonths(request.period);
  const start = new Date(Date.UTC(months[0].year, months[0].month - 1, 1));
  const last = months[months.length - 1];
  const end = new Date(Date.UTC(last.year, last.month, 1));
  const outputs = DATA_FLOW_OUTPUTS.filter((output) => request.outputs.includes(output));

  const probes = await db
    .select({
      sensor: sensors,
      deviceName: devices.name,
      fillingRecognitionInterval: devices.fillingRecognitionInterval,
    })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(
      and(
        deviceVisibleTo(actor, 'EXPORT'),
        eq(sensors.type, 'probe'),
        request.contentTypes.length ? inArray(sensors.contentType, request.contentTypes) : undefined,
      ),
    )
    .orderBy(asc(devices.id), asc(sensors.sequence));

  async function* rows(): AsyncIterable<Cell[]> {
    for (const { sensor, deviceName, fillingRecognitionInterval } of probes) {
      const series = and(
        eq(measurements.sensorId, sensor.id),
        eq(measurements.hidden, false),
        sql`${measurements.value} IS NOT NULL`,
      );
      const reading = { at: measurements.measuredAt, value: measurements.value };
      // The period's readings plus one on each side: the step into the first month and the
      // quantity at the last month's end need them.
      const [before, inside, after] = await Promise.all([
        db
          .select(reading)
          .from(measurements)
          .where(and(series, lt(measurements.measuredAt, start)))
          .orderBy(desc(measurements.measuredAt))
          .limit(1),
        db
          .select(reading)
          .from(measurements)
          .where(and(series, gte(measurements.measuredAt, start), lt(measurements.measuredAt, end))),
        db
          .select(reading)
          .from(measurements)
          .where(and(series, gte(measurements.measuredAt, end)))
          .orderBy(asc(measurements.measuredAt))
          .limit(1),
      ]);
      const flows = monthlyDataFlow(
        [...before, ...inside, ...after].map((row) => ({ at: row.at, value: row.value! })),
        months,
        {
          capacity: sensor.capacity ?? 0,
          fillingRecognitionInterval,
          mode: request.mode,
          at: request.at,
        },
      );
      for (const flow of flows) {
        yield [
          sensor.deviceId,
          deviceName,
          sensorLabel(labels, sensor),
          contentTypeName(sensor.contentType, request.locale),
          unitCell(sensor.unit),
          flow.year,
          flow.month,
          ...outputs.map((output) => flow[output]),
        ];
      }
    }
  }

  return {
    filename: `${labels.fileDataFlow}-${request.period}`,
    sheetName: labels.sheetDataFlow,
    columns: [
      { header: labels.id, kind: 'number', decimals: 0 },
      { header: labels.name, kind: 'text', width: 24 },
      { header: labels.sensor, kind: 'text', width: 18 },
      { header: labels.contentType, kind: 'text', width: 16 },
      { header: labels.unit, kind: 'text' },
      { header: labels.year, kind: 'number', decimals: 0 },
      { header: labels.month, kind: 'number', decimals: 0 },
      ...outputs.map((output): Column => ({ header: labels[output], kind: 'number', decimals: 2 })),
    ],
    rows: rows(),
  };
}
