/**
 * Per tank, the forecaster that has been right most often on the tank's own history, and ranges
 * from how wrong it really was: a rolling-origin backtest over the last year.
 *
 * Every 7 days of the last 365 (the origins, on a weekly grid of calendar days), each candidate — the product's model (forecast.ts)
 * and the simple rules (baselines.ts) — learns from the readings up to the origin only, and is asked
 * when the level will reach the volume the tank really had 7, 14, 30, 60 and 90 days later (the
 * reading nearest after, with no refill in between). Its error is the forecast's time minus the
 * reading's, in days. Per horizon the candidates are weighed by their mean absolute errors there
 * (`CHOICE_RULES.weightPower`: a candidate twice as wrong counts a quarter as much) and the
 * forecast is their weighted mean: a blend misses less often by much than any one of them (the
 * p90), which choosing the one of the lowest mean error did not. A forecast for a horizon H then
 * comes from the blend of the horizon nearest H, and its range from the blend's own errors there
 * (the 10th and 90th percentile, scaled from the horizon to H: a split conformal interval), not
 * from a model's assumption.
 * An answer, once due, is kept (`BacktestState`): the daily backtest learns only where a horizon
 * came due since the day before.
 */
import {
  BASELINE_KINDS,
  baselineTimeToReach,
  learnBaseline,
  type BaselineKind,
  type BaselineModel,
} from './baselines.ts';
import { germanDayNumber, localDays } from '../time/day-numbers.ts';
import {
  FORECAST_RULES,
  consumptionBetween,
  forecastWithoutRange,
  learnConsumption,
  segmentStarts,
  timeToReach,
  type ConsumptionModel,
  type Forecast,
  type ForecastInput,
  type LevelPoint,
  withLocalDays,
  withModelRange,
} from './forecast.ts';

export type CandidateKind = 'model' | BaselineKind;

/** One horizon's verdict: who forecasts it, and that candidate's errors there. */
export interface HorizonChoice {
  horizonDays: number;
  /** The candidate of the largest weight (what the forecast's basis names). */
  kind: CandidateKind;
  /**
   * The blend: each candidate's share of the forecast (summing to 1). Absent in calibrations kept
   * by the release before the blend: `kind` alone.
   */
  weights?: Partial<Record<CandidateKind, number>>;
  /** Comparisons of the blend at this horizon. */
  n: number;
  /** Percentiles of its signed errors per day of horizon (forecast − actual, days / days ahead). */
  q10: number;
  q90: number;
  /** 80th percentile of its absolute errors (days): "off by at most this, 4 times in 5". */
  absQ80: number;
}

export interface Calibration {
  /** When the backtest was made (the forecast input's now). */
  at: string;
  horizons: HorizonChoice[];
  /** What the next day's backtest goes on from (checked when used: `backtestContinues`). */
  backtest: unknown;
}

