/**
 * Days-to-empty forecast of a tank level sensor, pure: readings in, dates out.
 *
 * The model in short (docs/forecast.md has the whole of it):
 * - refills split the history into segments; only the last segment says where the level is now,
 *   every segment says how fast it falls;
 * - the level in every segment follows its own starting level minus a cumulative consumption
 *   "clock": base per day + k per heating degree day for space heating, otherwise a rate per day
 *   (per weekday when the data shows a weekly rhythm, with public holidays and the weeks between
 *   the years learnt apart: calendar.ts). One weighted, robust least-squares fit over all segments
 *   (each with its own intercept) learns the rates; recent data and the same season of earlier
 *   years weigh most — for process contents, last year's shape where this year follows it, and
 *   only the weeks since a lasting change of use;
 * - the projection walks day by day from now with the normal degree days (the site's own normals
 *   where its measured days tell them, degree-days.ts `siteNormalsFrom`), until the level reaches
 *   the asked volume; the range scales the consumption by how much real stretches of this sensor's
 *   history used compared with what the model, fed with the normals, would have predicted.
 */
import {
  DegreeDayBasis,
  GTZ_20_15,
  HEATING_LIMITS_C,
  siteNormalsFrom,
  type HeatingShape,
} from './degree-days.ts';
import { fromLocalDays, germanDayNumber, localDays, weekdayOf } from '../time/day-numbers.ts';
import { dayKind, isPublicHoliday, type FederalState } from './calendar.ts';

export interface LevelPoint {
  at: Date;
  volume: number;
}

export interface ForecastInput {
  /** Ascending by time; irregular spacing, gaps, refills, sensor noise. */
  points: LevelPoint[];
  /** Same unit as volume. */
  capacity: number;
  /** The sensor's threshold in percent of capacity; null → reorderAt null. */
  reorderPct: number | null;
  /** Space heating (heating oil, LPG): consumption follows heating degree days. */
  heating: boolean;
  /** Daily mean °C at the device's location by German day 'YYYY-MM-DD'; may be empty → normals. */
  temperatures: Map<string, number>;
  now: Date;
  /**
   * The federal state whose public holidays the tank's business keeps (from the device's postal
   * code); null or absent: Germany's nationwide holidays. Process contents only.
   */
  holidayState?: FederalState | null;
}

export interface Forecast {
  /** ISO date-time: median forecast of reaching 0. */
  emptyAt: string;
  /** Reaching reorderPct; `now` when the level is already below it; null without reorderPct. */
  reorderAt: string | null;
  /** Early end of the range (about the 10th percentile: consumption high). */
  emptyAtLow: string;
  /** Late end of the range (about the 90th percentile), at most `FORECAST_RULES.horizonDays` ahead. */
  emptyAtHigh: string;
  /** Expected consumption per day over the next 30 days (volume units). */
  perDay: number;
  basis: { since: string; days: number; points: number; model: ModelKind };
}

export type ModelKind = 'degree_days' | 'daily_rate';

/**
 * The rules, in one place. No forecast is better than a wrong one: `learnConsumption` answers null
 * rather than guess.
 */
export const FORECAST_RULES = {
  /** Learn from at most this much history before now (days). */
  historyDays: 1_096,
  /** No forecast when the last reading is older than this (days): a refill may have happened since. */
  staleDays: 21,
  /** No forecast when the median reaches empty later than this (days); the late end is capped here. */
  horizonDays: 1_096,
  /** Since the last refill at least this many days and readings … */
  minSegmentDays: 7,
  minSegmentPoints: 4,
  /** … or earlier segments (between refills) covering at least this many days in all. */
  minEarlierDays: 30,
  /** A refill: a rise of at least this share of the capacity and of `refillNoiseFactor` × the noise. */
  refillMinShare: 0.03,
  refillNoiseFactor: 8,
  /** Measurable consumption: what the model says was used within the segments ≥ this × the noise. */
  measurableNoiseFactor: 5,
} as const;

const DAY_MS = 86_400_000;
const YEAR_DAYS = 365.2425;
/** Below this many readings in triples a noise estimate means nothing; then this share of capacity. */
const DEFAULT_NOISE_SHARE = 0.003;
const MIN_NOISE_SHARE = 0.0005;
/**
 * Hot water runs all year: about 15 % of a German household's heating oil, which is the base use
 * of about 1.7 degree days' worth per day. Only a faint pull (1 % of the data's weight) towards this
 * split, for histories that cannot tell base and heating apart (a single winter, a single summer).
 */
const PRIOR_BASE_IN_DEGREE_DAYS = 1.7;
const PRIOR_STRENGTH = 0.01;
/** Huber's robust regression: residuals beyond this many robust standard deviations weigh less. */
const HUBER_K = 2;
const ROBUST_ROUNDS = 3;
/** A weekday profile is kept only when it explains this much more than a flat rate (F statistic). */
const WEEKDAY_MIN_F = 10;
const WEEKDAY_MIN_DAYS = 28;
/** Holidays and days between the years within the history's segments needed to learn their use. */
const CALENDAR_MIN_DAYS = { holiday: 3, christmas: 4 } as const;
/**
 * A holiday's use is learnt from at least this many holidays seen, pulled towards Sunday's (most
 * businesses close on both) by its uncertainty against this spread; the days between the years'
 * towards an ordinary day's.
 */
const CALENDAR_RULES = { minHolidays: 2, holidayPriorSd: 0.25, christmasPriorSd: 0.5 } as const;
/** Range fallback (consumption multipliers) while the history has too few windows to tell. */
const DEFAULT_SPREAD = { low: 0.75, high: 1.35 };
const MIN_INDEPENDENT_WINDOWS = 8;

/** How fast a sensor uses its content. */
export interface ConsumptionRates {
  model: ModelKind;
  /** Consumption per day without heating (degree_days) or the mean per day (daily_rate). */
  basePerDay: number;
  /** Additional consumption per heating degree day (0 for daily_rate). */
  perDegreeDay: number;
  /** Relative use per weekday, Sunday first, mean 1; null when the data shows no weekly rhythm. */
  weekdayFactors: readonly number[] | null;
  /**
   * daily_rate with a weekly rhythm: the relative use on public holidays and between the years
   * (24 December – 1 January), on the scale of `weekdayFactors`, and whose holidays; null otherwise.
   */
  calendar: CalendarFactors | null;
  /**
   * daily_rate of a seasonal business: from `from` (today's day number) on, the use of each day
   * relative to the recent weeks, as last year's same weeks were (repeating every 364 days); null
   * when the history shows no season that repeats.
   */
  season: { from: number; factors: Float64Array } | null;
  /** Measured daily means by German day (degree_days); the normals fill what is missing. */
  temperatures: ReadonlyMap<string, number>;
  /**
   * degree_days: the site's own normals (learnt from the same measured days; Germany's without) and
   * the building's heating shape; null for daily_rate.
   */
  degreeDays: DegreeDayBasis | null;
}

export interface CalendarFactors {
  state: FederalState | null;
  holiday: number;
  /** Null when the history held no weeks between the years: then they are ordinary days and holidays. */
  christmas: number | null;
}

/** What `learnConsumption` learnt: the rates, and the level now. */
export interface ConsumptionModel extends ConsumptionRates {
  /** The level at `at` (the forecast's now), learnt from the readings since the last refill. */
  level: number;
  at: Date;
  /** Standard deviation of the sensor's noise (volume units). */
  noise: number;
  basis: Forecast['basis'];
  /**
   * Consumption multipliers for the early (high) and late (low) end of an about 80 % range over a
   * horizon of this many days.
   */
  spread(horizonDays: number): { low: number; high: number };
}

// --- The forecast -----------------------------------------------------------------------------

/** `model`: what `learnConsumption(input)` answers, when the caller has learnt it already. */
export function forecastLevel(
  input: ForecastInput,
  model: ConsumptionModel | null = learnConsumption(input),
): Forecast | null {
  const point = model && forecastWithoutRange(input, model);
  return point && withModelRange(input, model!, point);
}

