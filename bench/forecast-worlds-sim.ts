// The synthetic worlds of bench/forecast-worlds.ts: weather, calendars, tanks and their readings,
// written here on purpose without the forecaster's synthetic series or its degree-day model (the
// only things taken from the server are calendar helpers: time/day-numbers.ts's days and instants).
//
// A tank is a mean use per German day as a function of the day and the site's daily mean
// temperature (`demand`), times a log-normal day-to-day factor. The world draws one realised
// history per tank (weather, use, refills, readings with noise and faults); the futures continue
// from a forecast origin with the same tank and the same weather state at the origin, but fresh
// weather and fresh day-to-day factors.
import { gaussian, mulberry32 } from '@tankportal/shared/random';
import { dayFromKey, fromLocalDays } from '../packages/server/src/time/day-numbers.ts';

export type Random = () => number;
const DAY_MS = 86_400_000;
const TAU = 2 * Math.PI;

const between = (random: Random, low: number, high: number) => low + (high - low) * random();
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

// --- Calendar ------------------------------------------------------------------------------------

/** Easter Sunday of a year (anonymous Gregorian algorithm), as a day number. */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** Regions by their extra public holidays (the federal states grouped). */
export type Region = 'south' | 'west' | 'north-east';

const holidayCache = new Map<string, Set<number>>();
/** German public holidays of a year in a region, as day numbers. */
function holidays(year: number, region: Region): Set<number> {
  const key = `${year}:${region}`;
  let days = holidayCache.get(key);
  if (!days) {
    const date = (month: number, day: number) => Date.UTC(year, month - 1, day) / DAY_MS;
    const e = easter(year);
    days = new Set([
      date(1, 1),
      e - 2,
      e + 1,
      date(5, 1),
      e + 39,
      e + 50,
      date(10, 3),
      date(12, 25),
      date(12, 26),
    ]);
    if (region === 'south') [date(1, 6), e + 60, date(11, 1)].forEach((day) => days!.add(day));
    if (region === 'west') [e + 60, date(11, 1)].forEach((day) => days!.add(day));
    if (region === 'north-east') days.add(date(10, 31));
    holidayCache.set(key, days);
  }
  return days;
}

export interface CalendarDay {
  year: number;
  /** 0 … 11. */
  month: number;
  dayOfMonth: number;
  /** 0 … 365. */
  dayOfYear: number;
  /** 0 = Sunday. */
  weekday: number;
}

const calendarCache = new Map<number, CalendarDay>();
export function calendar(day: number): CalendarDay {
  let entry = calendarCache.get(day);
  if (!entry) {
    const date = new Date(day * DAY_MS);
    const year = date.getUTCFullYear();
    entry = {
      year,
      month: date.getUTCMonth(),
      dayOfMonth: date.getUTCDate(),
      dayOfYear: day - Date.UTC(year, 0, 1) / DAY_MS,
      weekday: date.getUTCDay(),
    };
    calendarCache.set(day, entry);
  }
  return entry;
}

export function isHoliday(day: number, region: Region): boolean {
  return holidays(calendar(day).year, region).has(day);
}

/** 24 December … 1 January (the weeks between the years many businesses close). */
export function isChristmasBreak(day: number): boolean {
  const { month, dayOfMonth } = calendar(day);
  return (month === 11 && dayOfMonth >= 24) || (month === 0 && dayOfMonth === 1);
}

// --- Weather -------------------------------------------------------------------------------------

/** A site's climate and the character of its weather. */
export interface Climate {
  /** Annual mean (°C). */
  meanC: number;
  /** Half the difference between the warmest and the coldest day of the mean year (K). */
  amplitudeC: number;
  /** Days the coldest day of the mean year lies after 16 January. */
  lagDays: number;
  /** Spells: multi-day anomalies of this standard deviation (K) lasting on average this many days. */
  spellSdC: number;
  spellMeanDays: number;
  /** Day-to-day weather on top: AR(1) with this standard deviation and persistence. */
  dailySdC: number;
  persistence: number;
}

export interface WeatherState {
  spell: number;
  spellLeft: number;
  ar: number;
}

