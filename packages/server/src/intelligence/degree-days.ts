/**
 * Heating degree days for the tank forecast.
 *
 * Space heating uses fuel roughly in proportion to how far the outdoor temperature stays below the
 * temperature a building needs no heating at. VDI 4710 / VDI 3807 measure that as heating degree
 * days "GTZ 20/15": a day whose mean outdoor temperature is below the heating limit of 15 °C counts
 * 20 °C (the room temperature) minus its mean; a warmer day counts nothing.
 *
 * Temperatures arrive per German calendar day ('YYYY-MM-DD' in Europe/Berlin), so everything here
 * counts days the way a German weather service does, in the day numbers of time/day-numbers.ts.
 */
import { CACHE_DAYS, dayFromKey, dayKey } from '../time/day-numbers.ts';

const DAY_MS = 86_400_000;

export const ROOM_TEMPERATURE_C = 20;
export const HEATING_LIMIT_C = 15;

/**
 * How a building's heating follows the outdoor temperature: below `limitC` a day counts
 * `baseC` − its mean (K·d), above it nothing. GTZ 20/15 (VDI 4710) is base 20, limit 15, with its
 * jump of 5 K·d at the limit; a building heated in proportion to how far the day stays below its own
 * heating limit L is base = limit = L (no jump).
 */
export interface HeatingShape {
  limitC: number;
  baseC: number;
}

export const GTZ_20_15: HeatingShape = { limitC: HEATING_LIMIT_C, baseC: ROOM_TEMPERATURE_C };

/** Linear below a heating limit, the shapes a heating forecast tries besides GTZ 20/15 (°C). */
export const HEATING_LIMITS_C: readonly number[] = [12, 13.5, 15, 16.5, 18];

/** Degree days of one day from its mean outdoor temperature (K·d), GTZ 20/15 unless another shape. */
export function heatingDegreeDays(meanTemperatureC: number, shape: HeatingShape = GTZ_20_15): number {
  return meanTemperatureC < shape.limitC ? shape.baseC - meanTemperatureC : 0;
}

// --- Normal temperatures ----------------------------------------------------------------------

/**
 * Long-term monthly mean air temperature of Germany (°C), January to December: the DWD's area mean
 * of the reference period 1991–2020 (Deutscher Wetterdienst, "vieljährige Mittelwerte", area mean
 * Germany; as republished by mtwetter.de / monatsprognose.de). Plausibility: the mean of the twelve
 * is 9.3 °C, the DWD's annual normal for 1991–2020; the seasons give 1.4 / 8.9 / 17.6 / 9.3 °C,
 * the published winter, spring, summer and autumn normals.
 */
export const MONTHLY_NORMALS_C: readonly number[] = [
  0.9, 1.5, 4.7, 9.0, 13.1, 16.4, 18.3, 17.9, 13.8, 9.4, 4.8, 1.8,
];

/**
 * Day-to-day spread (standard deviation, K) of German daily mean temperatures around the seasonal
 * normal. Used for the expected degree days of a day: in May or September the normal mean is near
 * the heating limit, and about half the days count although the normal itself barely does.
 */
export const DAILY_SPREAD_C = 3.5;

/**
 * Values at the middle of each month whose straight-line interpolation has the monthly normals as
 * its month means. Interpolating the normals themselves would flatten the peaks (July would come out
 * 0.4 K too cool): the mean of a month under linear interpolation between month middles is
 * (previous + 6 · own + next) / 8, and a few fixed-point steps solve that cyclic system.
 */
const MONTH_MIDDLE_VALUES: readonly number[] = (() => {
  const knots = [...MONTHLY_NORMALS_C];
  for (let step = 0; step < 60; step++) {
    const means = knots.map((value, m) => (knots[(m + 11) % 12] + 6 * value + knots[(m + 1) % 12]) / 8);
    for (let m = 0; m < 12; m++) knots[m] += MONTHLY_NORMALS_C[m] - means[m];
  }
  return knots;
})();

/** `normalTemperature`'s values, worked out once per day (a backtest asks for them at every origin). */
const normalTemperatureCache = new Float64Array(CACHE_DAYS).fill(Number.NaN);

/**
 * The normal mean temperature of a day: linear between the middles of the months, so that the
 * normal moves a little every day instead of jumping at the first of a month.
 */
export function normalTemperature(day: number): number {
  if (!Number.isInteger(day) || day < 0 || day >= CACHE_DAYS) return normalTemperatureOf(day);
  let value = normalTemperatureCache[day];
  if (Number.isNaN(value)) {
    value = normalTemperatureOf(day);
    normalTemperatureCache[day] = value;
  }
  return value;
}

function normalTemperatureOf(day: number): number {
  const date = new Date(day * DAY_MS);
  const month = date.getUTCMonth();
  const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), month + 1, 0)).getUTCDate();
  // Position in months: each month's middle sits on its index; a month spans one unit.
  const position = month + (date.getUTCDate() - 0.5) / daysInMonth - 0.5;
  const below = Math.floor(position);
  const share = position - below;
  return (
    MONTH_MIDDLE_VALUES[(below + 12) % 12] * (1 - share) + MONTH_MIDDLE_VALUES[(below + 13) % 12] * share
  );
}