/** A forecast before its range: what a forecast whose range comes from elsewhere takes of the model. */
export type ForecastPoint = Omit<Forecast, 'emptyAtLow' | 'emptyAtHigh'>;

/** `forecastLevel` but the range, which walks the whole history (`ConsumptionModel.spread`). */
export function forecastWithoutRange(input: ForecastInput, model: ConsumptionModel): ForecastPoint | null {
  const emptyAt = timeToReach(model, 0);
  if (!emptyAt) return null;
  const reorderAt =
    input.reorderPct === null || !Number.isFinite(input.reorderPct)
      ? null
      : timeToReach(model, (input.capacity * input.reorderPct) / 100);
  return {
    emptyAt: emptyAt.toISOString(),
    reorderAt: reorderAt?.toISOString() ?? null,
    perDay: consumptionBetween(model, input.now, new Date(input.now.getTime() + 30 * DAY_MS)) / 30,
    basis: model.basis,
  };
}

/** The model's own range around a forecast of `forecastWithoutRange`. */
export function withModelRange(
  input: ForecastInput,
  model: ConsumptionModel,
  point: ForecastPoint,
): Forecast {
  const emptyAt = new Date(point.emptyAt);
  const { low, high } = model.spread((emptyAt.getTime() - input.now.getTime()) / DAY_MS);
  const latest = new Date(input.now.getTime() + FORECAST_RULES.horizonDays * DAY_MS);
  return {
    ...point,
    emptyAtLow: (timeToReach(model, 0, high) ?? emptyAt).toISOString(),
    emptyAtHigh: (timeToReach(model, 0, low) ?? latest).toISOString(),
  };
}

/**
 * When the level will reach `volume`, with the consumption scaled by `factor` (the range's ends):
 * `model.at` when it is already there, null when that is more than `FORECAST_RULES.horizonDays`
 * ahead. Walks German day by day; within a day the use is even, so the hit is exact.
 */
export function timeToReach(model: ConsumptionModel, volume: number, factor = 1): Date | null {
  let remaining = model.level - volume;
  if (remaining <= 0) return model.at;
  let u = localDays(model.at);
  const end = u + FORECAST_RULES.horizonDays;
  const today = Math.floor(u);
  while (u < end) {
    const day = Math.floor(u);
    const rate = factor * consumptionOnDay(model, day, today);
    const piece = rate * (day + 1 - u);
    if (piece >= remaining) return fromLocalDays(u + remaining / rate);
    remaining -= piece;
    u = day + 1;
  }
  return null;
}

/** Expected consumption between two instants (measured temperatures before today, normals after). */
export function consumptionBetween(model: ConsumptionModel, from: Date, to: Date): number {
  return useBetween(model, localDays(from), localDays(to), germanDayNumber(model.at));
}

function useBetween(rates: ConsumptionRates, from: number, to: number, today: number): number {
  let used = 0;
  for (let u = from; u < to;) {
    const day = Math.floor(u);
    const next = Math.min(day + 1, to);
    used += consumptionOnDay(rates, day, today) * (next - u);
    u = next;
  }
  return used;
}

/** Expected use on a German day; the temperature measured that day counts only before `today`. */
function consumptionOnDay(rates: ConsumptionRates, day: number, today: number): number {
  if (rates.model === 'degree_days') {
    const basis = rates.degreeDays!;
    const degreeDays = day < today ? basis.ofDay(day, rates.temperatures) : basis.expected(day);
    return rates.basePerDay + rates.perDegreeDay * degreeDays;
  }
  const { season } = rates;
  const seasonal = season && day >= season.from ? season.factors[(day - season.from) % SEASON_DAYS] : 1;
  return rates.basePerDay * paceOfDay(rates, day) * seasonal;
}

/** A daily_rate's relative use on a day: its weekday's, a holiday's or the weeks between the years'. */
function paceOfDay(rates: Pick<ConsumptionRates, 'weekdayFactors' | 'calendar'>, day: number): number {
  if (!rates.weekdayFactors) return 1;
  const { calendar } = rates;
  if (calendar) {
    const kind = dayKind(day, calendar.state);
    if (kind === 'christmas' && calendar.christmas !== null) return calendar.christmas;
    if (kind === 'holiday' || (kind === 'christmas' && isPublicHoliday(day, calendar.state)))
      return calendar.holiday;
  }
  return rates.weekdayFactors[weekdayOf(day)];
}

// --- Learning ---------------------------------------------------------------------------------

/** Readings as columns: local days (see degree-days.ts) and volumes, split at refills. */
interface Series {
  u: Float64Array;
  v: Float64Array;
  /** Index of the first reading of every segment; the first is 0. */
  starts: number[];
  noise: number;
}

/**
 * Learns the consumption and the current level from the history, or null by the rules of
 * `FORECAST_RULES` (too little data, stale, no measurable consumption, no capacity).
 */
export function learnConsumption(input: ForecastInput): ConsumptionModel | null {
  const { capacity, now, heating, temperatures } = input;
  if (!(capacity > 0) || !Number.isFinite(capacity)) return null;
  const uNow = localDays(now);
  const series = prepareSeries(input.points, capacity, uNow);
  if (!series) return null;
  const { u, starts, noise } = series;
  const n = u.length;
  if (uNow - u[n - 1] > FORECAST_RULES.staleDays) return null;
  if (!enoughData(u, starts)) return null;

  const weights = pointWeights(u, starts, uNow, heating);
  const firstDay = Math.floor(u[0]);
  const today = Math.floor(uNow);
  const learnt = heating
    ? learnHeating(series, weights, firstDay, today, temperatures)
    : learnDailyRate(series, weights, firstDay, today, input.holidayState ?? null);
  if (!learnt) return null;
  const { scale } = learnt;
  const rates = followRecentPace(series, learnt.rates, today);
  // What the model says was used within the segments, against the noise: a flat tank's fit always
  // finds some slope, but over the whole history it stays within the noise.
  let explained = 0;
  forEachSegment(starts, n, (from, to) => (explained += useBetween(rates, u[from], u[to - 1], today)));
  if (explained < FORECAST_RULES.measurableNoiseFactor * Math.max(noise, scale)) return null;

  const sinceLast = useBetween(rates, u[n - 1], uNow, today);
  const lastLevel = Math.min(capacity, levelAtLastReading(series, rates, today));
  const level = Math.max(0, lastLevel - sinceLast);
  const model: ConsumptionModel = {
    ...rates,
    level,
    at: now,
    noise,
    basis: {
      since: fromLocalDays(u[0]).toISOString(),
      days: Math.round(u[n - 1] - u[0]),
      points: n,
      model: rates.model,
    },
    spread: (horizonDays) => rangeOfUse(model, series, weights, horizonDays, firstDay),
  };
  return model;
}

/**
 * Space heating: level = segment's level − base · days − k · degree days (measured where known),
 * fitted over all segments at once.
 */
function learnHeating(
  series: Series,
  weights: Float64Array,
  firstDay: number,
  today: number,
  temperatures: ReadonlyMap<string, number>,
): { rates: ConsumptionRates; scale: number } | null {
  const days = today - firstDay + 1;
  // The site's climate from its measured days: days without a measurement and the projection use it.
  const site = siteNormalsFrom(temperatures, today);
  // The building's heating shape: GTZ 20/15, or linear below its own heating limit, whichever the
  // readings follow best (the spread of the residuals of a plain fit, without the robust rounds,
  // which only the chosen shape gets).
  // The base's clock is the same for every shape: read at the readings once.
  const [baseColumn] = clockColumns(series.u, firstDay, [constantDays(days)]);
  const clocksFor = (basis: DegreeDayBasis) => [
    baseColumn,
    ...clockColumns(series.u, firstDay, [fillDays(firstDay, days, (day) => basis.ofDay(day, temperatures))]),
  ];
  let best: { scale: number; basis: DegreeDayBasis; columns: Float64Array[]; plain: LevelFit } | null = null;
  for (const shape of HEATING_SHAPES) {
    const basis = new DegreeDayBasis(site, shape);
    const columns = clocksFor(basis);
    const plain = fitLevels(series.v, columns, series.starts, weights, HEATING_PRIOR, 0);
    if (!best || plain.scale < best.scale * SHAPE_MIN_GAIN)
      best = { scale: plain.scale, basis, columns, plain };
  }
  const { basis, columns, plain } = best!;
  // The chosen shape's plain fit is the robust fit's first round.
  const fit = fitLevels(series.v, columns, series.starts, weights, HEATING_PRIOR, ROBUST_ROUNDS, plain);
  const [basePerDay, perDegreeDay] = fit.beta;
  if (!(basePerDay > 0 || perDegreeDay > 0)) return null;
  return {
    rates: {
      model: 'degree_days',
      basePerDay,
      perDegreeDay,
      weekdayFactors: null,
      calendar: null,
      season: null,
      temperatures,
      degreeDays: basis,
    },
    scale: fit.scale,
  };
}