const JANUARY_16 = dayFromKey('2000-01-16');

export function climateMean(climate: Climate, day: number): number {
  return (
    climate.meanC - climate.amplitudeC * Math.cos((TAU * (day - JANUARY_16 - climate.lagDays)) / 365.2425)
  );
}

/** The next day's mean temperature; advances the state. */
export function nextTemperature(climate: Climate, state: WeatherState, day: number, random: Random): number {
  if (state.spellLeft <= 0) {
    state.spellLeft = Math.max(3, Math.round(-climate.spellMeanDays * Math.log(1 - random())));
    state.spell = 0.3 * state.spell + Math.sqrt(1 - 0.09) * climate.spellSdC * gaussian(random);
  }
  state.spellLeft--;
  const p = climate.persistence;
  state.ar = p * state.ar + Math.sqrt(1 - p * p) * climate.dailySdC * gaussian(random);
  return climateMean(climate, day) + state.spell + state.ar;
}

export interface Site {
  name: string;
  climate: Climate;
  region: Region;
}

/** A site's realised weather: temperature and the state at the start of each day. */
export interface SiteWeather {
  firstDay: number;
  temperature: Float64Array;
  states: WeatherState[];
}

export function realiseWeather(site: Site, firstDay: number, days: number, random: Random): SiteWeather {
  const state: WeatherState = { spell: 0, spellLeft: 0, ar: 0 };
  const temperature = new Float64Array(days);
  const states: WeatherState[] = [];
  for (let i = 0; i < days; i++) {
    states.push({ ...state });
    temperature[i] = nextTemperature(site.climate, state, firstDay + i, random);
  }
  return { firstDay, temperature, states };
}

// --- Tanks ---------------------------------------------------------------------------------------

export type Content = 'heating' | 'process';

export interface TankSpec {
  world: string;
  name: string;
  content: Content;
  /** What it is, for the report: 'heating oil, linear below 14.2 °C', 'flour, bakery', … */
  label: string;
  capacity: number;
  site: Site;
  /** Mean use on a German day at a daily mean temperature (volume units). */
  demand(day: number, temperatureC: number): number;
  /** Standard deviation of the log of the day-to-day factor. */
  dailyNoise: number;
  readings: {
    everyHours: number;
    /** Relative spread of the interval (uniform ±). */
    jitter: number;
    /** Standard deviation of the sensor noise, share of the capacity. */
    noiseShare: number;
    /** Share of readings lost. */
    dropShare: number;
    /** Share of readings that are stray values. */
    strayShare: number;
    /** Day ranges [from, to) without any reading. */
    outages: [number, number][];
  };
  refill: { belowShare: number; toShare: [number, number]; delayDays: [number, number] };
  /** First day of the history. */
  firstDay: number;
}

export interface TankHistory {
  spec: TankSpec;
  /** Realised use per day from `spec.firstDay` (demand, whether or not the tank had it). */
  use: Float64Array;
  /** Level at the start of each day, and a refill within the day: [fraction of the day, level after]. */
  startLevel: Float64Array;
  refills: Map<number, [number, number]>;
  readings: { at: Date; volume: number }[];
  weather: SiteWeather;
}

/** The true level at a fractional local day. */
export function trueLevel(history: TankHistory, u: number): number {
  const i = Math.floor(u) - history.spec.firstDay;
  const fraction = u - Math.floor(u);
  const refill = history.refills.get(i);
  if (refill && refill[0] <= fraction) return refill[1] - history.use[i] * (fraction - refill[0]);
  return history.startLevel[i] - history.use[i] * fraction;
}

function logNormalFactor(sigma: number, random: Random): number {
  return Math.exp(sigma * gaussian(random) - (sigma * sigma) / 2);
}

