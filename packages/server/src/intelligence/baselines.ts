/**
 * Three simple days-to-empty rules, pure like the forecast itself: the yardsticks the product's
 * forecast (forecast.ts) is held against, and candidates a tank may choose instead of it.
 *
 * - `last_30_days`: the use of the last 30 days (refills removed: one slope through all readings
 *   of the window, each segment between refills with its own level), extrapolated linearly;
 * - `last_year`: the days last year's use from the same date (365 days ago) took to use today's
 *   level; null without a year of history;
 * - `degree_day_regression` (heating contents only): use per day = a + b · HDD (GTZ 20/15, measured
 *   temperatures where known, the normals otherwise), fitted by ordinary least squares over weekly
 *   bins of the whole history, projected with the normal degree days of degree-days.ts.
 *
 * All three take the forecast's input (`ForecastInput`) and answer in its shape (emptyAt, the range
 * emptyAtLow / emptyAtHigh, perDay), or null when they cannot tell. Shared by all three:
 * - readings after `now` or more than `FORECAST_RULES.historyDays` before it are left out, and no
 *   answer when the last reading is older than `FORECAST_RULES.staleDays`;
 * - refills are the forecast's own (`segmentStarts`); within a segment a reading more than 3 % of
 *   the capacity away from what its six nearest neighbours (with their Theil–Sen slope) say is a
 *   stray and left out;
 * - the level now: each reading of the last three days of the current segment (at most five),
 *   carried forward to now with the rule's use (`last_year`: this year's own use of those days),
 *   and the median of those;
 * - the range is a FIXED SPREAD, not learnt from past errors: the early end uses 25 % more per day
 *   than the rule says, the late end 20 % less (`BASELINE_SPREAD`).
 */
import { degreeDaysOfDay, normalDegreeDays } from './degree-days.ts';
import { fromLocalDays, germanDayNumber, localDays } from '../time/day-numbers.ts';
import {
  FORECAST_RULES,
  givenLocalDays,
  medianInPlace,
  readingsUpTo,
  segmentStartsOfDays,
  type ForecastInput,
  type LevelPoint,
} from './forecast.ts';

export type BaselineKind = 'last_30_days' | 'last_year' | 'degree_day_regression';

export const BASELINE_KINDS: readonly BaselineKind[] = ['last_30_days', 'last_year', 'degree_day_regression'];

/** Use-per-day multipliers of the range's ends: `high` for the early end, `low` for the late one. */
export const BASELINE_SPREAD = { low: 0.8, high: 1.25 } as const;

export const BASELINE_RULES = {
  /** The window of `last_30_days` (days) and what it needs: covered days and readings. */
  windowDays: 30,
  minWindowDays: 7,
  minWindowPoints: 4,
  /** `last_year` starts this many days before now, and needs history from then on. */
  yearDays: 365,
  /** `degree_day_regression`: weekly bins with at least this share of the week covered … */
  minBinCoverage: 0.8,
  /** … at least this many of them, spanning this many degree days per day between the least and the most. */
  minBins: 6,
  minDegreeDaySpread: 4,
  /** A reading this share of the capacity away from what its neighbours say is a stray. */
  strayShare: 0.03,
} as const;

/** A baseline, learnt: the level now and the expected use per German day from now on. */
export interface BaselineModel {
  kind: BaselineKind;
  /** The level at `at` (the input's now). */
  level: number;
  at: Date;
  /** Expected use on a German day (day number of degree-days.ts), for days from now on. */
  useOnDay(day: number): number;
  basis: { since: string; days: number; points: number; model: BaselineKind };
}

export interface BaselineForecast {
  emptyAt: string;
  reorderAt: string | null;
  emptyAtLow: string;
  emptyAtHigh: string;
  /** Expected use per day over the next 30 days. */
  perDay: number;
  basis: BaselineModel['basis'];
}

const DAY_MS = 86_400_000;

/** The baseline's forecast in the product's shape, or null when it cannot tell. */
export function forecastBaseline(kind: BaselineKind, input: ForecastInput): BaselineForecast | null {
  const model = learnBaseline(kind, input);
  if (!model) return null;
  const reach = baselineReach(model, 0);
  if (!reach) return null;
  const reorderAt =
    input.reorderPct === null || !Number.isFinite(input.reorderPct)
      ? null
      : baselineTimeToReach(model, (input.capacity * input.reorderPct) / 100);
  const today = germanDayNumber(input.now);
  let next30 = 0;
  for (let day = today; day < today + 30; day++) next30 += model.useOnDay(day);
  return {
    emptyAt: reach.at.toISOString(),
    reorderAt: reorderAt?.toISOString() ?? null,
    emptyAtLow: reach.low.toISOString(),
    emptyAtHigh: reach.high.toISOString(),
    perDay: next30 / 30,
    basis: model.basis,
  };
}