/**
 * Everything else: a pace per day, per weekday when the data shows a weekly rhythm. The rhythm
 * comes from a fit with one rate per weekday; the pace from the weighted median of what week-long
 * stretches used, so that a shutdown week or a stray reading is one stretch among many rather than
 * a pull on a least-squares line (the median stretch is also what the coming weeks most likely
 * look like).
 */
function learnDailyRate(
  series: Series,
  weights: Float64Array,
  firstDay: number,
  today: number,
  state: FederalState | null,
): { rates: ConsumptionRates; scale: number } | null {
  const { u, v, starts } = series;
  const n = u.length;
  const days = today - firstDay + 1;
  const flat = fitLevels(v, clockColumns(u, firstDay, [constantDays(days)]), starts, weights, null);
  const daily = dailyUse(series, firstDay, days);
  let weekdayFactors: number[] | null = null;
  let calendar: CalendarFactors | null = null;
  if (u[n - 1] - u[0] >= WEEKDAY_MIN_DAYS) {
    // Public holidays and the weeks between the years get clocks of their own where the history
    // holds enough of them within its segments; elsewhere they count as their weekday.
    const kinds = Array.from({ length: days }, (_, i) => dayKind(firstDay + i, state));
    const seen = { weekday: 0, holiday: 0, christmas: 0 };
    forEachSegment(starts, n, (from, to) => {
      for (let day = Math.ceil(u[from]); day + 1 <= u[to - 1]; day++) seen[kinds[day - firstDay]]++;
    });
    const own = {
      holiday: seen.holiday >= CALENDAR_MIN_DAYS.holiday,
      christmas: seen.christmas >= CALENDAR_MIN_DAYS.christmas,
    };
    const clockOf = (i: number) => {
      const kind = kinds[i];
      if (kind === 'christmas' && own.christmas) return 8;
      if (
        own.holiday &&
        (kind === 'holiday' || (kind === 'christmas' && isPublicHoliday(firstDay + i, state)))
      )
        return 7;
      return weekdayOf(firstDay + i);
    };
    const kept = [0, 1, 2, 3, 4, 5, 6, ...(own.holiday ? [7] : []), ...(own.christmas ? [8] : [])];
    const clocks = kept.map(() => new Float64Array(days));
    const column = new Int8Array(9);
    kept.forEach((clock, k) => (column[clock] = k));
    for (let i = 0; i < days; i++) clocks[column[clockOf(i)]][i] = 1;
    const weekly = fitLevels(v, clockColumns(u, firstDay, clocks), starts, flat.weights, null, 0);
    const mean = weekly.beta.subarray(0, 7).reduce((sum, rate) => sum + rate, 0) / 7;
    if (mean > 0 && weeklyRhythmIsReal(flat, weekly, starts, n, clocks.length)) {
      weekdayFactors = Array.from(weekly.beta.subarray(0, 7), (rate) => rate / mean);
      // The fit's own holiday and Christmas rates rest on a few days each and take up whatever
      // else differs then (a season rising through Easter and Whitsun); each such day is judged
      // against the weeks around it instead. Without enough of them seen: holidays as Sundays
      // (most businesses close on both), the days between the years as their weekdays.
      const factors = weekdayFactors;
      const around = (day: number) => (kinds[day - firstDay] === 'weekday' ? factors[weekdayOf(day)] : null);
      const holidays: number[][] = [];
      const christmases: number[][] = [];
      for (let i = 0; i < days; i++) {
        const kind = kinds[i];
        if (kind === 'holiday') holidays.push([firstDay + i]);
        else if (kind === 'christmas') {
          const last = christmases.at(-1);
          if (last && last.at(-1) === firstDay + i - 1) last.push(firstDay + i);
          else christmases.push([firstDay + i]);
        }
      }
      const holiday = calendarEffect(daily, holidays, around, firstDay, series.noise, {
        minimum: CALENDAR_RULES.minHolidays,
        summary: 'median',
        prior: weekdayFactors[0],
        priorSd: CALENDAR_RULES.holidayPriorSd,
      });
      const christmas = calendarEffect(daily, christmases, around, firstDay, series.noise, {
        minimum: 1,
        summary: 'mean',
        prior: 1,
        priorSd: CALENDAR_RULES.christmasPriorSd,
      });
      calendar = { state, holiday: holiday ?? weekdayFactors[0], christmas };
    }
  }
  const rates = { weekdayFactors, calendar };
  const paceDays = fillDays(firstDay, days, (day) => paceOfDay(rates, day));
  const season = seasonOf(daily, paceDays, firstDay, today);
  const change = lastingChange(daily, paceDays, firstDay, Math.floor(u[n - 1]));
  // A season of its own replaces last year's weeks in the weights: the pace is the recent weeks'.
  // After a lasting change only the weeks since count.
  let paceWeights = weights;
  if (season || change !== null) {
    paceWeights = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const at = u[i];
      paceWeights[i] =
        change !== null && at < change ? 0 : season ? Math.exp(-(today + 1 - at) / 45) : weights[i];
    }
  }
  const basePerDay = medianWeeklyRate(series, paceWeights, paceDays, firstDay) ?? flat.beta[0];
  if (!(basePerDay > 0)) return null;
  return {
    rates: {
      model: 'daily_rate',
      basePerDay,
      perDegreeDay: 0,
      weekdayFactors,
      calendar,
      season,
      temperatures: new Map(),
      degreeDays: null,
    },
    scale: flat.scale,
  };
}

/** Use per German day from the falls between consecutive readings, and the share of each day they cover. */
interface DailyUse {
  use: Float64Array;
  covered: Float64Array;
}

/**
 * The falls between consecutive readings of a segment, spread evenly over the time between them,
 * as use per day from `firstDay` on. A reading far off the line through its neighbours (ten times
 * the noise) is a stray: the falls pass over it.
 */
function dailyUse(series: Series, firstDay: number, days: number): DailyUse {
  const { u, v, starts, noise } = series;
  const n = u.length;
  const use = new Float64Array(days);
  const covered = new Float64Array(days);
  const segment = new Int32Array(n);
  for (let s = 1, i = 0; i < n; i++) {
    while (s < starts.length && starts[s] <= i) s++;
    segment[i] = s - 1;
  }
  const stray = (i: number) =>
    i > 0 &&
    i + 1 < n &&
    segment[i - 1] === segment[i + 1] &&
    u[i + 1] > u[i - 1] &&
    Math.abs(v[i] - v[i - 1] - ((u[i] - u[i - 1]) / (u[i + 1] - u[i - 1])) * (v[i + 1] - v[i - 1])) >
      10 * noise;
  let previous = -1;
  for (let i = 0; i < n; i++) {
    if (stray(i)) continue;
    if (previous >= 0 && segment[previous] === segment[i] && u[i] > u[previous]) {
      const perDay = (v[previous] - v[i]) / (u[i] - u[previous]);
      for (let t = u[previous]; t < u[i];) {
        const day = Math.floor(t);
        const next = Math.min(day + 1, u[i]);
        if (day - firstDay < days) {
          use[day - firstDay] += perDay * (next - t);
          covered[day - firstDay] += next - t;
        }
        t = next;
      }
    }
    previous = i;
  }
  return { use, covered };
}