/** Standard normal distribution function (Abramowitz & Stegun 26.2.17, error below 1e-7). */
function standardNormalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  const tail =
    density *
    t *
    (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

/**
 * Expected GTZ 20/15 of a day with the normal mean temperature μ and a day-to-day spread σ:
 * E[(20 − T) · 1(T < 15)] for T ~ N(μ, σ²) = (20 − μ) · Φ(z) + σ · φ(z), z = (15 − μ) / σ.
 * In midwinter that is 20 − μ; around the heating limit it is what an average year really counts.
 */
function expectedDegreeDays(normalC: number, shape: HeatingShape = GTZ_20_15): number {
  const z = (shape.limitC - normalC) / DAILY_SPREAD_C;
  const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  return (shape.baseC - normalC) * standardNormalCdf(z) + DAILY_SPREAD_C * density;
}

const normalDegreeDayCache = new Float64Array(CACHE_DAYS).fill(Number.NaN);

/** Degree days to expect of a day when nothing is measured: from the normals (see above). */
export function normalDegreeDays(day: number): number {
  if (day < 0 || day >= CACHE_DAYS) return expectedDegreeDays(normalTemperature(day));
  let value = normalDegreeDayCache[day];
  if (Number.isNaN(value)) {
    value = expectedDegreeDays(normalTemperature(day));
    normalDegreeDayCache[day] = value;
  }
  return value;
}

// --- A site's own normals ---------------------------------------------------------------------

/**
 * A site's own climate as an offset from Germany's normal (K): a + b·cos + c·sin over the year
 * (phase 0 on 16 January, the coldest normal day), so that a mountain or an eastern site is
 * projected as cold as it is. Learnt from the site's measured daily means (its weather station);
 * the same basis the heating model learnt its use per degree day from.
 */
export interface SiteNormals {
  a: number;
  b: number;
  c: number;
}

export const SITE_NORMAL_RULES = {
  /** Fewer measured days: Germany's normals. */
  minDays: 60,
  /** The seasonal terms need measured days spread over most of a year. */
  minSpanDaysForSeason: 540,
  /**
   * Pulls towards Germany's normal, as this many days measured on it: a little for the offset (a
   * mountain site is colder, whatever the year), more for the season's shape, which a year or two
   * of weather in spells tells only roughly.
   */
  shrinkDays: 30,
  shrinkSeasonDays: 120,
  /** At most this far from Germany's normal (K): the range of German sites. */
  maxOffsetC: 8,
} as const;

const TAU = 2 * Math.PI;
const JANUARY_16 = 15;

const seasonAngle = (day: number) => (TAU * (day - JANUARY_16)) / 365.2425;

/**
 * A temperature map's measured days in order, with running sums of the normal equations' terms
 * (1, cos, sin against each other and against the offset): any "days before D" fit is then a
 * difference of two sums. Kept per map, because a backtest asks for the same map at fifty origins.
 */
interface MeasuredDays {
  days: Int32Array;
  /** sums[k * 9 + t]: term t summed over the first k days (t: xx 0..5, xy 6..8). */
  sums: Float64Array;
}

const measuredDaysOf = new WeakMap<ReadonlyMap<string, number>, MeasuredDays>();

function measuredDays(temperatures: ReadonlyMap<string, number>): MeasuredDays {
  let kept = measuredDaysOf.get(temperatures);
  if (kept) return kept;
  const entries: [number, number][] = [];
  for (const [key, measured] of temperatures)
    if (Number.isFinite(measured)) entries.push([dayFromKey(key), measured]);
  entries.sort((x, y) => x[0] - y[0]);
  const days = Int32Array.from(entries, ([day]) => day);
  const sums = new Float64Array((entries.length + 1) * 9);
  entries.forEach(([day, measured], k) => {
    const angle = seasonAngle(day);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const y = measured - normalTemperature(day);
    const terms = [1, cos, sin, cos * cos, cos * sin, sin * sin, y, cos * y, sin * y];
    for (let t = 0; t < 9; t++) sums[(k + 1) * 9 + t] = sums[k * 9 + t] + terms[t];
  });
  kept = { days, sums };
  measuredDaysOf.set(temperatures, kept);
  return kept;
}

/**
 * The site's offset from Germany's normals by least squares over its days measured before
 * `beforeDay` (shrunk towards no offset), or null with too few measured days.
 */
export function siteNormalsFrom(
  temperatures: ReadonlyMap<string, number>,
  beforeDay: number,
): SiteNormals | null {
  if (temperatures.size < SITE_NORMAL_RULES.minDays) return null;
  const { days, sums } = measuredDays(temperatures);
  let count = 0;
  for (let high = days.length; count < high;) {
    const middle = (count + high) >> 1;
    if (days[middle] < beforeDay) count = middle + 1;
    else high = middle;
  }
  if (count < SITE_NORMAL_RULES.minDays) return null;
  const sum = (t: number) => sums[count * 9 + t];
  const { shrinkDays: shrink, shrinkSeasonDays: shrinkSeason } = SITE_NORMAL_RULES;
  const seasonal = days[count - 1] - days[0] >= SITE_NORMAL_RULES.minSpanDaysForSeason;
  const [a, b, c] = seasonal
    ? solve3(
        [
          [sum(0) + shrink, sum(1), sum(2)],
          [sum(1), sum(3) + shrinkSeason / 2, sum(4)],
          [sum(2), sum(4), sum(5) + shrinkSeason / 2],
        ],
        [sum(6), sum(7), sum(8)],
      )
    : [sum(6) / (sum(0) + shrink), 0, 0];
  const clamp = (value: number) =>
    Math.max(-SITE_NORMAL_RULES.maxOffsetC, Math.min(SITE_NORMAL_RULES.maxOffsetC, value));
  return { a: clamp(a), b: clamp(b), c: clamp(c) };
}

/** Gaussian elimination of a 3 × 3 system (positive definite here: the shrinkage is on its diagonal). */
function solve3(matrix: number[][], vector: number[]): number[] {
  const m = matrix.map((row, i) => [...row, vector[i]]);
  for (let col = 0; col < 3; col++) {
    for (let row = col + 1; row < 3; row++) {
      const factor = m[row][col] / m[col][col];
      for (let k = col; k < 4; k++) m[row][k] -= factor * m[col][k];
    }
  }
  const x = [0, 0, 0];
  for (let row = 2; row >= 0; row--) {
    let sum = m[row][3];
    for (let k = row + 1; k < 3; k++) sum -= m[row][k] * x[k];
    x[row] = sum / m[row][row];
  }
  return x;
}

/** The site's normal mean temperature of a day (Germany's without site normals). */
export function siteNormalTemperature(day: number, site: SiteNormals | null): number {
  const normal = normalTemperature(day);
  if (!site) return normal;
  const angle = seasonAngle(day);
  return normal + site.a + site.b * Math.cos(angle) + site.c * Math.sin(angle);
}

/** Expected degree days of Germany's normals per heating shape (limit/base) and day, as worked out once. */
const nationalShapeCache = new Map<string, Float64Array>();

/**
 * A heating forecast's degree days: a site's normals (Germany's without) and a building's shape,
 * measured where a day's mean is known, expected from the normals otherwise. Keeps the expected
 * degree days it has computed: a forecast asks for the same days again and again.
 */
export class DegreeDayBasis {
  readonly site: SiteNormals | null;
  readonly shape: HeatingShape;
  private readonly expectedByDay = new Map<number, number>();
  private readonly national: boolean;

  constructor(site: SiteNormals | null, shape: HeatingShape = GTZ_20_15) {
    this.site = site;
    this.shape = shape;
    this.national = site === null && shape === GTZ_20_15;
  }

  /** Degree days to expect of a day when nothing is measured. */
  expected(day: number): number {
    if (this.national) return normalDegreeDays(day);
    if (this.site === null && Number.isInteger(day) && day >= 0 && day < CACHE_DAYS) {
      // Germany's normals with another heating limit: the same for every sensor and origin.
      const key = `${this.shape.limitC}/${this.shape.baseC}`;
      let days = nationalShapeCache.get(key);
      if (!days) nationalShapeCache.set(key, (days = new Float64Array(CACHE_DAYS).fill(Number.NaN)));
      let value = days[day];
      if (Number.isNaN(value)) {
        value = expectedDegreeDays(normalTemperature(day), this.shape);
        days[day] = value;
      }
      return value;
    }
    let value = this.expectedByDay.get(day);
    if (value === undefined) {
      value = expectedDegreeDays(siteNormalTemperature(day, this.site), this.shape);
      this.expectedByDay.set(day, value);
    }
    return value;
  }

  /** Degree days of a day: measured when its mean temperature is known, else expected. */
  ofDay(day: number, temperatures: ReadonlyMap<string, number>): number {
    if (temperatures.size > 0) {
      const measured = temperatures.get(dayKey(day));
      if (measured !== undefined && Number.isFinite(measured)) return heatingDegreeDays(measured, this.shape);
    }
    return this.expected(day);
  }
}

/** GTZ 20/15 of one day: measured when its mean temperature is known, otherwise the normal's. */
export function degreeDaysOfDay(day: number, temperatures: ReadonlyMap<string, number>): number {
  if (temperatures.size > 0) {
    const measured = temperatures.get(dayKey(day));
    if (measured !== undefined && Number.isFinite(measured)) return heatingDegreeDays(measured);
  }
  return normalDegreeDays(day);
}

/**
 * Sum of the degree days of the German days from `from` up to and excluding `to` ('YYYY-MM-DD'),
 * measured where known and from the normals otherwise.
 */
export function degreeDays(from: string, to: string, temperatures: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (let day = dayFromKey(from), end = dayFromKey(to); day < end; day++)
    sum += degreeDaysOfDay(day, temperatures);
  return sum;
}