/**
 * When the baseline's level reaches `volume`, with the range of `BASELINE_SPREAD`; null when the
 * median is more than `FORECAST_RULES.horizonDays` ahead (the late end is capped there).
 */
export function baselineReach(
  model: BaselineModel,
  volume: number,
): { at: Date; low: Date; high: Date } | null {
  const at = baselineTimeToReach(model, volume);
  if (!at) return null;
  const latest = new Date(model.at.getTime() + FORECAST_RULES.horizonDays * DAY_MS);
  return {
    at,
    low: baselineTimeToReach(model, volume, BASELINE_SPREAD.high) ?? at,
    high: baselineTimeToReach(model, volume, BASELINE_SPREAD.low) ?? latest,
  };
}

/** Day by day from now with the use scaled by `factor`; now when already there, null beyond the horizon. */
export function baselineTimeToReach(model: BaselineModel, volume: number, factor = 1): Date | null {
  let remaining = model.level - volume;
  if (remaining <= 0) return model.at;
  let u = localDays(model.at);
  const end = u + FORECAST_RULES.horizonDays;
  while (u < end) {
    const day = Math.floor(u);
    const rate = factor * model.useOnDay(day);
    const piece = rate * (day + 1 - u);
    if (rate > 0 && piece >= remaining) return fromLocalDays(u + remaining / rate);
    remaining -= piece;
    u = day + 1;
  }
  return null;
}

export function learnBaseline(kind: BaselineKind, input: ForecastInput): BaselineModel | null {
  const { capacity } = input;
  if (!(capacity > 0) || !Number.isFinite(capacity)) return null;
  const uNow = localDays(input.now);
  const series = cleanSeries(input.points, capacity, uNow);
  if (!series) return null;
  const { u } = series;
  if (uNow - u[u.length - 1] > FORECAST_RULES.staleDays) return null;
  let rule: Rule | null;
  if (kind === 'last_30_days') rule = lastDaysRate(series, uNow);
  else if (kind === 'last_year') rule = lastYearUse(series, uNow);
  else rule = input.heating ? degreeDayRegression(series, uNow, input.temperatures) : null;
  if (!rule) return null;
  const level = levelNow(series, uNow, rule.past);
  return {
    kind,
    level,
    at: input.now,
    useOnDay: rule.future,
    basis: {
      since: fromLocalDays(u[0]).toISOString(),
      days: Math.round(u[u.length - 1] - u[0]),
      points: u.length,
      model: kind,
    },
  };
}

/** A rule's use per German day: from now on, and before now (to carry the latest readings to now). */
interface Rule {
  future: (day: number) => number;
  past: (day: number) => number;
}

// --- The readings -----------------------------------------------------------------------------

interface CleanSeries {
  /** Local days and volumes, ascending, strays left out. */
  u: number[];
  v: number[];
  /** Segment number of every reading (0 for the first segment). */
  segment: number[];
  capacity: number;
}

/**
 * The clean series last made of a list of readings, by that list: the rules learnt at the same
 * moment on the same readings (a tank's backtest asks both of its rules at every origin) clean them
 * once.
 */
const cleaned = new WeakMap<
  readonly LevelPoint[],
  { capacity: number; uNow: number; series: CleanSeries | null }
>();

function cleanSeries(points: readonly LevelPoint[], capacity: number, uNow: number): CleanSeries | null {
  const kept = cleaned.get(points);
  if (kept && kept.capacity === capacity && kept.uNow === uNow) return kept.series;
  const series = cleanSeriesOf(points, capacity, uNow);
  cleaned.set(points, { capacity, uNow, series });
  return series;
}

/**
 * The stray test's answers of one backtest's readings, by their index in the whole series (the
 * buffer of the local days the backtest gave with each origin's readings: `withLocalDays`). A
 * reading's answer rests on its own and its twelve nearest readings and on which of them share its
 * segment (`neighbours`, a bit each): an origin whose readings have a reading's neighbourhood as
 * an earlier origin had takes that origin's answer instead of working it out again.
 */