/**
 * The relative use on special days (each group: a holiday, or one Christmas's days between the
 * years), each group judged against the two weeks either side: the pace there per weekday factor,
 * and what the group's days and the day either side used beyond what their ordinary neighbours
 * would have at that pace (readings a day apart smear a day's use into its neighbours). The median
 * (holidays) or mean (Christmases) of the groups seen well enough, pulled towards `prior` by how
 * uncertain it is (a day's use against the sensor's noise: one holiday of a slow tank says little);
 * null with fewer than `minimum`.
 */
function calendarEffect(
  daily: DailyUse,
  groups: number[][],
  factorOf: (day: number) => number | null,
  firstDay: number,
  noise: number,
  {
    minimum,
    summary,
    prior,
    priorSd,
  }: { minimum: number; summary: 'median' | 'mean'; prior: number; priorSd: number },
): number | null {
  const { use, covered } = daily;
  const days = use.length;
  const effects: number[] = [];
  const errors: number[] = [];
  for (const group of groups) {
    const first = group[0];
    const last = group.at(-1)!;
    let used = 0;
    let paced = 0;
    let full = 0;
    for (let day = first - 14; day <= last + 14; day++) {
      const i = day - firstDay;
      const factor = factorOf(day);
      if (i < 0 || i >= days || factor === null || (day >= first - 1 && day <= last + 1)) continue;
      used += use[i];
      paced += covered[i] * factor;
      full += factor;
    }
    if (!(paced > 0.7 * full && paced > 0)) continue;
    const rate = used / paced;
    let inside = 0;
    let ordinary = 0;
    let special = 0;
    let complete = true;
    for (let day = first - 1; day <= last + 1; day++) {
      const i = day - firstDay;
      if (i < 0 || i >= days || covered[i] < 0.9) complete = false;
      if (!complete) break;
      inside += use[i];
      const factor = day < first || day > last ? factorOf(day) : null;
      if (factor !== null) ordinary += covered[i] * factor;
      else special += covered[i];
    }
    if (!complete || !(rate > 0) || special <= 0) continue;
    effects.push(Math.max(0, (inside / rate - ordinary) / special));
    // The window's use rests on two readings' noise, its pace on the weeks around.
    errors.push((Math.SQRT2 * noise) / (rate * special));
  }
  const count = effects.length;
  if (count < minimum) return null;
  let estimate: number;
  let variance: number;
  if (summary === 'mean') {
    estimate = effects.reduce((sum, effect) => sum + effect, 0) / count;
    variance = errors.reduce((sum, error) => sum + error * error, 0) / count ** 2;
  } else {
    const spread = effects.map((effect) => Math.abs(effect - medianOf(effects)));
    estimate = medianOf(effects);
    // The median's standard error: from the spread of the effects, or from the noise, the larger.
    variance = Math.max((1.4826 * medianOf(spread)) ** 2, medianOf(errors) ** 2) * (1.57 / count);
  }
  return prior + (estimate - prior) * (priorSd ** 2 / (priorSd ** 2 + variance));
}

function medianOf(values: readonly number[]): number {
  return medianInPlace(Float64Array.from(values));
}

export const CHANGE_RULES = {
  /** Weeks looked back for a change, and the fewest weeks either side of it. */
  weeks: 26,
  minAfter: 2,
  minBefore: 3,
  /** The pace after must differ from the pace before by this share … */
  minShare: 0.15,
  /** … and by this many standard errors of the difference of the two means. */
  minT: 4,
};

/**
 * A lasting change of use (a second truck, a lost customer): the weekly paces of the last half
 * year (in units of the weekday and holiday pace) split into two steady stretches, before and
 * after, that differ clearly — then the local day number where the recent stretch starts, else null.
 */
function lastingChange(
  daily: DailyUse,
  paceDays: Float64Array,
  firstDay: number,
  end: number,
): number | null {
  const { use, covered } = daily;
  const rateOver = (from: number, to: number) => {
    let used = 0;
    let paced = 0;
    let full = 0;
    for (let day = from; day < to; day++) {
      const i = day - firstDay;
      if (i < 0 || i >= use.length) continue;
      used += use[i];
      paced += covered[i] * paceDays[i];
      full += paceDays[i];
    }
    return paced > 0 && paced >= 0.6 * full ? used / paced : null;
  };
  const rates: number[] = [];
  for (let week = 0; week < CHANGE_RULES.weeks; week++) {
    const rate = rateOver(end - 7 * (week + 1), end - 7 * week);
    if (rate === null) break;
    rates.push(rate);
  }
  const count = rates.length;
  if (count < CHANGE_RULES.minAfter + CHANGE_RULES.minBefore) return null;
  let best: { split: number; sse: number; after: number; before: number } | null = null;
  for (let split = CHANGE_RULES.minAfter; split <= count - CHANGE_RULES.minBefore; split++) {
    const after = rates.slice(0, split).reduce((sum, rate) => sum + rate, 0) / split;
    const before = rates.slice(split).reduce((sum, rate) => sum + rate, 0) / (count - split);
    let sse = 0;
    rates.forEach((rate, k) => (sse += (rate - (k < split ? after : before)) ** 2));
    if (!best || sse < best.sse) best = { split, sse, after, before };
  }
  const { split, sse, after, before } = best!;
  const sd = Math.sqrt(sse / Math.max(1, count - 2));
  const standardError = sd * Math.sqrt(1 / split + 1 / (count - split));
  const differs =
    before > 0 &&
    Math.abs(after - before) >= CHANGE_RULES.minShare * before &&
    Math.abs(after - before) >= CHANGE_RULES.minT * standardError;
  if (!differs) return null;
  // A season's turn is no change: where last year's same weeks changed alike, the pace follows
  // the season instead (`seasonOf`).
  const at = end - 7 * split;
  const lastBefore = rateOver(end - 7 * count - SEASON_DAYS, at - SEASON_DAYS);
  const lastAfter = rateOver(at - SEASON_DAYS, end - SEASON_DAYS);
  if (lastBefore !== null && lastAfter !== null && lastBefore > 0 && lastAfter > 0) {
    const unexplained = after / before / (lastAfter / lastBefore);
    if (Math.abs(Math.log(unexplained)) < CHANGE_RULES.minShare * 0.75) return null;
  }
  return at;
}

const SEASON_DAYS = 364;
export const SEASON_RULES = {
  /**
   * This year's last four-week blocks against last year's same blocks (52 weeks before): at least
   * this many with both covered (four weeks: a week's use of a slow tank is mostly sensor noise) …
   */
  minPairs: 3,
  blockDays: 28,
  /** … and last year's blocks, scaled, must leave at most this share of the squared error of one steady pace. */
  maxErrorShare: 0.6,
  /** Last year's use around a day: this many days either side. */
  halfWindowDays: 10,
};

/**
 * A seasonal business (a car wash's summer, a bakery's December): when this year's weeks follow
 * last year's same weeks clearly better than one steady pace, the coming days' use is scaled as
 * last year's same days were against last year's recent weeks — last year's shape, this year's
 * level (a change of use since carries over; last year's amounts do not). Use per day is taken
 * from the falls between consecutive readings within segments, in units of the weekday and holiday
 * pace, so the calendar is not counted twice.
 */