/** Simulates a tank from `spec.firstDay` for `days` days on its site's realised weather. */
export function simulateHistory(
  spec: TankSpec,
  weather: SiteWeather,
  days: number,
  seed: number,
): TankHistory {
  const random = mulberry32(seed);
  const use = new Float64Array(days);
  const startLevel = new Float64Array(days);
  const refills = new Map<number, [number, number]>();
  const { capacity, refill } = spec;
  let level = capacity * between(random, 0.5, 0.95);
  let refillDay = -1;
  for (let i = 0; i < days; i++) {
    const day = spec.firstDay + i;
    const temperature = weather.temperature[day - weather.firstDay];
    use[i] = spec.demand(day, temperature) * logNormalFactor(spec.dailyNoise, random);
    startLevel[i] = level;
    if (i === refillDay) {
      const fraction = between(random, 0.3, 0.7);
      const after = capacity * between(random, refill.toShare[0], refill.toShare[1]);
      refills.set(i, [fraction, after]);
      level = after - use[i] * (1 - fraction);
      refillDay = -1;
    } else level -= use[i];
    level = Math.max(0, level);
    if (refillDay < 0 && level < refill.belowShare * capacity)
      refillDay = i + Math.round(between(random, refill.delayDays[0], refill.delayDays[1]));
  }
  const history: TankHistory = { spec, use, startLevel, refills, readings: [], weather };
  const { everyHours, jitter, noiseShare, dropShare, strayShare, outages } = spec.readings;
  const end = spec.firstDay + days;
  for (
    let u = spec.firstDay + random();
    u < end;
    u += (everyHours / 24) * (1 + jitter * (2 * random() - 1))
  ) {
    if (random() < dropShare) continue;
    if (outages.some(([from, to]) => u >= from && u < to)) continue;
    let volume = Math.max(0, trueLevel(history, u)) + noiseShare * capacity * gaussian(random);
    if (random() < strayShare)
      volume = pick(random, [0, capacity * random(), volume * between(random, 0.85, 1.15)]);
    history.readings.push({ at: fromLocalDays(u), volume: Math.round(volume * 10) / 10 });
  }
  return history;
}

/**
 * The futures from an origin (fractional local day): for each, when its use from the origin on
 * first reaches each of `amounts` (fractional local days; Infinity when not within `maxDays`).
 * Weather continues from the site's state at the start of the origin's day.
 */
export function futureCrossings(
  history: TankHistory,
  origin: number,
  amounts: number[],
  futures: number,
  maxDays: number,
  seed: number,
): Float64Array[] {
  const random = mulberry32(seed);
  const { spec, weather } = history;
  const originDay = Math.floor(origin);
  const largest = Math.max(...amounts);
  const crossings = amounts.map(() => new Float64Array(futures).fill(Infinity));
  for (let f = 0; f < futures; f++) {
    const state = { ...weather.states[originDay - weather.firstDay] };
    let used = 0;
    for (let day = originDay; day < originDay + maxDays && used < largest; day++) {
      const temperature = nextTemperature(spec.site.climate, state, day, random);
      const rate = spec.demand(day, temperature) * logNormalFactor(spec.dailyNoise, random);
      const from = Math.max(day, origin);
      const piece = rate * (day + 1 - from);
      for (let a = 0; a < amounts.length; a++)
        if (crossings[a][f] === Infinity && used + piece >= amounts[a])
          crossings[a][f] = from + (amounts[a] - used) / rate;
      used += piece;
    }
  }
  return crossings;
}

/** What the realised history used between two fractional local days. */
export function usedBetween(history: TankHistory, from: number, to: number): number {
  let used = 0;
  for (let u = from; u < to;) {
    const day = Math.floor(u);
    const next = Math.min(day + 1, to);
    used += history.use[day - history.spec.firstDay] * (next - u);
    u = next;
  }
  return used;
}

// --- The worlds ----------------------------------------------------------------------------------

export interface WorldOptions {
  seed: number;
  heating: number;
  process: number;
  /** Day number of the first forecast origin's month (the evaluation year starts here). */
  evaluationFrom: number;
}

export interface World {
  name: string;
  title: string;
  description: string;
  sites: Site[];
  tanks: TankSpec[];
}

const REGIONS: readonly Region[] = ['south', 'west', 'north-east'];

