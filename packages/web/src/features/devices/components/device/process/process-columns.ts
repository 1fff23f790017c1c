import type { ProcessSeries } from '../../../api/process.ts';

/** Which value of a process point a curve draws. */
export type CurveValue = 'percent' | 'value' | 'temperature';

/**
 * One curve of a sensor as columns: only the points that have the value, times in epoch ms
 * ascending, and per point its index in the series' arrays (to hand the clicked point over).
 */
export interface CurveColumns {
  times: Float64Array;
  values: Float64Array;
  indices: Uint32Array;
}

/** The array of the answer that holds each value. */
const COLUMN = {
  percent: 'percents',
  value: 'values',
  temperature: 'temperatures',
} as const satisfies Record<CurveValue, keyof ProcessSeries>;

// Per loaded answer (a series object lives as long as its query result): built once, however
// often the range, the sensors or the temperature switch change.
const timesOfSeries = new WeakMap<ProcessSeries, Float64Array>();
const curvesOfSeries = new WeakMap<ProcessSeries, Partial<Record<CurveValue, CurveColumns>>>();

function seriesTimes(series: ProcessSeries): Float64Array {
  let times = timesOfSeries.get(series);
  if (!times) {
    times = Float64Array.from(series.times);
    timesOfSeries.set(series, times);
  }
  return times;
}

/** The columns of one curve of a sensor (points without the value left out); memoised. */
export function curveColumns(series: ProcessSeries, value: CurveValue): CurveColumns {
  let curves = curvesOfSeries.get(series);
  if (!curves) {
    curves = {};
    curvesOfSeries.set(series, curves);
  }
  const known = curves[value];
  if (known) return known;
  const column: readonly (number | null)[] = series[COLUMN[value]];
  const allTimes = seriesTimes(series);
  let count = 0;
  for (const pointValue of column) if (pointValue !== null) count++;
  const curve: CurveColumns = {
    times: count === column.length ? allTimes : new Float64Array(count),
    values: new Float64Array(count),
    indices: new Uint32Array(count),
  };
  let next = 0;
  for (let i = 0; i < column.length; i++) {
    const pointValue = column[i];
    if (pointValue === null) continue;
    curve.times[next] = allTimes[i];
    curve.values[next] = pointValue;
    curve.indices[next] = i;
    next++;
  }
  curves[value] = curve;
  return curve;
}

/** Index of the first time at or after `time` (times ascending). */
export function lowerBound(times: ArrayLike<number>, time: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle] < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The part of a curve from the last point before `from` on (so the line enters the chart at its
 * left edge), as views on the curve's columns (nothing copied).
 */
export function curveFrom(curve: CurveColumns, from: number): CurveColumns {
  const start = Math.max(0, lowerBound(curve.times, from) - 1);
  return {
    times: curve.times.subarray(start),
    values: curve.values.subarray(start),
    indices: curve.indices.subarray(start),
  };
}

/**
 * A curve as ECharts reads large data fastest: one flat typed array of `[time, value]` pairs
 * (`series.data` with two dimensions). ECharts neither clones it in `setOption` nor converts
 * item by item, as it does with an array of `[time, value]` arrays.
 */
export function interleaved(curve: CurveColumns): Float64Array {
  const pairs = new Float64Array(curve.times.length * 2);
  for (let i = 0; i < curve.times.length; i++) {
    pairs[2 * i] = curve.times[i];
    pairs[2 * i + 1] = curve.values[i];
  }
  return pairs;
}