function seasonOf(
  daily: DailyUse,
  paceDays: Float64Array,
  firstDay: number,
  today: number,
): ConsumptionRates['season'] {
  if (today - firstDay < SEASON_DAYS + SEASON_RULES.blockDays * SEASON_RULES.minPairs) return null;
  const days = today - firstDay;
  const { use } = daily;
  const paced = new Float64Array(days);
  for (let i = 0; i < days; i++) paced[i] = daily.covered[i] * paceDays[i];
  const rateOver = (from: number, to: number) => {
    let used = 0;
    let pace = 0;
    let full = 0;
    for (let day = Math.max(from, firstDay); day < Math.min(to, today); day++) {
      used += use[day - firstDay];
      pace += paced[day - firstDay];
      full += paceDays[day - firstDay];
    }
    return pace > 0 && pace >= 0.6 * full ? used / pace : null;
  };
  // This year's blocks against last year's.
  const pairs: { x: number; y: number }[] = [];
  const block = SEASON_RULES.blockDays;
  for (let k = 0; today - block * (k + 1) - SEASON_DAYS >= firstDay; k++) {
    const end = today - block * k;
    const y = rateOver(end - block, end);
    const x = rateOver(end - block - SEASON_DAYS, end - SEASON_DAYS);
    if (y !== null && x !== null) pairs.push({ x, y });
  }
  if (pairs.length < SEASON_RULES.minPairs) return null;
  const meanY = pairs.reduce((sum, pair) => sum + pair.y, 0) / pairs.length;
  const b =
    pairs.reduce((sum, pair) => sum + pair.x * pair.y, 0) /
    pairs.reduce((sum, pair) => sum + pair.x * pair.x, 0);
  let steady = 0;
  let seasonal = 0;
  for (const { x, y } of pairs) {
    steady += (y - meanY) ** 2;
    seasonal += (y - b * x) ** 2;
  }
  if (!(b > 0) || !(seasonal < SEASON_RULES.maxErrorShare * steady)) return null;
  // Last year's recent weeks, weighted as the pace weighs this year's.
  let used = 0;
  let pace = 0;
  for (let day = today - 120; day < today; day++) {
    const index = day - SEASON_DAYS - firstDay;
    if (index < 0) continue;
    const weight = Math.exp(-(today - day) / 45);
    used += weight * use[index];
    pace += weight * paced[index];
  }
  if (!(pace > 0 && used > 0)) return null;
  const recent = used / pace;
  const half = SEASON_RULES.halfWindowDays;
  const factors = new Float64Array(SEASON_DAYS);
  for (let k = 0; k < SEASON_DAYS; k++) {
    const centre = today - SEASON_DAYS + k;
    const rate = rateOver(centre - half, centre + half + 1);
    factors[k] = rate === null ? 1 : Math.max(0, rate / recent);
  }
  return { from: today, factors };
}

export const RECENT_PACE_RULES = {
  /** The last weeks compared with what the learnt rates say they should have used. */
  days: 28,
  /** Both halves must be off in the same direction by at least this share … */
  minShare: 0.1,
  /** … and the whole window must have used at least this many times the sensor's noise. */
  minUseInNoise: 20,
  /** How much of the difference is taken, and within which bounds. */
  weight: 1,
  min: 0.6,
  max: 1.6,
} as const;

/**
 * A lasting change in use (a thermostat raised, a second truck, a lost customer): when both halves
 * of the last four weeks used clearly more (or less) than the learnt rates say — with the weather
 * those weeks had — the rates follow that pace at once instead of over months of weighted history.
 */
function followRecentPace(series: Series, rates: ConsumptionRates, today: number): ConsumptionRates {
  const { u, v, starts, noise } = series;
  const n = u.length;
  const end = u[n - 1];
  const middle = end - RECENT_PACE_RULES.days / 2;
  const segmentStart = new Uint8Array(n);
  for (const start of starts) segmentStart[start] = 1;
  const used = [0, 0];
  const expected = [0, 0];
  for (let i = n - 1; i > 0 && u[i - 1] >= end - RECENT_PACE_RULES.days; i--) {
    if (segmentStart[i]) continue;
    const half = u[i - 1] >= middle ? 1 : 0;
    used[half] += v[i - 1] - v[i];
    expected[half] += useBetween(rates, u[i - 1], u[i], today);
  }
  const total = expected[0] + expected[1];
  if (!(total >= RECENT_PACE_RULES.minUseInNoise * noise) || !(expected[0] > 0 && expected[1] > 0))
    return rates;
  const shares = [used[0] / expected[0] - 1, used[1] / expected[1] - 1];
  const agree =
    Math.sign(shares[0]) === Math.sign(shares[1]) &&
    shares.every((share) => Math.abs(share) >= RECENT_PACE_RULES.minShare);
  if (!agree) return rates;
  const factor = Math.min(
    RECENT_PACE_RULES.max,
    Math.max(RECENT_PACE_RULES.min, 1 + RECENT_PACE_RULES.weight * ((used[0] + used[1]) / total - 1)),
  );
  return { ...rates, basePerDay: rates.basePerDay * factor, perDegreeDay: rates.perDegreeDay * factor };
}

/** Weighted median of the use per (weekday-weighted) day over stretches of at least a week. */
function medianWeeklyRate(
  series: Series,
  weights: Float64Array,
  paceDays: Float64Array,
  firstDay: number,
): number | null {
  const { u, v, starts } = series;
  const n = u.length;
  const totals = runningTotals(paceDays);
  // The pace clock at each reading once (a stretch reads it at both ends), and the stretches as
  // numbers: a backtest asks this at every origin of thousands of readings.
  const clock = new Float64Array(n);
  for (let i = 0; i < n; i++) clock[i] = readClock(totals, paceDays, firstDay, u[i]);
  const ratios = new Float64Array(n);
  const stretchWeights = new Float64Array(n);
  let count = 0;
  forEachSegment(starts, n, (from, to) => {
    for (let i = from, j = from; i < to; i++) {
      while (j < to && u[j] - u[i] < 7) j++;
      if (j >= to) break;
      const paced = clock[j] - clock[i];
      if (paced > 0) {
        ratios[count] = (v[i] - v[j]) / paced;
        stretchWeights[count++] = weights[i];
      }
    }
  });
  if (count < 3) return null;
  // Ascending ratios, equal ones in the order found (as a stable sort of the stretches): each
  // stretch's place is the first place of its ratio among the ratios sorted as numbers, after the
  // equal ones found before it. No comparison function: a backtest asks this at every origin.
  const sorted = ratios.slice(0, count).sort();
  const placedRatios = new Float64Array(count);
  const placedWeights = new Float64Array(count);
  const taken = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    const ratio = ratios[k];
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle] < ratio) low = middle + 1;
      else high = middle;
    }
    const place = low + taken[low]++;
    placedRatios[place] = ratio;
    placedWeights[place] = stretchWeights[k];
  }
  let total = 0;
  for (let k = 0; k < count; k++) total += placedWeights[k];
  let running = 0;
  for (let k = 0; k < count; k++) {
    running += placedWeights[k];
    if (running >= 0.5 * total) return placedRatios[k];
  }
  return placedRatios[count - 1];
}

/**
 * The level at the last reading: each of the latest readings of the current segment (the last three
 * days, at most five: three even for a sensor reporting once a day) carried forward to it at the
 * learnt pace, and the median of those. Only the data since the refill decides where the level is;
 * the median keeps a stray reading out.
 */
function levelAtLastReading(series: Series, rates: ConsumptionRates, today: number): number {
  const { u, v, starts } = series;
  const n = u.length;
  const carried: number[] = [];
  for (let i = n - 1; i >= starts.at(-1)! && carried.length < 5 && u[n - 1] - u[i] <= 3; i--)
    carried.push(v[i] - useBetween(rates, u[i], u[n - 1], today));
  return medianInPlace(Float64Array.from(carried));
}

/**
 * Local days already worked out for a list of readings (`withLocalDays`): a backtest learns at
 * about fifty origins from the first readings of one series, and each of its candidates would
 * otherwise turn every reading's time into local days again.
 */
const knownLocalDays = new WeakMap<readonly LevelPoint[], Float64Array>();

/** `points` with `localDays` of each reading's time given (the same values `localDays` gives). */
export function withLocalDays<T extends readonly LevelPoint[]>(points: T, days: Float64Array): T {
  knownLocalDays.set(points, days);
  return points;
}

/** The local days given with `points` (`withLocalDays`), if any. */
export const givenLocalDays = (points: readonly LevelPoint[]): Float64Array | undefined =>
  knownLocalDays.get(points);

const HOUR_MS = 3_600_000;