export const CHOICE_RULES = {
  horizonsDays: [7, 14, 30, 60, 90],
  /** Origins: one every this many days … */
  originEveryDays: 7,
  /** … over this many days before now. */
  lookBackDays: 365,
  /** Fewer comparisons at a horizon: nothing is chosen there, the model's own range stays. */
  minComparisons: 8,
  /**
   * A simple rule joins the blend on at least this many comparisons at the horizon ("last year" has
   * few: only origins with a year of history before them answer), or with fewer by its error
   * against the model's at the longest shorter horizon where it has this many.
   */
  minComparisonsToSwitch: 6,
  /**
   * Weights ∝ (lowest mean absolute error / the candidate's) ^ this. 1 let a rule half as good as
   * the model take a third of a steady tank's forecast (medians worse); choosing the best alone
   * (∞) kept the p90s a blend cuts. Measured on the development worlds: 2.
   */
  weightPower: 2,
  /**
   * The range's ends: of n past errors the ⌈(n + 1) · share⌉-th from each end. 0.9 is the textbook
   * split-conformal 80 % range; process tanks' backtest errors are measured against single noisy
   * readings, which the forecast's own question is not, and at 0.9 their ranges held 86–87 % a week
   * to a month ahead on the development worlds (0.88: 75–85 % in 13 of 15 cells). Heating: 0.9.
   */
  outerShare: { heating: 0.9, other: 0.88 },
  /**
   * Process tanks from two months ahead, instead of `outerShare.other` (horizon in days → share).
   * A 60- or 90-day error spans eight or thirteen of the weekly origins, so a year of them is only a
   * few independent ones, and a change of use still to come is in none: at 0.88 the ranges held
   * 73–79 % 60–90 days ahead on the development worlds (changes of use: 73 %).
   */
  outerShareAhead: { 60: 0.9, 90: 0.92 } as Partial<Record<number, number>>,
  /**
   * Heating up to this many days ahead: the range from the errors of origins at this time of year
   * (Gaussian weights on the distance in days of the year, `seasonDays`, plus `seasonFloor` for every
   * origin). A week ahead in summer, when little is used, a reading's noise is days of use; in
   * winter hours: a year's errors together gave ranges that held 94 % in January and 49 % in May
   * (W1). Longer horizons span the seasons and keep the year's errors alike.
   */
  seasonalUpToDays: 14,
  seasonDays: 30,
  seasonFloor: 0.05,
  /** A reading counts as "h days later" within this many days after origin + h. */
  targetSlackDays: 2,
  /**
   * A backtest spread over a tank's first days (`BacktestOptions.spread`): from scratch, a tank
   * whose readings reach back beyond the look-back year learns only the origins of every this-many-th
   * week (13 of 52: a fresh fleet's calibrations in a quarter of the processor time) …
   */
  firstOriginsEvery: 4,
  /** … and each day's backtest after it learns up to this many of the origins left (all after three days). */
  fillOriginsPerDay: 13,
  /**
   * "Last year" judged with too few comparisons (a little over a year of history: a car wash in
   * spring) counts as this share of the model's error where the model has no season of its own,
   * last year's same days use `lastYearDiffers` times more (or less) over the horizon than the model
   * expects, and the last 30 days used about what last year's same 30 days did (within
   * `lastYearSameLevel` times: a season, not a change of use in between). Measured on the
   * development worlds' process tanks: share 1 or no level check left a change-of-use world behind
   * "the last 30 days"; 0.5 left the model and "the last 30 days" a fifth to a third of a car wash's
   * spring, 100 days off between them (0.1 did no better than 0.25; without the level check where
   * the readings do not reach back to last year's same 30 days, no gain and changes of use worse).
   * Off that level, "last year" is not judged by a shorter horizon's record either: its few
   * comparisons come from before the change (a second truck a month ago).
   */
  lastYearShare: 0.25,
  lastYearDiffers: 1.3,
  lastYearSameLevel: 1.25,
} as const;

const DAY_MS = 86_400_000;

/** When a candidate learnt at `input.now` says the level reaches `volume` (null: beyond its horizon). */
type Reacher = (volume: number) => Date | null;

function learn(kind: CandidateKind, input: ForecastInput): Reacher | null {
  if (kind === 'model') {
    const model = learnConsumption(input);
    return model && ((volume) => timeToReach(model, volume));
  }
  const model = learnBaseline(kind, input);
  return model && ((volume) => baselineTimeToReach(model, volume));
}

/**
 * The model and the simple rules learnt from one input, for the day's calibration and the forecast
 * that follows it with the same input (refresh-forecasts.ts): the calibration asks the model and
 * "last year" whether last year differs, and the forecast would learn them again. Kept with the
 * input object while it says the same (the same readings array, as long, the same now and
 * settings): inputs are not changed in place, as `withLocalDays` assumes too.
 */
interface LearntFromInput {
  points: readonly LevelPoint[];
  count: number;
  now: number;
  capacity: number;
  heating: boolean;
  temperatures: ReadonlyMap<string, number>;
  holidayState: ForecastInput['holidayState'];
  model?: ConsumptionModel | null;
  rules: Map<BaselineKind, BaselineModel | null>;
}
const learntFromInput = new WeakMap<ForecastInput, LearntFromInput>();

function learntFrom(input: ForecastInput): LearntFromInput {
  const known = learntFromInput.get(input);
  if (
    known &&
    known.points === input.points &&
    known.count === input.points.length &&
    known.now === input.now.getTime() &&
    known.capacity === input.capacity &&
    known.heating === input.heating &&
    known.temperatures === input.temperatures &&
    known.holidayState === input.holidayState
  )
    return known;
  const learnt: LearntFromInput = {
    points: input.points,
    count: input.points.length,
    now: input.now.getTime(),
    capacity: input.capacity,
    heating: input.heating,
    temperatures: input.temperatures,
    holidayState: input.holidayState,
    rules: new Map(),
  };
  learntFromInput.set(input, learnt);
  return learnt;
}

/** `learnConsumption(input)`, learnt once per input (`learntFrom`). */
function modelOf(input: ForecastInput): ConsumptionModel | null {
  const learnt = learntFrom(input);
  if (learnt.model === undefined) learnt.model = learnConsumption(input);
  return learnt.model;
}

/** `learnBaseline(kind, input)`, learnt once per input (`learntFrom`). */
function ruleOf(kind: BaselineKind, input: ForecastInput): BaselineModel | null {
  const { rules } = learntFrom(input);
  if (!rules.has(kind)) rules.set(kind, learnBaseline(kind, input));
  return rules.get(kind)!;
}

/**
 * Who may forecast a tank. Heating: the model alone — on the bench's worlds a heating tank's year
 * of backtest (summers and winters mixed) chose a simple rule more often wrongly than rightly.
 */
