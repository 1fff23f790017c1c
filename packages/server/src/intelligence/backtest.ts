/**
 * How good the forecast has been on a sensor's own history: forecasts made at past
 * moments with only the data known then, held against what happened.
 *
 * Real tanks are refilled before they run dry, so "when did it reach empty" rarely has an answer.
 * What always has one: the level a segment (the stretch between two refills) ended at, and when it
 * got there. So for every segment of at least 30 days, a forecast is made 30 days before its last
 * reading, asked when the level will reach that reading's volume, and compared with the reading's
 * time. On a series that runs to empty this is exactly the emptyAt error 30 days before empty.
 *
 * The benchmark's yardstick (bench/forecast-accuracy.ts). The portal's own backtest of each tank,
 * which chooses its forecaster and its range, is model-choice.ts.
 */
import { localDays } from '../time/day-numbers.ts';
import {
  FORECAST_RULES,
  learnConsumption,
  segmentStarts,
  timeToReach,
  type ForecastInput,
} from './forecast.ts';

export type BacktestSeries = Pick<ForecastInput, 'points' | 'capacity' | 'heating' | 'temperatures'>;

export interface BacktestOptions {
  /** How long before the target the forecast is made (days). Default 30. */
  horizonDays?: number;
  /** Only targets at or after `from` and before `to`. */
  from?: Date;
  to?: Date;
}

export interface BacktestResult {
  /** Signed error of each comparison in days: forecast − actual (positive: predicted too late). */
  errors: number[];
  medianAbs: number | null;
  p90Abs: number | null;
  /** Share of comparisons whose actual time lay within the forecast's range (about 80 % intended). */
  inRange: number | null;
}

const DAY_MS = 86_400_000;

export function backtest(series: BacktestSeries, options: BacktestOptions = {}): BacktestResult {
  const horizonDays = options.horizonDays ?? 30;
  const { points } = series;
  const errors: number[] = [];
  let inRange = 0;
  for (const target of targetsOf(series, horizonDays)) {
    const actual = points[target].at;
    if ((options.from && actual < options.from) || (options.to && actual >= options.to)) continue;
    const now = new Date(actual.getTime() - horizonDays * DAY_MS);
    const known = countUpTo(points, now);
    const model = learnConsumption({
      ...series,
      points: points.slice(0, known),
      reorderPct: null,
      now,
    });
    if (!model) continue;
    const volume = points[target].volume;
    // A forecast that sees no end within its horizon is wrong by at least that horizon.
    const predicted =
      timeToReach(model, volume) ?? new Date(now.getTime() + FORECAST_RULES.horizonDays * DAY_MS);
    errors.push((predicted.getTime() - actual.getTime()) / DAY_MS);
    const { low, high } = model.spread((predicted.getTime() - now.getTime()) / DAY_MS);
    const early = timeToReach(model, volume, high) ?? predicted;
    const late = timeToReach(model, volume, low);
    if (actual >= early && (!late || actual <= late)) inRange++;
  }
  const absolute = errors.map(Math.abs).sort((a, b) => a - b);
  return {
    errors,
    medianAbs: quantile(absolute, 0.5),
    p90Abs: quantile(absolute, 0.9),
    inRange: errors.length ? inRange / errors.length : null,
  };
}

/** Indexes of the readings to predict: the last before every refill whose segment is at least `horizonDays` long. */
function targetsOf(series: BacktestSeries, horizonDays: number): number[] {
  const { points, capacity } = series;
  const starts = segmentStarts(points, capacity);
  const targets: number[] = [];
  starts.forEach((start, s) => {
    const last = (s + 1 < starts.length ? starts[s + 1] : points.length) - 1;
    const earliest = localDays(points[start].at) + horizonDays;
    // The open segment at the end has not ended yet: its last reading is no event.
    if (s + 1 < starts.length && localDays(points[last].at) >= earliest) targets.push(last);
  });
  return targets;
}

/** How many readings lie at or before `at` (binary search; readings ascend). */
function countUpTo(points: ForecastInput['points'], at: Date): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (points[middle].at <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Quantile of sorted values with linear interpolation between neighbours; null when empty. */
function quantile(sorted: number[], probability: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}