/**
 * The readings a forecast and its backtest learn from: at most one per clock hour, the hour's
 * median by volume (one of its readings, as it came). A sensor that reports every few minutes tells
 * no more about days of use than one reading an hour, and the model and its backtest cost processor
 * time per reading: a radar sensor reporting every ten minutes cost six times an hourly one, and its
 * backtest held the process for seconds. Readings an hour or more apart are left as they are (the
 * checks for deliveries and leaks keep every reading). Expects readings in time order.
 */
export function hourlyReadings<T extends LevelPoint>(points: readonly T[]): T[] {
  const thinned: T[] = [];
  for (let from = 0; from < points.length;) {
    const hour = Math.floor(points[from].at.getTime() / HOUR_MS);
    let to = from + 1;
    while (to < points.length && Math.floor(points[to].at.getTime() / HOUR_MS) === hour) to++;
    if (to - from === 1) thinned.push(points[from]);
    else {
      // The lower median: a reading of the hour, not a mean of a refill's before and after.
      const hourReadings = points.slice(from, to).sort((a, b) => a.volume - b.volume);
      thinned.push(hourReadings[(hourReadings.length - 1) >> 1]);
    }
    from = to;
  }
  return thinned.length === points.length ? (points as T[]) : thinned;
}

/**
 * The readings at or before now and within the history window as local days and volumes, in time
 * order (a stable sort keeps equal times as they came); null without any.
 */
export function readingsUpTo(
  points: readonly LevelPoint[],
  uNow: number,
): { u: Float64Array; v: Float64Array } | null {
  const from = uNow - FORECAST_RULES.historyDays;
  const known = knownLocalDays.get(points);
  let u = new Float64Array(points.length);
  let v = new Float64Array(points.length);
  let n = 0;
  let ordered = true;
  for (let index = 0; index < points.length; index++) {
    const point = points[index];
    const at = known ? known[index] : localDays(point.at);
    if (!(at <= uNow && at >= from && Number.isFinite(point.volume))) continue;
    if (n > 0 && at < u[n - 1]) ordered = false;
    u[n] = at;
    v[n++] = point.volume;
  }
  if (n === 0) return null;
  u = u.subarray(0, n);
  v = v.subarray(0, n);
  if (!ordered) {
    const order = Array.from(u.keys()).sort((a, b) => u[a] - u[b]);
    [u, v] = [Float64Array.from(order, (i) => u[i]), Float64Array.from(order, (i) => v[i])];
  }
  return { u, v };
}

/** Readings at or before now, within the history window, in order, with their noise and refills. */
function prepareSeries(points: readonly LevelPoint[], capacity: number, uNow: number): Series | null {
  const readings = readingsUpTo(points, uNow);
  if (!readings) return null;
  const { u, v } = readings;
  const noise = estimateNoise(u, v, capacity);
  return { u, v, noise, starts: findSegmentStarts(u, v, capacity, noise) };
}

/**
 * The sensor's noise (standard deviation): how far each reading strays from the straight line
 * through its two neighbours, where those lie within two days (the use between them is nearly
 * straight). For independent noise σ that deviation has a spread of about 1.22 σ.
 */
function estimateNoise(u: Float64Array, v: Float64Array, capacity: number): number {
  const deviations = new Float64Array(u.length);
  let count = 0;
  for (let i = 1; i + 1 < u.length; i++) {
    const span = u[i + 1] - u[i - 1];
    if (span <= 0 || span > 2) continue;
    const share = (u[i] - u[i - 1]) / span;
    deviations[count++] = Math.abs(v[i] - (v[i - 1] + share * (v[i + 1] - v[i - 1])));
  }
  if (count < 5) return DEFAULT_NOISE_SHARE * capacity;
  return Math.max(MIN_NOISE_SHARE * capacity, (1.4826 * medianInPlace(deviations.subarray(0, count))) / 1.22);
}

/**
 * Where a refill starts a new segment: a rise between two readings of at least 3 % of the capacity
 * (and well above the noise), confirmed by the median of the next three readings against the
 * median of the previous three, so that a single stray high or low reading is no refill. Thermal
 * expansion raises the level by less than a tenth of a percent per kelvin, slowly, and stays far
 * below that step.
 */
function findSegmentStarts(u: Float64Array, v: Float64Array, capacity: number, noise: number): number[] {
  const n = u.length;
  const threshold = Math.max(
    FORECAST_RULES.refillMinShare * capacity,
    FORECAST_RULES.refillNoiseFactor * noise,
  );
  const starts = [0];
  for (let i = 1; i < n; i++) {
    if (v[i] - v[i - 1] < threshold) continue;
    const from = Math.max(starts.at(-1)!, i - 3);
    // Of two readings since the last refill one may be stray: then the higher one counts.
    const before = i - from < 3 ? Math.max(...v.subarray(from, i)) : medianInPlace(v.slice(from, i));
    const after = medianInPlace(v.slice(i, Math.min(n, i + 3)));
    if (after - before < threshold) continue;
    // A reading taken while the truck was still pumping: the segment starts where the rise ends.
    let start = i;
    while (start + 1 < n && u[start + 1] - u[start] < 0.5 && v[start + 1] - v[start] > threshold / 2) start++;
    starts.push(start);
    i = start;
  }
  return starts;
}

/** Index of the first reading of each segment between refills, for callers outside (backtest). */
export function segmentStarts(points: readonly LevelPoint[], capacity: number): number[] {
  const u = knownLocalDays.get(points) ?? Float64Array.from(points, (point) => localDays(point.at));
  const v = Float64Array.from(points, (point) => point.volume);
  return segmentStartsOfDays(u, v, capacity);
}

/** `segmentStarts` of readings already as local days and volumes (ascending). */
export function segmentStartsOfDays(u: Float64Array, v: Float64Array, capacity: number): number[] {
  return findSegmentStarts(u, v, capacity, estimateNoise(u, v, capacity));
}

/** The minimum-data rule: enough since the last refill, or an earlier season to learn from. */
function enoughData(u: Float64Array, starts: number[]): boolean {
  const n = u.length;
  const current = starts.at(-1)!;
  if (
    n - current >= FORECAST_RULES.minSegmentPoints &&
    u[n - 1] - u[current] >= FORECAST_RULES.minSegmentDays
  )
    return true;
  let earlier = 0;
  for (let s = 0; s + 1 < starts.length; s++) earlier += u[starts[s + 1] - 1] - u[starts[s]];
  return earlier >= FORECAST_RULES.minEarlierDays;
}

/**
 * How much each reading counts. The level is always the current segment's own (its intercept);
 * the weights decide whose pace the rates follow:
 * - heating: the degree days carry the season, so all of the history counts, halving every two
 *   years, a little more around the same time of year as the coming month;
 * - otherwise: the recent weeks (e-folding 45 days), plus the same weeks of earlier years, so a
 *   business's seasonal pace comes back when the calendar does.
 */
function pointWeights(u: Float64Array, starts: number[], uNow: number, heating: boolean): Float64Array {
  const weights = new Float64Array(u.length);
  const current = starts.at(-1)!;
  const seasonCentre = uNow + 30;
  const seasonOf = (at: number) => {
    const offset = (((seasonCentre - at) % YEAR_DAYS) + YEAR_DAYS) % YEAR_DAYS;
    const distance = Math.min(offset, YEAR_DAYS - offset);
    return Math.exp(-0.5 * (distance / 30) ** 2);
  };
  for (let i = 0; i < u.length; i++) {
    const age = uNow - u[i];
    // The season only where it counts (a backtest asks this of every reading at every origin).
    if (heating) weights[i] = i >= current ? 1 : 0.5 ** (age / 730) * (0.5 + 0.5 * seasonOf(u[i]));
    else weights[i] = Math.exp(-age / 45) + (age > 300 ? 0.4 * seasonOf(u[i]) : 0);
  }
  return weights;
}

// --- Clocks: cumulative per-day quantities, read at any instant -------------------------------

function constantDays(days: number): Float64Array {
  return new Float64Array(days).fill(1);
}

function fillDays(firstDay: number, days: number, value: (day: number) => number): Float64Array {
  const values = new Float64Array(days);
  for (let i = 0; i < days; i++) values[i] = value(firstDay + i);
  return values;
}