const candidatesFor = (input: Pick<ForecastInput, 'heating'>): CandidateKind[] =>
  input.heating ? ['model'] : ['model', ...BASELINE_KINDS.filter((kind) => kind !== 'degree_day_regression')];

/**
 * What a backtest keeps for the next day's: per origin (an epoch day on the weekly grid, so that
 * origins stay put as the days pass), each candidate's errors (days) at the horizons already due,
 * in `CHOICE_RULES.horizonsDays` order — null where nothing was asked (no reading then, no use) or
 * the candidate could not forecast. A horizon is due once its reading's slack has passed, and its
 * answer does not change afterwards: the next backtest learns only at the origins with a horizon
 * that came due since (about five a week instead of every origin every day).
 */
export interface BacktestState {
  version: number;
  /**
   * Kept errors are reused only for the same tank: the same capacity, and no reading older than the
   * earliest one seen before (history imported afterwards starts afresh; the oldest readings leaving
   * the forecast's history window as the days pass do not).
   */
  capacity: number;
  firstReadingAt: number;
  origins: Record<string, Partial<Record<CandidateKind, (number | null)[]>>>;
}

/** Raised when the candidates or the way errors are measured change: kept errors are then redone. */
const BACKTEST_VERSION = 1;

export interface Backtest {
  /** The signed errors (days) of each candidate at each horizon. */
  errors: Map<CandidateKind, number[][]>;
  /** Null without readings to backtest. */
  state: BacktestState | null;
  /** Origins at which the candidates learnt this time (the rest was kept). */
  learntOrigins: number;
}

const roundedDays = (days: number) => Math.round(days * 100) / 100;

/** The kept origins of `previous` when they belong to this tank and this release, else none. */
function keptOrigins(
  previous: unknown,
  input: Pick<ForecastInput, 'capacity' | 'heating'>,
  firstReadingAt: number,
): BacktestState['origins'] {
  if (typeof previous !== 'object' || previous === null) return {};
  const state = previous as Partial<BacktestState>;
  const sameTank =
    state.version === BACKTEST_VERSION &&
    state.capacity === input.capacity &&
    typeof state.firstReadingAt === 'number' &&
    state.firstReadingAt <= firstReadingAt &&
    typeof state.origins === 'object' &&
    state.origins !== null;
  return sameTank ? state.origins! : {};
}

/** The earliest reading a continued state had seen (the current first reading when none is continued). */
function keptFirstReadingAt(
  previous: unknown,
  firstReadingAt: number,
  kept: BacktestState['origins'],
): number {
  return Object.keys(kept).length > 0 ? (previous as BacktestState).firstReadingAt : firstReadingAt;
}

/** Whether a backtest can go on from `previous` (learning at a few origins), or must start afresh. */
export function backtestContinues(previous: unknown, input: ForecastInput): boolean {
  const first = input.points[0]?.at.getTime();
  return first !== undefined && Object.keys(keptOrigins(previous, input, first)).length > 0;
}

/** A kept origin's errors when they are whole (every candidate, the same horizons), else null. */
function keptEntry(
  entry: Partial<Record<CandidateKind, (number | null)[]>> | undefined,
  kinds: readonly CandidateKind[],
): Record<string, (number | null)[]> | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const settled = entry.model?.length;
  if (settled === undefined || settled > CHOICE_RULES.horizonsDays.length) return null;
  const whole = kinds.every((kind) => {
    const errors = entry[kind];
    return (
      Array.isArray(errors) &&
      errors.length === settled &&
      errors.every((error) => error === null || (typeof error === 'number' && Number.isFinite(error)))
    );
  });
  return whole ? (entry as Record<string, (number | null)[]>) : null;
}

export interface BacktestOptions {
  /**
   * Spread a backtest from scratch over the tank's first days (the intelligence round): from
   * scratch only every `firstOriginsEvery`-th origin where the history reaches beyond the look-back
   * year, then up to `fillOriginsPerDay` of the others a day, newest first. Without it every origin
   * is learnt at once (what the kept backtest holds after those days).
   */
  spread?: boolean;
}

/**
 * Each candidate's errors at each horizon on the input's own history: at every origin on the
 * weekly grid of the last year, learnt from the readings up to the origin only. With the state of
 * an earlier backtest of the same tank, only horizons that came due since are asked (and, spread,
 * the origins not learnt yet).
 */