interface StrayAnswers {
  capacity: number;
  /** Per reading of the whole series: its neighbours as last asked, + 1 (0: not asked yet). */
  neighbours: Int32Array;
  kept: Uint8Array;
}
const strayAnswers = new WeakMap<ArrayBufferLike, StrayAnswers>();

/**
 * The answers of the whole series `points` is the first readings of, and the index there of the
 * first of `u` (readings before it fell out of the history window); null where `u` and `v` are not
 * exactly those readings in order.
 */
function strayAnswersOf(
  points: readonly LevelPoint[],
  u: Float64Array,
  v: Float64Array,
  capacity: number,
): { answers: StrayAnswers; offset: number } | null {
  const days = givenLocalDays(points);
  const offset = points.length - u.length;
  if (!days || days.byteOffset !== 0 || offset < 0) return null;
  for (let i = 0; i < u.length; i++)
    if (u[i] !== days[offset + i] || v[i] !== points[offset + i].volume) return null;
  let answers = strayAnswers.get(days.buffer);
  if (!answers || answers.capacity !== capacity) {
    const length = days.buffer.byteLength / Float64Array.BYTES_PER_ELEMENT;
    answers = { capacity, neighbours: new Int32Array(length), kept: new Uint8Array(length) };
    strayAnswers.set(days.buffer, answers);
  }
  return { answers, offset };
}

function cleanSeriesOf(points: readonly LevelPoint[], capacity: number, uNow: number): CleanSeries | null {
  const readings = readingsUpTo(points, uNow);
  if (!readings) return null;
  const { u, v } = readings;
  const n = u.length;
  const starts = segmentStartsOfDays(u, v, capacity);
  const segmentOf = new Int32Array(n);
  for (let s = 0; s < starts.length; s++)
    for (let i = starts[s]; i < (s + 1 < starts.length ? starts[s + 1] : n); i++) segmentOf[i] = s;
  const limit = BASELINE_RULES.strayShare * capacity;
  const series: CleanSeries = { u: [], v: [], segment: [], capacity };
  const around = new Int32Array(6);
  const slopes = new Float64Array(15);
  const expected = new Float64Array(6);
  const earlier = strayAnswersOf(points, u, v, capacity);
  for (let i = 0; i < n; i++) {
    // The six nearest readings of the segment (three each side where there are), with their
    // Theil–Sen slope: a fast use over a few days is no stray, and one stray among them moves
    // neither the slope nor the median. (A pair counts only in the order found: nearer first.)
    let count = 0;
    let neighbours = 0;
    for (let step = 1; count < 6 && step <= 6; step++)
      for (let side = 0; side < 2 && count < 6; side++) {
        const j = side === 0 ? i - step : i + step;
        if (j >= 0 && j < n && segmentOf[j] === segmentOf[i]) {
          around[count++] = j;
          neighbours |= 1 << (2 * (step - 1) + side);
        }
      }
    if (earlier) {
      const { answers, offset } = earlier;
      if (answers.neighbours[offset + i] !== neighbours + 1) {
        answers.neighbours[offset + i] = neighbours + 1;
        answers.kept[offset + i] = strayTest(u, v, i, around, count, limit, slopes, expected) ? 1 : 0;
      }
      if (answers.kept[offset + i] === 0) continue;
    } else if (!strayTest(u, v, i, around, count, limit, slopes, expected)) continue;
    series.u.push(u[i]);
    series.v.push(v[i]);
    series.segment.push(segmentOf[i]);
  }
  return series.u.length > 0 ? series : null;
}

/** Whether reading `i` stays: fewer than four neighbours, or near what they say (`cleanSeriesOf`). */
function strayTest(
  u: Float64Array,
  v: Float64Array,
  i: number,
  around: Int32Array,
  count: number,
  limit: number,
  slopes: Float64Array,
  expected: Float64Array,
): boolean {
  if (count >= 4) {
    let slopeCount = 0;
    for (let a = 0; a < count; a++)
      for (let b = a + 1; b < count; b++) {
        const span = u[around[b]] - u[around[a]];
        if (span > 0) slopes[slopeCount++] = (v[around[b]] - v[around[a]]) / span;
      }
    const slope = slopeCount > 0 ? medianInPlace(slopes.subarray(0, slopeCount)) : 0;
    for (let k = 0; k < count; k++) expected[k] = v[around[k]] + slope * (u[i] - u[around[k]]);
    if (Math.abs(v[i] - medianInPlace(expected.subarray(0, count))) > limit) return false;
  }
  return true;
}