/** Running totals of per-day values: total[i] is the sum of the days before day i. */
function runningTotals(values: Float64Array): Float64Array {
  const totals = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) totals[i + 1] = totals[i] + values[i];
  return totals;
}

/** A clock at an instant: the totals up to its day plus the elapsed share of that day's value. */
function readClock(totals: Float64Array, values: Float64Array, firstDay: number, u: number): number {
  const day = Math.floor(u);
  const i = Math.min(Math.max(day - firstDay, 0), values.length - 1);
  return totals[i] + (u - firstDay - i) * values[i];
}

/** The clocks read at every reading: one column per model variable. */
function clockColumns(u: Float64Array, firstDay: number, dayValues: Float64Array[]): Float64Array[] {
  return dayValues.map((values) => {
    const totals = runningTotals(values);
    const column = new Float64Array(u.length);
    for (let i = 0; i < u.length; i++) column[i] = readClock(totals, values, firstDay, u[i]);
    return column;
  });
}

// --- Robust least squares with one intercept per segment --------------------------------------

interface LevelFit {
  /** Rates per clock unit, all ≥ 0. */
  beta: Float64Array;
  residuals: Float64Array;
  /** The weights of the last round (given × robust). */
  weights: Float64Array;
  /** Robust standard deviation of the residuals. */
  scale: number;
  /** Weighted sum of squared residuals. */
  rss: number;
}

interface Prior {
  /** The penalty is strength · (direction · beta)², relative to the data's weight on beta[0]. */
  direction: number[];
  strength: number;
}

/** b − 1.7·k = 0: see PRIOR_BASE_IN_DEGREE_DAYS. */
/** The heating shapes tried, GTZ 20/15 first: another is taken only when it fits clearly better. */
const HEATING_SHAPES: readonly HeatingShape[] = [
  GTZ_20_15,
  ...HEATING_LIMITS_C.map((limitC) => ({ limitC, baseC: limitC })),
];
const SHAPE_MIN_GAIN = 0.97;
const HEATING_PRIOR: Prior = { direction: [1, -PRIOR_BASE_IN_DEGREE_DAYS], strength: PRIOR_STRENGTH };

/**
 * Fits level = intercept of its segment − Σ beta_j · clock_j, beta ≥ 0, by weighted least squares
 * on the readings minus their segment's weighted means (so each segment keeps its own level), with
 * Huber reweighting against stray readings. O(n · p²) per round.
 */
function fitLevels(
  v: Float64Array,
  columns: Float64Array[],
  starts: number[],
  baseWeights: Float64Array,
  prior: Prior | null,
  robustRounds = ROBUST_ROUNDS,
  firstRound: LevelFit | null = null,
): LevelFit {
  const n = v.length;
  const p = columns.length;
  const [column0, column1] = columns;
  const weights = baseWeights.slice();
  const residuals = new Float64Array(n);
  // The residuals' sizes whose median is the scale, refilled each round.
  const absolute = new Float64Array(n);
  const meanX = new Float64Array(p);
  // One reading's clocks less their segment's means, made once per reading rather than per pair.
  const centred = new Float64Array(p);
  let beta: Float64Array;
  let scale: number;
  let rss: number;
  for (let round = 0; ; round++) {
    if (round === 0 && firstRound) {
      // Made already with the same weights: a plain fit's answer is this fit's first round.
      ({ beta, scale, rss } = firstRound);
      residuals.set(firstRound.residuals);
    } else {
      const matrix = new Float64Array(p * p);
      const rhs = new Float64Array(p);
      const segmentMeans = forEachSegment(starts, n, (from, to) => {
        let total = 0;
        let meanV = 0;
        meanX.fill(0);
        if (p === 1 || p === 2) {
          // In locals (the same sums in the same order): most fits have one or two clocks.
          let sum0 = 0;
          let sum1 = 0;
          for (let i = from; i < to; i++) {
            const w = weights[i];
            total += w;
            meanV += w * v[i];
            sum0 += w * column0[i];
            if (p === 2) sum1 += w * column1[i];
          }
          meanX[0] = sum0;
          if (p === 2) meanX[1] = sum1;
        } else
          for (let i = from; i < to; i++) {
            total += weights[i];
            meanV += weights[i] * v[i];
            for (let j = 0; j < p; j++) meanX[j] += weights[i] * columns[j][i];
          }
        if (to - from < 2 || total <= 0) return null;
        meanV /= total;
        for (let j = 0; j < p; j++) meanX[j] /= total;
        if (p === 1 || p === 2) {
          accumulateSmall(v, columns, weights, from, to, meanV, meanX, matrix, rhs);
          return { meanV, meanX: meanX.slice() };
        }
        for (let i = from; i < to; i++) {
          const w = weights[i];
          const y = v[i] - meanV;
          for (let j = 0; j < p; j++) centred[j] = columns[j][i] - meanX[j];
          for (let j = 0; j < p; j++) {
            const xj = centred[j];
            rhs[j] -= w * xj * y;
            for (let k = 0; k <= j; k++) matrix[j * p + k] += w * xj * centred[k];
          }
        }
        return { meanV, meanX: meanX.slice() };
      });
      for (let j = 0; j < p; j++) for (let k = 0; k < j; k++) matrix[k * p + j] = matrix[j * p + k];
      if (prior) {
        const lambda = prior.strength * matrix[0];
        for (let j = 0; j < p; j++)
          for (let k = 0; k < p; k++) matrix[j * p + k] += lambda * prior.direction[j] * prior.direction[k];
      }
      beta = solveNonNegative(matrix, rhs, p);

      let count = 0;
      rss = 0;
      const [beta0 = 0, beta1 = 0] = beta;
      forEachSegment(starts, n, (from, to, s) => {
        const means = segmentMeans[s];
        for (let i = from; i < to; i++) {
          if (!means) {
            residuals[i] = 0;
            continue;
          }
          let r = v[i] - means.meanV;
          if (p === 2) {
            r += beta0 * (column0[i] - means.meanX[0]);
            r += beta1 * (column1[i] - means.meanX[1]);
          } else if (p === 1) r += beta0 * (column0[i] - means.meanX[0]);
          else for (let j = 0; j < p; j++) r += beta[j] * (columns[j][i] - means.meanX[j]);
          residuals[i] = r;
          rss += weights[i] * r * r;
          if (baseWeights[i] > 0.01) absolute[count++] = Math.abs(r);
        }
        return null;
      });
      scale = 1.4826 * medianInPlace(absolute.subarray(0, count));
    }
    if (round >= robustRounds || scale <= 0) break;
    const limit = HUBER_K * scale;
    for (let i = 0; i < n; i++) {
      const r = Math.abs(residuals[i]);
      weights[i] = baseWeights[i] * (r <= limit ? 1 : limit / r);
    }
  }
  return { beta, residuals, weights, scale, rss };
}

/**
 * `fitLevels`'s sums of one segment for one or two clocks (the daily rate's flat fit, heating's
 * base and degree days: most fits), in locals: the same products added in the same order as the
 * general loop, so the same numbers, without its inner loops.
 */
function accumulateSmall(
  v: Float64Array,
  columns: Float64Array[],
  weights: Float64Array,
  from: number,
  to: number,
  meanV: number,
  meanX: Float64Array,
  matrix: Float64Array,
  rhs: Float64Array,
) {
  const column0 = columns[0];
  const mean0 = meanX[0];
  let rhs0 = rhs[0];
  let m00 = matrix[0];
  if (columns.length === 1) {
    for (let i = from; i < to; i++) {
      const w = weights[i];
      const x0 = column0[i] - mean0;
      rhs0 -= w * x0 * (v[i] - meanV);
      m00 += w * x0 * x0;
    }
    rhs[0] = rhs0;
    matrix[0] = m00;
    return;
  }
  const column1 = columns[1];
  const mean1 = meanX[1];
  let rhs1 = rhs[1];
  let m10 = matrix[2];
  let m11 = matrix[3];
  for (let i = from; i < to; i++) {
    const w = weights[i];
    const y = v[i] - meanV;
    const x0 = column0[i] - mean0;
    const x1 = column1[i] - mean1;
    rhs0 -= w * x0 * y;
    m00 += w * x0 * x0;
    rhs1 -= w * x1 * y;
    m10 += w * x1 * x0;
    m11 += w * x1 * x1;
  }
  rhs[0] = rhs0;
  rhs[1] = rhs1;
  matrix[0] = m00;
  matrix[2] = m10;
  matrix[3] = m11;
}