export function backtestCandidates(
  input: ForecastInput,
  previous: unknown = null,
  options: BacktestOptions = {},
): Backtest {
  const { points, capacity } = input;
  const now = input.now.getTime();
  const horizons = CHOICE_RULES.horizonsDays;
  const kinds = candidatesFor(input);
  const errors = new Map(kinds.map((kind) => [kind, horizons.map(() => [] as number[])] as const));
  const known = points.filter((point) => point.at.getTime() <= now);
  if (known.length < 2 || capacity <= 0) return { errors, state: null, learntOrigins: 0 };
  // Each reading's local day once: every origin's candidates read the first readings of the same series.
  const days = Float64Array.from(known, (point) => localDays(point.at));
  withLocalDays(known, days);
  // What the tank had used by each reading: the falls between readings, refills left out (the
  // first reading after a refill starts from the same count), so a horizon may span refills.
  const used = new Float64Array(known.length);
  const refills = new Set(segmentStarts(known, capacity));
  for (let i = 1; i < known.length; i++)
    used[i] = used[i - 1] + (refills.has(i) ? 0 : known[i - 1].volume - known[i].volume);
  const firstReadingAt = known[0].at.getTime();
  const kept = keptOrigins(previous, input, firstReadingAt);
  const origins: BacktestState['origins'] = {};
  let learntOrigins = 0;
  const step = CHOICE_RULES.originEveryDays;
  const lookBackFrom = now - CHOICE_RULES.lookBackDays * DAY_MS;
  const first = Math.max(firstReadingAt, lookBackFrom);
  // Spread: how many origins without a kept answer may still be learnt (the first grid's are free).
  const fresh = Object.keys(kept).length === 0;
  let newOriginsLeft = Infinity;
  if (options.spread && !fresh) newOriginsLeft = CHOICE_RULES.fillOriginsPerDay;
  else if (options.spread && firstReadingAt < lookBackFrom) newOriginsLeft = 0;
  for (let day = Math.floor(now / DAY_MS / step) * step; day * DAY_MS >= first; day -= step) {
    const origin = day * DAY_MS;
    const due = horizons.filter((h) => origin + (h + CHOICE_RULES.targetSlackDays) * DAY_MS <= now).length;
    if (due === 0) continue;
    const whole = keptEntry(kept[day], kinds);
    if (!whole && (day / step) % CHOICE_RULES.firstOriginsEvery !== 0) {
      // Left for a later day's backtest (kept answers carry no mark of it: it is simply absent).
      if (newOriginsLeft <= 0) continue;
      newOriginsLeft--;
    }
    const entry: Record<string, (number | null)[]> = { ...whole };
    const settled = entry.model?.length ?? 0;
    if (settled < due) {
      const upTo = countUpTo(known, origin);
      const targets = horizons
        .slice(settled, due)
        .map((h) => targetAfter(known, used, upTo - 1, origin + h * DAY_MS));
      const history: ForecastInput | null = targets.some(Boolean)
        ? {
            ...input,
            points: withLocalDays(known.slice(0, upTo), days.subarray(0, upTo)),
            now: new Date(origin),
          }
        : null;
      if (history) learntOrigins++;
      for (const kind of kinds) {
        const reach = history && learn(kind, history);
        const found = targets.map((target) => {
          if (!target || !reach) return null;
          // Beyond the forecaster's horizon: wrong by at least as much.
          const at = reach(target.volume)?.getTime() ?? origin + FORECAST_RULES.horizonDays * DAY_MS;
          return roundedDays((at - target.at.getTime()) / DAY_MS);
        });
        entry[kind] = [...(entry[kind] ?? []).slice(0, settled), ...found];
      }
    }
    origins[day] = entry;
    for (const kind of kinds)
      entry[kind].forEach((error, h) => {
        if (error !== null) errors.get(kind)![h].push(error);
      });
  }
  return {
    errors,
    state: {
      version: BACKTEST_VERSION,
      capacity,
      firstReadingAt: keptFirstReadingAt(previous, firstReadingAt, kept),
      origins,
    },
    learntOrigins,
  };
}

/**
 * The question a horizon asks at an origin (the reading `last`): when will the level be what the
 * last reading's level less what the tank used until the first reading at or after `due` (within
 * the slack) — and that reading's time is the answer. Null without such a reading or use.
 */
function targetAfter(
  points: readonly LevelPoint[],
  used: Float64Array,
  last: number,
  due: number,
): LevelPoint | null {
  const index = countUpTo(points, due - 1);
  if (index >= points.length) return null;
  const at = points[index].at;
  if (at.getTime() > due + CHOICE_RULES.targetSlackDays * DAY_MS) return null;
  const amount = used[index] - used[last];
  // A tank that used nothing asks nothing of a forecaster of use.
  return amount > 0 ? { at, volume: points[last].volume - amount } : null;
}

/**
 * The blend per horizon from the tank's own backtest; horizons without enough comparisons are left
 * out. The model needs `minComparisons` there, a rule `minComparisonsToSwitch` to take part; each
 * takes a share by its mean absolute error, and the blend's errors at the backtest's origins (the
 * candidates that answered there, their shares renormalised) give its range and its accuracy.
 */
