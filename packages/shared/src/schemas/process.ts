import { z } from 'zod';
import { SENSOR_TYPES } from '../devices.ts';

/**
 * The process curve (`GET /v2/devices/{id}/process`) in its two forms
 * (docs/decisions/057-process-curve-in-columns.md).
 *
 * `format=points` (the default, the API's first form): per sensor an array of point objects.
 * `format=columns` (what the web chart loads): per sensor parallel arrays, one entry per point in
 * the same order (time ascending), a quarter of the bytes and no object per point to build,
 * serialise or parse. A point's time is `times[i]` in epoch milliseconds; its id is
 * `pointId(sensorId, times[i])`. Hidden points are in neither form.
 */
export const PROCESS_FORMATS = ['points', 'columns'] as const;
export type ProcessFormat = (typeof PROCESS_FORMATS)[number];

const sensorOfSeries = {
  sensorId: z.number(),
  sequence: z.number(),
  name: z.string(),
  type: z.enum(SENSOR_TYPES),
  unit: z.string(),
};

export const processPointSchema = z.object({
  /** Opaque id of the data point, for hiding it (`DELETE /v2/sensor-data/{id}`). */
  id: z.string(),
  timestamp: z.iso.datetime(),
  value: z.number().nullable(),
  percent: z.number().nullable(),
  temperature: z.number().nullable(),
});
export type ProcessPoint = z.infer<typeof processPointSchema>;

export const processPointsSchema = z.object({ ...sensorOfSeries, data: z.array(processPointSchema) });
export type ProcessPointsSeries = z.infer<typeof processPointsSchema>;

export const processColumnsSchema = z.object({
  ...sensorOfSeries,
  /** Measurement times in epoch milliseconds, ascending. */
  times: z.array(z.number()),
  values: z.array(z.number().nullable()),
  percents: z.array(z.number().nullable()),
  temperatures: z.array(z.number().nullable()),
});
export type ProcessColumnsSeries = z.infer<typeof processColumnsSchema>;

/** The id that hides a point (`DELETE /v2/sensor-data/{id}`): the sensor and the epoch milliseconds. */
export const pointId = (sensorId: number, time: number) => `${sensorId}-${time}`;

/** Point `index` of a series in columns, as the points form has it. */
export function pointOfColumns(series: ProcessColumnsSeries, index: number): ProcessPoint {
  const time = series.times[index];
  return {
    id: pointId(series.sensorId, time),
    timestamp: new Date(time).toISOString(),
    value: series.values[index],
    percent: series.percents[index],
    temperature: series.temperatures[index],
  };
}