/** Calls `visit` with each segment's index range [from, to) and number. */
function forEachSegment<T>(
  starts: number[],
  n: number,
  visit: (from: number, to: number, s: number) => T,
): T[] {
  return starts.map((from, s) => visit(from, s + 1 < starts.length ? starts[s + 1] : n, s));
}

/**
 * Solves matrix · beta = rhs with beta ≥ 0 for a handful of variables: solve, drop the most
 * negative variable, solve again (an active set that only shrinks: enough for 1, 2 or 7 clocks
 * that all push the level the same way). A variable the data cannot see stays 0.
 */
function solveNonNegative(matrix: Float64Array, rhs: Float64Array, p: number): Float64Array {
  const active = Array.from({ length: p }, (_, j) => j);
  while (active.length > 0) {
    const solution = solveLinear(matrix, rhs, p, active);
    let worst = -1;
    for (let a = 0; a < active.length; a++)
      if (solution[a] < 0 && (worst < 0 || solution[a] < solution[worst])) worst = a;
    if (worst < 0) {
      const beta = new Float64Array(p);
      active.forEach((j, a) => (beta[j] = solution[a]));
      return beta;
    }
    active.splice(worst, 1);
  }
  return new Float64Array(p);
}

/** Gaussian elimination with partial pivoting on the sub-system of `active` variables. */
function solveLinear(matrix: Float64Array, rhs: Float64Array, p: number, active: number[]): Float64Array {
  const m = active.length;
  const a = new Float64Array(m * (m + 1));
  let largest = 0;
  for (let r = 0; r < m; r++) {
    for (let c = 0; c < m; c++) a[r * (m + 1) + c] = matrix[active[r] * p + active[c]];
    a[r * (m + 1) + m] = rhs[active[r]];
    largest = Math.max(largest, Math.abs(a[r * (m + 1) + r]));
  }
  const tiny = largest * 1e-12;
  const solution = new Float64Array(m);
  for (let col = 0; col < m; col++) {
    let pivot = col;
    for (let r = col + 1; r < m; r++)
      if (Math.abs(a[r * (m + 1) + col]) > Math.abs(a[pivot * (m + 1) + col])) pivot = r;
    if (Math.abs(a[pivot * (m + 1) + col]) <= tiny) continue; // not identifiable: stays 0
    if (pivot !== col)
      for (let c = 0; c <= m; c++) {
        const swap = a[col * (m + 1) + c];
        a[col * (m + 1) + c] = a[pivot * (m + 1) + c];
        a[pivot * (m + 1) + c] = swap;
      }
    for (let r = 0; r < m; r++) {
      if (r === col) continue;
      const factor = a[r * (m + 1) + col] / a[col * (m + 1) + col];
      if (factor !== 0) for (let c = col; c <= m; c++) a[r * (m + 1) + c] -= factor * a[col * (m + 1) + c];
    }
  }
  for (let r = 0; r < m; r++) {
    const diagonal = a[r * (m + 1) + r];
    solution[r] = Math.abs(diagonal) > tiny ? a[r * (m + 1) + m] / diagonal : 0;
  }
  return solution;
}

/**
 * A weekly rhythm is real when seven weekday rates explain the levels far better than one rate
 * (F statistic ≥ 10: the residuals of a level series are not independent, since a day's use
 * carries into every later level, so the usual 1 % threshold of about 3 would see rhythms in noise).
 */
function weeklyRhythmIsReal(
  flat: LevelFit,
  weekly: LevelFit,
  starts: number[],
  n: number,
  clocks: number,
): boolean {
  let dof = -clocks;
  forEachSegment(starts, n, (from, to) => {
    if (to - from >= 2) dof += to - from - 1;
    return null;
  });
  if (dof <= 0 || weekly.rss <= 0) return flat.rss > 0 && weekly.rss === 0;
  return (flat.rss - weekly.rss) / (clocks - 1) / (weekly.rss / dof) >= WEEKDAY_MIN_F;
}

// --- The range --------------------------------------------------------------------------------

/**
 * Consumption multipliers for the ends of an about 80 % range: over every stretch of `window` days
 * within a segment of the history, what the sensor really used divided by what the model would
 * have predicted with the normal degree days (so the weather's deviation from the normal is part of
 * the spread, as it will be for the future). Stretches whose predicted use is within six times the
 * noise say nothing and are left out. The 10th and 90th percentiles relative to the median, pulled
 * towards a fixed −25 % / +35 % while the history holds fewer than eight independent stretches.
 */
function rangeOfUse(
  model: ConsumptionRates,
  series: Series,
  weights: Float64Array,
  horizonDays: number,
  firstDay: number,
): { low: number; high: number } {
  const { u, v, starts, noise } = series;
  const n = u.length;
  const window = Math.min(90, Math.max(7, horizonDays));
  const days = Math.ceil(u[n - 1]) - firstDay + 1;
  const normalUse = fillDays(firstDay, days, (day) =>
    model.model === 'degree_days'
      ? model.basePerDay + model.perDegreeDay * model.degreeDays!.expected(day)
      : model.basePerDay * paceOfDay(model, day),
  );
  const totals = runningTotals(normalUse);
  const predictedAt = (at: number) => readClock(totals, normalUse, firstDay, at);
  const minimum = 6 * noise;
  const ratios: { ratio: number; weight: number }[] = [];
  let independent = 0;
  forEachSegment(starts, n, (from, to) => {
    independent += Math.floor((u[to - 1] - u[from]) / window);
    for (let i = from, j = from; i < to; i++) {
      while (j < to && u[j] - u[i] < window) j++;
      if (j >= to) break;
      const predicted = predictedAt(u[j]) - predictedAt(u[i]);
      if (predicted >= minimum) ratios.push({ ratio: (v[i] - v[j]) / predicted, weight: weights[i] });
    }
    return null;
  });
  let { low, high } = DEFAULT_SPREAD;
  if (ratios.length >= 3) {
    ratios.sort((a, b) => a.ratio - b.ratio);
    const [q10, q50, q90] = weightedQuantiles(ratios, [0.1, 0.5, 0.9]);
    if (q50 > 0) {
      const trust = Math.min(1, independent / MIN_INDEPENDENT_WINDOWS);
      low = trust * (q10 / q50) + (1 - trust) * DEFAULT_SPREAD.low;
      high = trust * (q90 / q50) + (1 - trust) * DEFAULT_SPREAD.high;
    }
  }
  return { low: Math.min(0.95, Math.max(0.2, low)), high: Math.min(4, Math.max(1.05, high)) };
}

function weightedQuantiles(sorted: { ratio: number; weight: number }[], probabilities: number[]): number[] {
  const total = sorted.reduce((sum, item) => sum + item.weight, 0);
  return probabilities.map((probability) => {
    let running = 0;
    for (const item of sorted) {
      running += item.weight;
      if (running >= probability * total) return item.ratio;
    }
    return sorted.at(-1)!.ratio;
  });
}

// --- Small helpers ----------------------------------------------------------------------------

/** Median by selection (Hoare's quickselect, O(n)); reorders `values`. 0 when empty. */
export function medianInPlace(values: Float64Array): number {
  const n = values.length;
  if (n === 0) return 0;
  const upper = select(values, n >> 1);
  if (n % 2) return upper;
  // The lower middle is the largest value left of the upper one after selection.
  let lower = -Infinity;
  for (let i = 0; i < n >> 1; i++) if (values[i] > lower) lower = values[i];
  return (lower + upper) / 2;
}

/** The k-th smallest value; afterwards everything left of k is ≤ it and everything right ≥ it. */
function select(values: Float64Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  while (right > left) {
    const pivot = values[(left + right) >> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k];
}