export function calibrate(
  input: ForecastInput,
  previous: unknown = null,
  options: BacktestOptions = {},
): Calibration {
  const { errors, state } = backtestCandidates(input, previous, options);
  const horizons: HorizonChoice[] = [];
  const entries = Object.entries(state?.origins ?? {});
  const today = Math.floor(input.now.getTime() / DAY_MS);
  // Learnt only where "last year" lacks comparisons somewhere: this year's last 30 days against
  // last year's same 30 days (the ratio of their use per day; null where either is unknown).
  let levelSinceLastYear: number | null | undefined;
  const sinceLastYear = () => {
    if (levelSinceLastYear === undefined) {
      const then = new Date(input.now.getTime() - 365 * DAY_MS);
      const recent = ruleOf('last_30_days', input)?.useOnDay(germanDayNumber(input.now)) ?? 0;
      const lastYear =
        learnBaseline('last_30_days', {
          ...input,
          now: then,
          points: input.points.filter((point) => point.at <= then),
        })?.useOnDay(germanDayNumber(then)) ?? 0;
      levelSinceLastYear = recent > 0 && lastYear > 0 ? recent / lastYear : null;
    }
    return levelSinceLastYear;
  };
  const changedSinceLastYear = () => {
    const ratio = sinceLastYear();
    return ratio !== null && Math.abs(Math.log(ratio)) >= Math.log(CHOICE_RULES.lastYearSameLevel);
  };
  let seasonless: { model: ConsumptionModel; lastYear: BaselineModel } | null | undefined;
  const lastYearDiffers = (horizonDays: number) => {
    if (seasonless === undefined) {
      const model = input.heating ? null : modelOf(input);
      const lastYear = model && !model.season ? ruleOf('last_year', input) : null;
      seasonless = model && lastYear ? { model, lastYear } : null;
      // A season, not a change of use: this year's last 30 days at last year's same days' level.
      if (seasonless && (sinceLastYear() === null || changedSinceLastYear())) seasonless = null;
    }
    if (!seasonless) return false;
    const day = germanDayNumber(input.now);
    let lastYear = 0;
    for (let k = 0; k < horizonDays; k++) lastYear += seasonless.lastYear.useOnDay(day + k);
    const model = consumptionBetween(
      seasonless.model,
      input.now,
      new Date(input.now.getTime() + horizonDays * DAY_MS),
    );
    return (
      model > 0 &&
      lastYear > 0 &&
      Math.abs(Math.log(lastYear / model)) >= Math.log(CHOICE_RULES.lastYearDiffers)
    );
  };
  CHOICE_RULES.horizonsDays.forEach((horizonDays, h) => {
    const outerShare = input.heating
      ? CHOICE_RULES.outerShare.heating
      : (CHOICE_RULES.outerShareAhead[horizonDays] ?? CHOICE_RULES.outerShare.other);
    const scores = new Map<CandidateKind, number>();
    for (const [kind, lists] of errors) {
      const list = lists[h];
      const needed = kind === 'model' ? CHOICE_RULES.minComparisons : CHOICE_RULES.minComparisonsToSwitch;
      if (list.length >= needed)
        scores.set(kind, list.reduce((sum, error) => sum + Math.abs(error), 0) / list.length);
    }
    const model = scores.get('model');
    if (model === undefined) return;
    // A rule with too few comparisons here ("last year" a little over a year in) is judged by how
    // it did against the model at the longest shorter horizon where it has enough.
    for (const kind of errors.keys())
      if (kind !== 'model' && !scores.has(kind)) {
        // Not "last year" where the tank's use changed since (its last 30 days off last year's same 30
        // days): its few comparisons then come from before the change.
        const ratio = kind === 'last_year' && changedSinceLastYear() ? null : carriedRatio(entries, kind, h);
        if (ratio !== null) scores.set(kind, ratio * model);
        if (kind === 'last_year' && lastYearDiffers(horizonDays))
          scores.set(kind, Math.min(scores.get(kind) ?? Infinity, CHOICE_RULES.lastYearShare * model));
      }
    const best = Math.max(1e-6, Math.min(...scores.values()));
    const raw = [...scores].map(
      ([kind, score]) => [kind, (best / Math.max(1e-6, score)) ** CHOICE_RULES.weightPower] as const,
    );
    const total = raw.reduce((sum, [, weight]) => sum + weight, 0);
    const weights: Partial<Record<CandidateKind, number>> = {};
    for (const [kind, weight] of raw) weights[kind] = Math.round((weight / total) * 10_000) / 10_000;
    // The blend's error at each origin the model answered, from the candidates that answered there.
    const list: number[] = [];
    const originDays: number[] = [];
    for (const [day, entry] of entries) {
      if (typeof entry.model?.[h] !== 'number') continue;
      let sum = 0;
      let weightSum = 0;
      for (const [kind, weight] of Object.entries(weights) as [CandidateKind, number][]) {
        const error = entry[kind]?.[h];
        if (typeof error === 'number' && weight > 0)
          [sum, weightSum] = [sum + weight * error, weightSum + weight];
      }
      list.push(sum / weightSum);
      originDays.push(Number(day));
    }
    if (list.length < CHOICE_RULES.minComparisons) return;
    const kind = raw.reduce((heaviest, candidate) => (candidate[1] > heaviest[1] ? candidate : heaviest))[0];
    const relative = list.map((error) => error / horizonDays).sort((a, b) => a - b);
    const absolute = list.map(Math.abs).sort((a, b) => a - b);
    // Split conformal: of n past errors, the ⌈(n + 1) · 0.9⌉-th from each end holds the next one
    // within the ends at least 80 % of the time (the plain 10th/90th percentile of a few is too
    // narrow); `outerShare` for what the backtest's errors measure.
    const outer = Math.min(1, (outerShare * (list.length + 1)) / list.length);
    const [q10, q90] =
      input.heating && horizonDays <= CHOICE_RULES.seasonalUpToDays
        ? seasonalEnds(list, originDays, today, horizonDays, outerShare)
        : [quantile(relative, 1 - outer), quantile(relative, outer)];
    horizons.push({
      horizonDays,
      kind,
      weights,
      n: list.length,
      q10,
      q90,
      absQ80: quantile(absolute, 0.8),
    });
  });
  return { at: input.now.toISOString(), horizons, backtest: state };
}