/** A German-like site: the country's mean climate within ±1 K, a little of its own. */
function ordinarySite(random: Random, index: number): Site {
  return {
    name: `site ${index + 1}`,
    region: pick(random, REGIONS),
    climate: {
      meanC: 9.3 + between(random, -1, 1),
      amplitudeC: between(random, 8, 9.5),
      lagDays: between(random, -5, 10),
      spellSdC: 1.5,
      spellMeanDays: 6,
      dailySdC: 2.5,
      persistence: 0.75,
    },
  };
}

/** A site with its own climate: colder or warmer, continental or maritime, long spells. */
function ownClimateSite(random: Random, index: number): Site {
  return {
    name: `site ${index + 1}`,
    region: pick(random, REGIONS),
    climate: {
      meanC: 9.3 + between(random, -4, 2),
      amplitudeC: between(random, 6, 11),
      lagDays: between(random, -5, 20),
      spellSdC: between(random, 2.5, 3.5),
      spellMeanDays: between(random, 12, 25),
      dailySdC: 2,
      persistence: 0.7,
    },
  };
}

/** Sum over a mean year of a per-day quantity of the climate mean (for scaling use to a yearly total). */
function yearSum(climate: Climate, perDay: (temperatureC: number) => number): number {
  let sum = 0;
  // Add the weather's spread: average over a few quantiles of the day's temperature.
  const spread = Math.hypot(climate.spellSdC, climate.dailySdC);
  const offsets = [-1.5, -0.5, 0.5, 1.5].map((z) => z * spread * 0.8);
  for (let day = 0; day < 365; day++) {
    const mean = climateMean(climate, JANUARY_16 + day);
    sum += offsets.reduce((total, offset) => total + perDay(mean + offset), 0) / offsets.length;
  }
  return sum;
}

interface HeatingLaw {
  label: string;
  /** Heating use per day at a temperature, before scaling (≥ 0). */
  shape: (temperatureC: number) => number;
}

/** Linear below a per-building heating limit, or the GTZ 20/15 shape (the jump at 15 °C). */
function heatingLaw(random: Random, gtzShare: number): HeatingLaw {
  if (random() < gtzShare) return { label: 'GTZ 20/15 shape', shape: (t) => (t < 15 ? 20 - t : 0) };
  const limit = between(random, 12, 18);
  return { label: `linear below ${limit.toFixed(1)} °C`, shape: (t) => Math.max(0, limit - t) };
}

function readingsOf(random: Random, faults: 'few' | 'many', firstDay: number, lastDay: number) {
  const outages: [number, number][] = [];
  if (faults === 'many') {
    const count = Math.floor(between(random, 0, 3));
    for (let i = 0; i < count; i++) {
      const from = Math.floor(between(random, firstDay + 30, lastDay - 30));
      outages.push([from, from + Math.round(between(random, 5, 35))]);
    }
  }
  return {
    everyHours: between(random, 4, 24),
    jitter: 0.3,
    noiseShare: between(random, 0.002, 0.01),
    dropShare: faults === 'many' ? between(random, 0.1, 0.3) : 0.03,
    strayShare: faults === 'many' ? between(random, 0.01, 0.03) : 0.002,
    outages,
  };
}

/** From a day on, the building heats from `limitK` warmer on and uses `baseFactor` × the base. */
interface HeatingShift {
  at: number;
  limitK: number;
  baseFactor: number;
}

