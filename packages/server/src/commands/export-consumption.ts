import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Locale } from '@tankportal/shared/constants';
import type { Db } from '../db/client.ts';
import { measurements, monthlyConsumption, type UserRow } from '../db/schema.ts';
import { requireDevicePermission } from '../policies/device-access.ts';
import { sensorsOfDevices, type SensorRow } from '../repositories/devices.ts';

import { exportLabels, sensorLabel, unitCell } from './export-labels.ts';
import type { Cell, Column } from './export-sheet.ts';
import { monthIn } from '../time/zone.ts';

/** What an export writes: the file's name and sheet, its columns and its rows, produced lazily. */
export interface ExportPlan {
  filename: string;
  sheetName: string;
  columns: Column[];
  rows: AsyncIterable<Cell[]>;
}

export interface ConsumptionExportRequest {
  deviceId: number;
  from: Date;
  to: Date;
  locale: Locale;
  timeZone: string;
}

/** Readings are read in pages of this size, in (time, sensor) order. */
const PAGE = 5_000;

const day = (date: Date, timeZone: string) => date.toLocaleDateString('sv-SE', { timeZone });

async function exportableSensors(db: Db, actor: UserRow, deviceId: number): Promise<SensorRow[]> {
  await requireDevicePermission(db, actor, deviceId, 'EXPORT');
  return (await sensorsOfDevices(db, [deviceId])).get(deviceId) ?? [];
}

/**
 * simple_consumption: one row per calendar month of the range (in the export's zone), the monthly
 * consumption of every sensor in its own column; empty where a month has no reading.
 */
export async function simpleConsumptionExport(
  db: Db,
  actor: UserRow,
  request: ConsumptionExportRequest,
): Promise<ExportPlan> {
  const sensors = await exportableSensors(db, actor, request.deviceId);
  const labels = exportLabels(request.locale);
  const first = monthIn(request.from, request.timeZone);
  const last = monthIn(request.to, request.timeZone);
  const index = ({ year, month }: { year: number; month: number }) => year * 12 + month - 1;

  async function* rows(): AsyncIterable<Cell[]> {
    const byMonth = new Map<string, number>();
    if (sensors.length) {
      const month = sql`${monthlyConsumption.year} * 12 + ${monthlyConsumption.month} - 1`;
      const stored = await db
        .select()
        .from(monthlyConsumption)
        .where(
          and(
            inArray(
              monthlyConsumption.sensorId,
              sensors.map((sensor) => sensor.id),
            ),
            gte(month, index(first)),
            lte(month, index(last)),
          ),
        );
      for (const row of stored) byMonth.set(`${row.sensorId}:${row.year}:${row.month}`, row.consumption);
    }
    for (let at = index(first); at <= index(last); at++) {
      const year = Math.floor(at / 12);
      const month = (at % 12) + 1;
      yield [year, month, ...sensors.map((sensor) => byMonth.get(`${sensor.id}:${year}:${month}`) ?? null)];
    }
  }

  return {
    filename: `${labels.fileConsumption}-${request.deviceId}-${day(request.from, request.timeZone)}-${day(request.to, request.timeZone)}`,
    sheetName: labels.sheetConsumption,
    columns: [
      { header: labels.year, kind: 'number', decimals: 0 },
      { header: labels.month, kind: 'number', decimals: 0 },
      ...sensors.map((sensor): Column => ({
        header: sensorLabel(labels, sensor, true),
        kind: 'number',
        decimals: 2,
      })),
    ],
    rows: rows(),
  };
}

/**
 * extended_consumption: every visible measurement of the range, oldest first: time, sensor, value,
 * unit, percent, temperature.
 */
export async function extendedConsumptionExport(
  db: Db,
  actor: UserRow,
  request: ConsumptionExportRequest,
): Promise<ExportPlan> {
  const sensors = await exportableSensors(db, actor, request.deviceId);
  const labels = exportLabels(request.locale);
  const byId = new Map(sensors.map((sensor) => [sensor.id, sensor]));

  async function* rows(): AsyncIterable<Cell[]> {
    if (sensors.length === 0) return;
    let after: { at: Date; sensorId: number } | null = null;
    for (;;) {
      // Keyset pages: each page is one complete query (PGlite holds no cursor across queries).
      const page: (typeof measurements.$inferSelect)[] = await db
        .select()
        .from(measurements)
        .where(
          and(
            inArray(measurements.sensorId, [...byId.keys()]),
            eq(measurements.hidden, false),
            gte(measurements.measuredAt, request.from),
            lte(measurements.measuredAt, request.to),
            after
              ? sql`(${measurements.measuredAt}, ${measurements.sensorId}) > (${after.at.toISOString()}::timestamptz, ${after.sensorId})`
              : undefined,
          ),
        )
        .orderBy(asc(measurements.measuredAt), asc(measurements.sensorId))
        .limit(PAGE);
      for (const row of page) {
        const sensor = byId.get(row.sensorId)!;
        yield [
          row.measuredAt,
          sensorLabel(labels, sensor),
          row.value,
          unitCell(sensor.unit),
          row.percent,
          row.temperature,
        ];
      }
      if (page.length < PAGE) return;
      const lastRow = page[page.length - 1];
      after = { at: lastRow.measuredAt, sensorId: lastRow.sensorId };
    }
  }

  return {
    filename: `${labels.fileMeasurements}-${request.deviceId}-${day(request.from, request.timeZone)}-${day(request.to, request.timeZone)}`,
    sheetName: labels.sheetMeasurements,
    columns: [
      { header: labels.time, kind: 'datetime' },
      { header: labels.sensor, kind: 'text', width: 24 },
      { header: labels.value, kind: 'number', decimals: 2 },
      { header: labels.unit, kind: 'text' },
      { header: labels.percent, kind: 'number', decimals: 1 },
      { header: labels.temperature, kind: 'number', decimals: 1 },
    ],
    rows: rows(),
  };
}
