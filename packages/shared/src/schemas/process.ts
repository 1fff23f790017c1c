import { z } from 'zod';
import { SENSOR_TYPES } from '../devices.ts';

/**
 * The process curve (`GET /v2/devices/{id}/process`) in its two forms
 * (docs/decisions/057-process-curve-in-columns.md).
 *
 * `format=points` (the default, the API's first form): per sensor an array of point objects.
 * `format=columns` (what the web chart loads): per sensor parallel arrays, one entry per point in
 * the same order (time ascending), a quarter of the bytes and no object per point to build,
 * serialise or parse. The times go as differences: `timeDeltas[0]` is the first point's time in
 * epoch milliseconds, every later entry the milliseconds since the point before (readings come at
 * steady intervals, so the differences repeat: 8 digits instead of 13, and a compressed answer of
 * 0.26 instead of 0.44 MB for 2 × 25,000 points). `decodeProcessColumns` adds them up; a point's
 * id is then `pointId(sensorId, times[i])`. Hidden points are in neither form.
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
  /** The first point's time in epoch milliseconds, then each point's milliseconds after the one before. */
  timeDeltas: z.array(z.number()),
  values: z.array(z.number().nullable()),
  percents: z.array(z.number().nullable()),
  temperatures: z.array(z.number().nullable()),
});
/** One sensor's curve in columns as the API sends it. */
export type ProcessColumnsWire = z.infer<typeof processColumnsSchema>;

/** One sensor's curve in columns as a reader uses it: `times` in epoch milliseconds, ascending. */
export type ProcessColumnsSeries = Omit<ProcessColumnsWire, 'timeDeltas'> & { times: number[] };

/** Times in epoch milliseconds as `timeDeltas`: the first as it is, then each minus the one before. */
export function encodeTimeDeltas(times: number[]): number[] {
  const deltas = new Array<number>(times.length);
  for (let i = 0; i < times.length; i++) deltas[i] = i === 0 ? times[0] : times[i] - times[i - 1];
  return deltas;
}

/** The times of a curve in columns, added up from its differences (exact: integers far below 2^53). */
export function decodeProcessColumns({ timeDeltas, ...series }: ProcessColumnsWire): ProcessColumnsSeries {
  const times = new Array<number>(timeDeltas.length);
  let time = 0;
  for (let i = 0; i < timeDeltas.length; i++) times[i] = time += timeDeltas[i];
  return { ...series, times };
}

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