function heatingTank(
  world: string,
  index: number,
  random: Random,
  site: Site,
  firstDay: number,
  lastDay: number,
  law: HeatingLaw,
  options: {
    business?: boolean;
    faults?: 'few' | 'many';
    factor?: (day: number) => number;
    label?: string;
    shift?: HeatingShift;
  } = {},
): TankSpec {
  const yearly = options.business ? between(random, 5_000, 14_000) : between(random, 1_400, 4_500);
  const baseShare = between(random, 0.08, 0.25);
  const heatingSum = yearSum(site.climate, law.shape);
  const base = (yearly * baseShare) / 365;
  const k = (yearly * (1 - baseShare)) / heatingSum;
  const capacity = Math.round((yearly * between(random, 0.6, 1.6)) / 100) * 100;
  const factor = options.factor ?? (() => 1);
  const shift = options.shift;
  return {
    world,
    name: `${world} heating ${index + 1}`,
    content: 'heating',
    label: `${options.business ? 'business' : 'household'} heating oil, ${law.label}${options.label ? `, ${options.label}` : ''}`,
    capacity,
    site,
    demand: (day, t) =>
      shift && day >= shift.at
        ? factor(day) * (base * shift.baseFactor + k * law.shape(t - shift.limitK))
        : factor(day) * (base + k * law.shape(t)),
    dailyNoise: between(random, 0.08, 0.18),
    readings: readingsOf(random, options.faults ?? 'few', firstDay, lastDay),
    refill: { belowShare: between(random, 0.15, 0.3), toShare: [0.85, 0.97], delayDays: [1, 10] },
    firstDay,
  };
}

interface ProcessLaw {
  label: string;
  /** Relative use on a day (mean about 1 over a year), before the temperature. */
  pattern: (day: number, temperatureC: number) => number;
}

function weekdayPattern(random: Random): number[] {
  const saturday = between(random, 0.1, 0.6);
  const sunday = between(random, 0, 0.15);
  return [sunday, 1, 1, 1, 1, 1, saturday];
}

function processTank(
  world: string,
  index: number,
  random: Random,
  site: Site,
  firstDay: number,
  lastDay: number,
  law: ProcessLaw,
  options: { faults?: 'few' | 'many'; factor?: (day: number) => number; label?: string } = {},
): TankSpec {
  const capacity = Math.round(between(random, 2_000, 30_000) / 100) * 100;
  // A segment between refills lasts about 3 weeks to 5 months.
  const perDay = (capacity * 0.7) / between(random, 20, 150);
  const factor = options.factor ?? (() => 1);
  return {
    world,
    name: `${world} process ${index + 1}`,
    content: 'process',
    label: `${law.label}${options.label ? `, ${options.label}` : ''}`,
    capacity,
    site,
    demand: (day, t) => perDay * factor(day) * law.pattern(day, t),
    dailyNoise: between(random, 0.12, 0.3),
    readings: readingsOf(random, options.faults ?? 'few', firstDay, lastDay),
    refill: { belowShare: between(random, 0.15, 0.3), toShare: [0.85, 0.97], delayDays: [1, 6] },
    firstDay,
  };
}

/** A working-week business: weekday pattern, closed on public holidays. */
function workingWeek(random: Random, label: string, region: Region): ProcessLaw {
  const week = weekdayPattern(random);
  const weekly = week.reduce((sum, value) => sum + value, 0) / 7;
  return {
    label,
    pattern: (day) => (isHoliday(day, region) ? week[0] : week[calendar(day).weekday]) / weekly,
  };
}

/** History starts 2–13 months before the evaluation year: 14–25 months at its end. */
function historyStart(random: Random, evaluationFrom: number): number {
  return evaluationFrom - Math.round(between(random, 60, 395));
}

export const EVALUATION_DAYS = 365;
/** Days the history runs past the last origin (the longest horizon and a margin). */
export const AFTER_LAST_ORIGIN = 100;