/**
 * A rule's mean absolute error over the model's, on the origins both answered, at the longest
 * horizon before `h` where they are at least `minComparisonsToSwitch`; null where none is.
 */
function carriedRatio(
  entries: readonly [string, Partial<Record<CandidateKind, (number | null)[]>>][],
  kind: CandidateKind,
  h: number,
): number | null {
  for (let shorter = h - 1; shorter >= 0; shorter--) {
    let rule = 0;
    let model = 0;
    let count = 0;
    for (const [, entry] of entries) {
      const own = entry[kind]?.[shorter];
      const theModel = entry.model?.[shorter];
      if (typeof own !== 'number' || typeof theModel !== 'number') continue;
      rule += Math.abs(own);
      model += Math.abs(theModel);
      count++;
    }
    if (count >= CHOICE_RULES.minComparisonsToSwitch) return rule / Math.max(1e-6, model);
  }
  return null;
}

/**
 * The range's ends (errors per day ahead) from errors weighted by how near their origin's time of
 * year is to today's (`CHOICE_RULES.seasonDays`), with the finite-sample rank of split conformal
 * on the weights' effective number.
 */
function seasonalEnds(
  errors: readonly number[],
  originDays: readonly number[],
  today: number,
  horizonDays: number,
  outerShare: number,
): [number, number] {
  const year = 365.25;
  const weighted = errors
    .map((error, i) => {
      const apart = Math.abs(originDays[i] - today) % year;
      const distance = Math.min(apart, year - apart);
      const weight = CHOICE_RULES.seasonFloor + Math.exp(-0.5 * (distance / CHOICE_RULES.seasonDays) ** 2);
      return [error / horizonDays, weight] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
  const effective = total ** 2 / weighted.reduce((sum, [, weight]) => sum + weight ** 2, 0);
  const outer = Math.min(1, (outerShare * (effective + 1)) / effective);
  const at = (probability: number) => {
    let cumulative = 0;
    for (const [value, weight] of weighted) {
      cumulative += weight;
      if (cumulative >= probability * total - 1e-12) return value;
    }
    return weighted[weighted.length - 1][0];
  };
  return [at(1 - outer), at(outer)];
}

const CANDIDATE_KINDS: readonly CandidateKind[] = ['model', ...BASELINE_KINDS];

/**
 * A calibration as kept in the database, checked: one written by another release (other
 * candidates, other fields) counts as none, and the model forecasts until the next backtest.
 */
export function readCalibration(stored: unknown): Calibration | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { at, horizons, backtest = null } = stored as Partial<Calibration>;
  if (typeof at !== 'string' || !Array.isArray(horizons)) return null;
  const valid = horizons.every(
    (choice: Partial<HorizonChoice> | null) =>
      typeof choice === 'object' &&
      choice !== null &&
      CANDIDATE_KINDS.includes(choice.kind as CandidateKind) &&
      validWeights(choice.weights) &&
      [choice.horizonDays, choice.n, choice.q10, choice.q90, choice.absQ80].every(
        (value) => typeof value === 'number' && Number.isFinite(value),
      ),
  );
  return valid ? { at, horizons, backtest } : null;
}

/** A kept blend: absent (a calibration of the release before), or shares of known candidates. */
function validWeights(weights: unknown): boolean {
  if (weights === undefined) return true;
  if (typeof weights !== 'object' || weights === null) return false;
  const entries = Object.entries(weights);
  return (
    entries.length > 0 &&
    entries.every(
      ([kind, weight]) =>
        CANDIDATE_KINDS.includes(kind as CandidateKind) &&
        typeof weight === 'number' &&
        Number.isFinite(weight) &&
        weight >= 0,
    ) &&
    entries.some(([, weight]) => (weight as number) > 0)
  );
}

/** The calibrated horizon nearest `days` ahead (null: none calibrated). */
export function nearestHorizon(calibration: Calibration, days: number): HorizonChoice | null {
  let nearest: HorizonChoice | null = null;
  for (const choice of calibration.horizons)
    if (
      !nearest ||
      Math.abs(Math.log(choice.horizonDays / Math.max(days, 1))) <
        Math.abs(Math.log(nearest.horizonDays / Math.max(days, 1)))
    )
      nearest = choice;
  return nearest;
}

/**
 * How far off the tank's forecaster has been at the calibrated horizon nearest `days` ahead: the
 * 80th percentile of its absolute errors there, rounded up ("off by at most N days in 4 of 5
 * cases"), and that horizon. Nulls without a calibrated horizon.
 */
export function accuracyAt(
  calibration: Calibration | null,
  days: number,
): { errorDays: number | null; errorHorizonDays: number | null } {
  const choice = calibration && nearestHorizon(calibration, days);
  return choice
    ? { errorDays: Math.ceil(choice.absQ80), errorHorizonDays: choice.horizonDays }
    : { errorDays: null, errorHorizonDays: null };
}

/** When the level reaches a volume, with its range: the product's model, or the calibrated choice. */
export interface CalibratedReach {
  at: Date;
  low: Date;
  high: Date;
  /** The candidate of the largest share in the answer. */
  kind: CandidateKind;
  /** The shares of the candidates that answered (the model alone: `{ model: 1 }`). */
  weights: Partial<Record<CandidateKind, number>>;
}

/**
 * A reacher for any volume that follows the calibration: the horizon is first judged by the model
 * (or, without one, by any candidate), then the blend of the nearest calibrated horizon answers
 * (the weighted mean of its candidates' times; one that cannot forecast now leaves the others
 * its share), with the range from the blend's errors there. Without a calibrated horizon: the model
 * and its own range. Null when no candidate can forecast. `model`: the input's model, when learnt
 * already.
 */
export function calibratedReacher(
  input: ForecastInput,
  calibration: Calibration | null,
  model: ConsumptionModel | null = modelOf(input),
  rules: Map<BaselineKind, BaselineModel | null> = new Map(),
): ((volume: number) => CalibratedReach | null) | null {
  const now = input.now.getTime();
  const latest = new Date(now + FORECAST_RULES.horizonDays * DAY_MS);
  // Each candidate learns once (the rules into `rules`, for the caller), the model not again.
  const learnt = new Map<CandidateKind, Reacher | null>([
    ['model', model && ((volume: number) => timeToReach(model, volume))],
  ]);
  const reacherOf = (kind: CandidateKind) => {
    if (!learnt.has(kind)) {
      if (!rules.has(kind as BaselineKind))
        rules.set(kind as BaselineKind, ruleOf(kind as BaselineKind, input));
      const rule = rules.get(kind as BaselineKind)!;
      learnt.set(kind, rule && ((volume: number) => baselineTimeToReach(rule, volume)));
    }
    return learnt.get(kind)!;
  };
  const judge = model ? reacherOf('model') : candidatesFor(input).map(reacherOf).find(Boolean);
  if (!judge) return null;
  return (volume) => {
    const judged = judge(volume);
    const days = ((judged?.getTime() ?? latest.getTime()) - now) / DAY_MS;
    const choice = calibration && nearestHorizon(calibration, days);
    const blend = (
      Object.entries(choice ? (choice.weights ?? { [choice.kind]: 1 }) : {}) as [CandidateKind, number][]
    ).filter(([kind, weight]) => weight > 0 && reacherOf(kind));
    if (choice && blend.length > 0) {
      let sum = 0;
      let weightSum = 0;
      let answered = false;
      const weights: Partial<Record<CandidateKind, number>> = {};
      for (const [kind, weight] of blend) {
        // Beyond a candidate's horizon: as late as a forecast goes (as in the backtest).
        const reached = reacherOf(kind)!(volume);
        answered ||= reached !== null;
        sum += weight * (reached?.getTime() ?? latest.getTime());
        weightSum += weight;
        weights[kind] = weight;
      }
      if (!answered) return null;
      for (const kind of Object.keys(weights) as CandidateKind[]) weights[kind]! /= weightSum;
      const at = new Date(sum / weightSum);
      const kind = blend.reduce((heaviest, candidate) =>
        candidate[1] > heaviest[1] ? candidate : heaviest,
      )[0];
      const ahead = (at.getTime() - now) / DAY_MS;
      // actual = forecast − error: the early end takes the large errors (forecast too late).
      let low = Math.max(now, at.getTime() - choice.q90 * ahead * DAY_MS);
      let high = Math.min(latest.getTime(), at.getTime() - choice.q10 * ahead * DAY_MS);
      // Heating: a year's errors mix summer and winter; where the model's own range (its use in
      // weather unlike the normals) is wider, the ends lie halfway between the two.
      if (model && input.heating && blend.length === 1 && kind === 'model') {
        const spread = model.spread(ahead);
        const early = timeToReach(model, volume, spread.high)?.getTime() ?? low;
        const late = timeToReach(model, volume, spread.low)?.getTime() ?? latest.getTime();
        if (early < low) low = (low + early) / 2;
        if (late > high) high = (high + late) / 2;
      }
      return {
        at,
        low: new Date(Math.min(low, at.getTime())),
        high: new Date(Math.max(high, at.getTime())),
        kind,
        weights,
      };
    }
    const reach = model ? reacherOf('model')! : judge;
    const at = reach(volume);
    if (!at) return null;
    if (model) {
      const { low, high } = model.spread((at.getTime() - now) / DAY_MS);
      return {
        at,
        low: timeToReach(model, volume, high) ?? at,
        high: timeToReach(model, volume, low) ?? latest,
        kind: 'model',
        weights: { model: 1 },
      };
    }
    const kind = candidatesFor(input).find((candidate) => reacherOf(candidate) === judge) ?? 'model';
    return { at, low: at, high: at, kind, weights: { [kind]: 1 } };
  };
}

/** A forecast in `forecastLevel`'s shape whose basis names the model or the simple rule that made it. */
export type CalibratedForecast = Omit<Forecast, 'basis'> & {
  basis: Omit<Forecast['basis'], 'model'> & { model: Forecast['basis']['model'] | BaselineKind };
};

/** The days-to-empty forecast as `forecastLevel` gives it, following the tank's calibration. */
export function forecastCalibrated(
  input: ForecastInput,
  calibration: Calibration | null,
): CalibratedForecast | null {
  // The model learns once, for its own forecast and for the choice (and the day's calibration).
  const model = modelOf(input);
  // The model's own range only where it is the answer: a calibrated one replaces it.
  const point = model && forecastWithoutRange(input, model);
  const modelled = () => point && withModelRange(input, model!, point);
  if (!calibration) return modelled();
  const rules = new Map<BaselineKind, BaselineModel | null>();
  const reacher = calibratedReacher(input, calibration, model, rules);
  const empty = reacher?.(0);
  if (!reacher || !empty) return modelled();
  const shares = Object.entries(empty.weights) as [CandidateKind, number][];
  if (shares.length === 1 && empty.kind === 'model' && point) {
    // The model's own forecast, with the range of its errors on this tank where calibrated.
    return { ...point, emptyAtLow: empty.low.toISOString(), emptyAtHigh: empty.high.toISOString() };
  }
  // A blend (or a rule alone): its dates, the shares' use per day, the basis of the largest share
  // (the rules as the reacher learnt them).
  let perDay = 0;
  for (const [kind, share] of shares) {
    const made = kind === 'model' ? point?.perDay : rulePerDay(rules.get(kind as BaselineKind), input.now);
    if (made === undefined) return modelled();
    perDay += share * made;
  }
  const basis = empty.kind === 'model' ? point?.basis : rules.get(empty.kind as BaselineKind)?.basis;
  if (!basis) return modelled();
  const reorderAt =
    input.reorderPct === null || !Number.isFinite(input.reorderPct)
      ? null
      : (reacher((input.capacity * input.reorderPct) / 100)?.at ?? null);
  return {
    emptyAt: empty.at.toISOString(),
    reorderAt: reorderAt?.toISOString() ?? null,
    emptyAtLow: empty.low.toISOString(),
    emptyAtHigh: empty.high.toISOString(),
    perDay,
    basis,
  };
}

/** A rule's expected use per day over the next 30 days (as `forecastBaseline` says it). */
function rulePerDay(rule: BaselineModel | null | undefined, now: Date): number | undefined {
  if (!rule) return undefined;
  const today = germanDayNumber(now);
  let next30 = 0;
  for (let day = today; day < today + 30; day++) next30 += rule.useOnDay(day);
  return next30 / 30;
}

/** How many readings lie at or before `at` (epoch ms; readings ascend). */
function countUpTo(points: readonly LevelPoint[], at: number): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (points[middle].at.getTime() <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

function quantile(sorted: readonly number[], probability: number): number {
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}