/**
 * Use per German day from the readings: the fall between two consecutive readings of a segment,
 * spread evenly over the time between them. Days not covered (a refill, a gap before the first
 * reading) have coverage below 1. Index 0 is `firstDay`; the last index is today.
 */
function dailyUse(series: CleanSeries, uNow: number) {
  const { u, v, segment, capacity } = series;
  const firstDay = Math.floor(u[0]);
  const days = Math.floor(uNow) - firstDay + 1;
  const use = new Float64Array(days);
  const coverage = new Float64Array(days);
  for (let i = 0; i + 1 < u.length; i++) {
    if (segment[i] !== segment[i + 1] || u[i + 1] <= u[i]) continue;
    // A reading while the truck was still pumping belongs to the refill, not to the use.
    if (v[i + 1] - v[i] > BASELINE_RULES.strayShare * capacity) continue;
    const perDay = (v[i] - v[i + 1]) / (u[i + 1] - u[i]);
    for (let t = u[i]; t < u[i + 1];) {
      const day = Math.floor(t);
      const next = Math.min(day + 1, u[i + 1]);
      use[day - firstDay] += perDay * (next - t);
      coverage[day - firstDay] += next - t;
      t = next;
    }
  }
  return { firstDay, use, coverage };
}

function levelNow(series: CleanSeries, uNow: number, useOnDay: (day: number) => number): number {
  const { u, v, segment, capacity } = series;
  const n = u.length;
  const carried: number[] = [];
  for (let i = n - 1; i >= 0 && segment[i] === segment[n - 1] && carried.length < 5; i--) {
    if (u[n - 1] - u[i] > 3) break;
    let used = 0;
    for (let t = u[i]; t < uNow;) {
      const day = Math.floor(t);
      const next = Math.min(day + 1, uNow);
      used += useOnDay(day) * (next - t);
      t = next;
    }
    carried.push(v[i] - used);
  }
  return Math.max(0, Math.min(capacity, median(carried)));
}

// --- (a) The last 30 days -------------------------------------------------------------------

/**
 * The slope of the readings of the last 30 days, one level per segment (least squares on the
 * readings minus their segment's means): refills drop out, and the noise of single readings weighs
 * less than in a first-minus-last difference.
 */
function lastDaysRate(series: CleanSeries, uNow: number): Rule | null {
  const { u, v, segment } = series;
  const from = uNow - BASELINE_RULES.windowDays;
  const groups = new Map<number, number[]>();
  u.forEach((at, i) => {
    if (at < from) return;
    const group = groups.get(segment[i]);
    if (group) group.push(i);
    else groups.set(segment[i], [i]);
  });
  let sxy = 0;
  let sxx = 0;
  let covered = 0;
  let points = 0;
  for (const indexes of groups.values()) {
    if (indexes.length < 2) continue;
    const meanU = indexes.reduce((sum, i) => sum + u[i], 0) / indexes.length;
    const meanV = indexes.reduce((sum, i) => sum + v[i], 0) / indexes.length;
    for (const i of indexes) {
      sxy += (u[i] - meanU) * (v[i] - meanV);
      sxx += (u[i] - meanU) ** 2;
    }
    covered += u[indexes.at(-1)!] - u[indexes[0]];
    points += indexes.length;
  }
  if (covered < BASELINE_RULES.minWindowDays || points < BASELINE_RULES.minWindowPoints || sxx <= 0)
    return null;
  const perDay = -sxy / sxx;
  return perDay > 0 ? { future: () => perDay, past: () => perDay } : null;
}

// --- (b) The same period last year ---------------------------------------------------------

/**
 * Last year's use from the same date on: the use on day d is what was used on day d − 365 (a day
 * the readings do not cover takes the mean of the covered days within a week, else within a month,
 * else of the whole year). Beyond a year ahead the year repeats. Null unless the readings reach
 * back to the same date last year.
 */