export function buildWorld(name: 'W1' | 'W2' | 'W3' | 'W4', options: WorldOptions): World {
  const random = mulberry32(options.seed);
  const lastDay = options.evaluationFrom + EVALUATION_DAYS + AFTER_LAST_ORIGIN;
  const tanks: TankSpec[] = [];
  const start = () => historyStart(random, options.evaluationFrom);
  if (name === 'W1') {
    const sites = Array.from({ length: 6 }, (_, i) => ordinarySite(random, i));
    for (let i = 0; i < options.heating; i++) {
      const firstDay = start();
      tanks.push(
        heatingTank(name, i, random, pick(random, sites), firstDay, lastDay, heatingLaw(random, 0.35)),
      );
    }
    for (let i = 0; i < options.process; i++) {
      const site = pick(random, sites);
      const law =
        random() < 0.3
          ? { label: 'flour, every day alike', pattern: () => 1 }
          : workingWeek(random, pick(random, ['diesel, working week', 'AdBlue, working week']), site.region);
      tanks.push(processTank(name, i, random, site, start(), lastDay, law));
    }
    return {
      name,
      title: 'W1: heating physics',
      description:
        'ordinary German sites (annual mean 9.3 ± 1 °C, short spells); heating oil use = base (8–25 % of the year) + k · max(0, limit − T) with a per-building heating limit of 12–18 °C, or for about a third of the buildings the GTZ 20/15 shape; process tanks: diesel / AdBlue with a working week, flour every day alike',
      sites,
      tanks,
    };
  }
  if (name === 'W2') {
    const sites = Array.from({ length: 10 }, (_, i) => ownClimateSite(random, i));
    for (let i = 0; i < options.heating; i++) {
      const firstDay = start();
      tanks.push(
        heatingTank(name, i, random, pick(random, sites), firstDay, lastDay, heatingLaw(random, 0.25)),
      );
    }
    for (let i = 0; i < options.process; i++) {
      const site = pick(random, sites);
      const week = workingWeek(random, 'diesel, building firm, half in frost', site.region);
      const law: ProcessLaw =
        random() < 0.5
          ? { label: week.label, pattern: (day, t) => week.pattern(day, t) * (t < 0 ? 0.5 : 1) }
          : {
              label: 'AdBlue, bus depot, every day',
              pattern: (day) => (calendar(day).weekday === 0 ? 0.7 : 1.05),
            };
      tanks.push(processTank(name, i, random, site, start(), lastDay, law));
    }
    return {
      name,
      title: 'W2: sites with their own climate, weather in spells (held out)',
      description:
        'ten sites with annual means 9.3 −4 … +2 °C, amplitudes 6–11 K, seasons up to 20 days late, weather in multi-week spells (12–25 days on average, ±2.5–3.5 K) on top of day-to-day weather; heating oil as in W1 (a quarter GTZ shape); process: a building firm’s diesel (working week, half the use on frost days) and a bus depot’s AdBlue',
      sites,
      tanks,
    };
  }
  if (name === 'W3') {
    const sites = Array.from({ length: 6 }, (_, i) => ordinarySite(random, i));
    for (let i = 0; i < options.heating; i++) {
      const site = pick(random, sites);
      const weekend = between(random, 0.5, 0.75);
      const factor = (day: number) =>
        isChristmasBreak(day)
          ? 0.4
          : isHoliday(day, site.region) || calendar(day).weekday % 6 === 0
            ? weekend
            : 1;
      tanks.push(
        heatingTank(name, i, random, site, start(), lastDay, heatingLaw(random, 0.3), {
          business: true,
          factor,
          label: 'office: setback at weekends, holidays and Christmas',
        }),
      );
    }
    for (let i = 0; i < options.process; i++) {
      const site = pick(random, sites);
      const kind = i % 4;
      let law: ProcessLaw;
      if (kind === 0 || kind === 1) {
        const week = workingWeek(random, '', site.region);
        const content = kind === 0 ? 'diesel' : 'AdBlue';
        law = {
          label: `${content}, haulage yard (closed 24 Dec – 1 Jan and on public holidays, August slack)`,
          pattern: (day, t) =>
            isChristmasBreak(day) ? 0.03 : week.pattern(day, t) * (calendar(day).month === 7 ? 0.8 : 1),
        };
      } else if (kind === 2) {
        const peak = between(random, 1.5, 2);
        law = {
          label: `flour, bakery (December peak ×${peak.toFixed(1)}, closed Sundays and holidays)`,
          pattern: (day) => {
            const { month, dayOfMonth, weekday } = calendar(day);
            if (weekday === 0 || isHoliday(day, site.region) || (month === 11 && dayOfMonth >= 25))
              return 0.05;
            if (month === 11 && dayOfMonth <= 23) return 1 + (peak - 1) * Math.min(1, dayOfMonth / 12);
            if (month === 10 && dayOfMonth >= 20) return 1 + ((peak - 1) * (dayOfMonth - 20)) / 24;
            return month === 0 ? 0.85 : 1;
          },
        };
      } else {
        const swing = between(random, 0.4, 0.7);
        law = {
          label: `car-wash chemicals (summer peak ±${Math.round(swing * 100)} %, busy Saturdays)`,
          pattern: (day) => {
            const { dayOfYear, weekday } = calendar(day);
            if (isHoliday(day, site.region)) return 0.1;
            return (1 + swing * Math.cos((TAU * (dayOfYear - 196)) / 365)) * (weekday === 6 ? 1.6 : 1);
          },
        };
      }
      tanks.push(processTank(name, i, random, site, start(), lastDay, law));
    }
    return {
      name,
      title: 'W3: holidays and seasonal businesses',
      description:
        'ordinary sites in three groups of federal states (their own public holidays); offices heated with oil (setback to 50–75 % at weekends and holidays, 40 % over 24 Dec – 1 Jan); a haulage yard’s diesel and AdBlue (working week, closed 24 Dec – 1 Jan and on holidays, August 20 % slack), bakeries’ flour (December ×1.5–2, closed Sundays and holidays, January −15 %), car washes (summer peak, busy Saturdays)',
      sites,
      tanks,
    };
  }
  // W4: changes of use, behaviour, and faulty data.
  const sites = Array.from({ length: 6 }, (_, i) => ordinarySite(random, i));
  const changeDay = (firstDay: number) => Math.round(between(random, firstDay + 60, lastDay - 90));
  for (let i = 0; i < options.heating; i++) {
    const firstDay = start();
    const site = pick(random, sites);
    const kind = i % 3;
    const at = changeDay(firstDay);
    let factor: (day: number) => number;
    let label: string;
    let shift: HeatingShift | undefined;
    const law = heatingLaw(random, 0.3);
    if (kind === 0) {
      const step = between(random, 1.3, 1.45);
      factor = (day) => (day >= at ? step : 1);
      label = `thermostat raised: +${Math.round((step - 1) * 100)} % from day ${at - firstDay}`;
    } else if (kind === 1) {
      factor = (day) => (day >= at ? 0.7 : 1);
      label = `insulated: −30 % from day ${at - firstDay}`;
    } else {
      factor = () => 1;
      label = `behaviour change from day ${at - firstDay}: heating from 2 K warmer on, base use +50 %`;
      shift = { at, limitK: 2, baseFactor: 1.5 };
    }
    tanks.push(
      heatingTank(name, i, random, site, firstDay, lastDay, law, { faults: 'many', factor, label, shift }),
    );
  }
  for (let i = 0; i < options.process; i++) {
    const firstDay = start();
    const site = pick(random, sites);
    const kind = i % 3;
    const at = changeDay(firstDay);
    const week = workingWeek(
      random,
      pick(random, ['diesel, working week', 'AdBlue, working week']),
      site.region,
    );
    let factor: (day: number) => number;
    let label: string;
    if (kind === 0) {
      const step = between(random, 1.3, 1.45);
      factor = (day) => (day >= at ? step : 1);
      label = `a second truck: +${Math.round((step - 1) * 100)} % from day ${at - firstDay}`;
    } else if (kind === 1) {
      factor = (day) => (day >= at ? 0.7 : 1);
      label = `a customer lost: −30 % from day ${at - firstDay}`;
    } else {
      factor = (day) => (day >= at && calendar(day).weekday === 6 ? 3 : 1);
      label = `Saturday shifts from day ${at - firstDay}`;
    }
    tanks.push(
      processTank(name, i, random, site, firstDay, lastDay, week, { faults: 'many', factor, label }),
    );
  }
  return {
    name,
    title: 'W4: changes of use and faulty data',
    description:
      'ordinary sites; heating oil with one lasting change each (thermostat raised +30–45 %, insulation −30 %, or a behaviour change: heating limit 2 K higher and more base use); diesel / AdBlue with a second truck (+30–45 %), a lost customer (−30 %) or Saturday shifts; all with 10–30 % of reports missing, up to two outages of 5–35 days, 1–3 % stray readings',
    sites,
    tanks,
  };
}
