import type { ProcessPoint, ProcessSeries } from '../../../api/process.ts';

/** Which value of a process point a curve draws. */
export type CurveValue = 'percent' | 'value' | 'temperature';

/**
 * One curve of a sensor as columns: only the points that have the value, times in epoch ms
 * ascending, and per point its index in `series.data` (to hand the clicked point over).
 */
export interface CurveColumns {
  times: Float64Array;
  values: Float64Array;
  indices: Uint32Array;
}

const ZERO = 48;
/** '0' subtracted from each digit of a 2- and 3-digit number in one go. */
const TWO_ZEROS = ZERO * 11;
const THREE_ZEROS = ZERO * 111;
const FOUR_ZEROS = ZERO * 1111;

/**
 * The epoch milliseconds of the server's timestamps. The process endpoint writes them as
 * `YYYY-MM-DDTHH:MM:SS.mmmZ`; reading those digits directly is several times faster than
 * `Date.parse` (which 200,000 points made a noticeable part of drawing the chart), and the date
 * part goes through `Date.UTC` only when the day changes. Anything else falls back to `Date.parse`.
 */
export function parseTimestamps(points: readonly { timestamp: string }[]): Float64Array {
  const times = new Float64Array(points.length);
  let dayKey = -1;
  let dayStart = 0;
  for (let i = 0; i < points.length; i++) {
    const text = points[i].timestamp;
    if (
      text.length !== 24 ||
      text.charCodeAt(23) !== 90 /* Z */ ||
      text.charCodeAt(10) !== 84 /* T */ ||
      text.charCodeAt(19) !== 46 /* . */
    ) {
      times[i] = Date.parse(text);
      continue;
    }
    const year =
      text.charCodeAt(0) * 1000 +
      text.charCodeAt(1) * 100 +
      text.charCodeAt(2) * 10 +
      text.charCodeAt(3) -
      FOUR_ZEROS;
    const month = text.charCodeAt(5) * 10 + text.charCodeAt(6) - TWO_ZEROS;
    const day = text.charCodeAt(8) * 10 + text.charCodeAt(9) - TWO_ZEROS;
    const key = year * 10_000 + month * 100 + day;
    if (key !== dayKey) {
      dayKey = key;
      dayStart = Date.UTC(year, month - 1, day);
    }
    times[i] =
      dayStart +
      (text.charCodeAt(11) * 10 + text.charCodeAt(12) - TWO_ZEROS) * 3_600_000 +
      (text.charCodeAt(14) * 10 + text.charCodeAt(15) - TWO_ZEROS) * 60_000 +
      (text.charCodeAt(17) * 10 + text.charCodeAt(18) - TWO_ZEROS) * 1000 +
      text.charCodeAt(20) * 100 +
      text.charCodeAt(21) * 10 +
      text.charCodeAt(22) -
      THREE_ZEROS;
  }
  return times;
}

// Per loaded answer (a series object lives as long as its query result): parsed once, however
// often the range, the sensors or the temperature switch change.
const timesOfSeries = new WeakMap<ProcessSeries, Float64Array>();
const curvesOfSeries = new WeakMap<ProcessSeries, Partial<Record<CurveValue, CurveColumns>>>();

function seriesTimes(series: ProcessSeries): Float64Array {
  let times = timesOfSeries.get(series);
  if (!times) {
    times = parseTimestamps(series.data);
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
  const data: readonly ProcessPoint[] = series.data;
  const allTimes = seriesTimes(series);
  let count = 0;
  for (const point of data) if (point[value] !== null) count++;
  const curve: CurveColumns = {
    times: count === data.length ? allTimes : new Float64Array(count),
    values: new Float64Array(count),
    indices: new Uint32Array(count),
  };
  let next = 0;
  for (let i = 0; i < data.length; i++) {
    const pointValue = data[i][value];
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