function lastYearUse(series: CleanSeries, uNow: number): Rule | null {
  const yearDays = BASELINE_RULES.yearDays;
  if (series.u[0] > uNow - yearDays + 1) return null;
  const { firstDay, use, coverage } = dailyUse(series, uNow);
  const today = Math.floor(uNow);
  const start = today - yearDays;
  // Last year's days [start, today): the use per covered day, filled where not covered.
  const year = new Float64Array(yearDays);
  const known = new Uint8Array(yearDays);
  let total = 0;
  let totalCoverage = 0;
  for (let k = 0; k < yearDays; k++) {
    const index = start + k - firstDay;
    if (index < 0 || coverage[index] < 0.5) continue;
    year[k] = use[index] / coverage[index];
    known[k] = 1;
    total += use[index];
    totalCoverage += coverage[index];
  }
  if (totalCoverage < yearDays / 2 || !(total > 0)) return null;
  const yearMean = total / totalCoverage;
  const filled = Float64Array.from(year, (value, k) => {
    if (known[k]) return value;
    for (const reach of [7, 30]) {
      let sum = 0;
      let count = 0;
      for (let j = Math.max(0, k - reach); j <= Math.min(yearDays - 1, k + reach); j++)
        if (known[j]) {
          sum += year[j];
          count++;
        }
      if (count > 0) return sum / count;
    }
    return yearMean;
  });
  // Before now: this year's own use (the mean of the last week where the readings do not tell).
  let recent = 0;
  let recentCoverage = 0;
  for (let index = Math.max(0, today - 7 - firstDay); index <= today - firstDay; index++) {
    recent += use[index];
    recentCoverage += coverage[index];
  }
  const recentMean = recentCoverage > 0 ? recent / recentCoverage : yearMean;
  const past = (day: number) => {
    const index = day - firstDay;
    return index >= 0 && index < use.length && coverage[index] >= 0.25
      ? use[index] / coverage[index]
      : recentMean;
  };
  // Not clipped at 0: a day's use from noisy readings may come out negative, and clipping would
  // add the noise up into too much use; over several days the readings' noise cancels.
  return { future: (day) => filled[(((day - start) % yearDays) + yearDays) % yearDays], past };
}

// --- (c) Degree-day regression ---------------------------------------------------------------

/**
 * Use per day = a + b · HDD by ordinary least squares over weekly bins (each at least 80 %
 * covered by readings, weighted by coverage), a, b ≥ 0 (a negative one is dropped and the other
 * refitted). Null with fewer than six bins, or when the bins' degree days per day span less than
 * 4 K (a summer alone cannot tell a from b).
 */
function degreeDayRegression(
  series: CleanSeries,
  uNow: number,
  temperatures: ReadonlyMap<string, number>,
): Rule | null {
  const { firstDay, use, coverage } = dailyUse(series, uNow);
  const today = Math.floor(uNow);
  const bins: { x: number; y: number; w: number }[] = [];
  for (let from = today - 7; from >= firstDay; from -= 7) {
    let used = 0;
    let covered = 0;
    let hdd = 0;
    for (let day = from; day < from + 7; day++) {
      const c = coverage[day - firstDay];
      used += use[day - firstDay];
      covered += c;
      hdd += c * degreeDaysOfDay(day, temperatures);
    }
    if (covered >= 7 * BASELINE_RULES.minBinCoverage)
      bins.push({ x: hdd / covered, y: used / covered, w: covered });
  }
  if (bins.length < BASELINE_RULES.minBins) return null;
  const xs = bins.map((bin) => bin.x);
  if (Math.max(...xs) - Math.min(...xs) < BASELINE_RULES.minDegreeDaySpread) return null;
  let sw = 0;
  let sx = 0;
  let sy = 0;
  for (const { x, y, w } of bins) {
    sw += w;
    sx += w * x;
    sy += w * y;
  }
  const mx = sx / sw;
  const my = sy / sw;
  let sxx = 0;
  let sxy = 0;
  let sxxOrigin = 0;
  let sxyOrigin = 0;
  for (const { x, y, w } of bins) {
    sxx += w * (x - mx) ** 2;
    sxy += w * (x - mx) * (y - my);
    sxxOrigin += w * x * x;
    sxyOrigin += w * x * y;
  }
  let b = sxx > 0 ? sxy / sxx : 0;
  let a = my - b * mx;
  if (b < 0) {
    b = 0;
    a = my;
  } else if (a < 0) {
    a = 0;
    b = sxxOrigin > 0 ? sxyOrigin / sxxOrigin : 0;
  }
  if (!(a > 0 || b > 0)) return null;
  const perDay = (day: number) =>
    a + b * (day < today ? degreeDaysOfDay(day, temperatures) : normalDegreeDays(day));
  return { future: perDay, past: perDay };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
