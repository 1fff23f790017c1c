/**
 * Seeded, realistic tank level series for the forecast's tests and benchmark. Every
 * series comes with its ground truth (the true daily use, the true level, the refills), so that a
 * test can hold a forecast against what really happened. Same seed, same series, on every machine.
 */
import { normalTemperature } from './degree-days.ts';
import { dayFromKey, dayKey, fromLocalDays, localDays, weekdayOf } from '../time/day-numbers.ts';
import type { ForecastInput, LevelPoint } from './forecast.ts';
import { gaussian, mulberry32 } from '@tankportal/shared/random';

const between = (random: () => number, low: number, high: number) => low + (high - low) * random();
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

// --- Weather ----------------------------------------------------------------------------------

export interface WeatherOptions {
  seed: number;
  /** First day, 'YYYY-MM-DD' (German calendar day). */
  from: string;
  days: number;
  /** °C added in midwinter (full in mid-January, fading out by mid-November and mid-March). */
  winterAnomalyC?: number;
  /** °C added in autumn (full in mid-October, fading out by late August and late November). */
  autumnAnomalyC?: number;
  /** The seasons come this many days later than normal (negative: earlier). */
  seasonShiftDays?: number;
  /** A constant offset (°C), e.g. a location's altitude. */
  offsetC?: number;
  /** Day-to-day weather: the standard deviation (°C) and the day-to-day persistence of an AR(1). */
  spreadC?: number;
  persistence?: number;
}

/** Daily mean temperatures by German day: the normals, the options' anomalies and AR(1) weather. */
export function syntheticWeather(options: WeatherOptions): Map<string, number> {
  const random = mulberry32(options.seed);
  const spread = options.spreadC ?? 3.5;
  const persistence = options.persistence ?? 0.8;
  const innovation = spread * Math.sqrt(1 - persistence ** 2);
  const first = dayFromKey(options.from);
  const temperatures = new Map<string, number>();
  let weather = spread * gaussian(random);
  for (let day = first; day < first + options.days; day++) {
    weather = persistence * weather + innovation * gaussian(random);
    const value =
      normalTemperature(day - (options.seasonShiftDays ?? 0)) +
      (options.winterAnomalyC ?? 0) * seasonalBump(day, 15, 60) +
      (options.autumnAnomalyC ?? 0) * seasonalBump(day, 288, 45) +
      (options.offsetC ?? 0) +
      weather;
    temperatures.set(dayKey(day), Math.round(value * 10) / 10);
  }
  return temperatures;
}

/** 1 on the given day of the year, falling off as a raised cosine to 0 at ± halfWidth days. */
function seasonalBump(day: number, centreDayOfYear: number, halfWidth: number): number {
  const date = new Date(day * 86_400_000);
  const dayOfYear = (day - Math.round(Date.UTC(date.getUTCFullYear(), 0, 1) / 86_400_000)) % 365;
  const offset = Math.abs(dayOfYear - centreDayOfYear);
  const distance = Math.min(offset, 365 - offset);
  return distance >= halfWidth ? 0 : 0.5 * (1 + Math.cos((Math.PI * distance) / halfWidth));
}

// --- Tanks ------------------------------------------------------------------------------------

export interface SyntheticTank {
  kind: 'heating' | 'process';
  /** Ready to forecast, `now` at the last reading. */
  input: ForecastInput;
  truth: {
    /** Day number (degree-days.ts) of dailyUse[0]. */
    firstDay: number;
    /** What was really used on each German day. */
    dailyUse: Float64Array;
    refills: Date[];
    /** The true level (without noise, thermal expansion or stray readings) at an instant. */
    levelAt(at: Date): number;
    /** The consumption law the series was drawn from. */
    basePerDay: number;
    perDegreeDay: number;
    weekdayFactors: readonly number[] | null;
  };
}

export interface TankOptions {
  seed: number;
  /** First day, 'YYYY-MM-DD'. */
  from: string;
  days: number;
  /** The weather at the tank (also handed to the forecast as measured temperatures). */
  temperatures: Map<string, number>;
  capacity?: number;
  /** Level at the start, share of capacity. */
  startShare?: number;
  /** Refill ordered when the level falls below this percentage of the capacity. */
  reorderPct?: number;
  /** Hours between readings (each drawn ±40 % around it). */
  readingHours?: number;
  /** Sensor noise: readings are off by up to this share of the capacity (uniform). */
  noiseShare?: number;
  /** Chance per reading that the next ones are lost for 3–21 days. */
  gapChance?: number;
  /** Share of readings that are stray (anywhere between empty and full). */
  outlierRate?: number;
  /** Day-to-day variation of the use (standard deviation, share of the day's use). */
  dailyNoise?: number;
}

export interface HeatingTankOptions extends TankOptions {
  /** Use in a normal year (volume units). */
  annualUse?: number;
  /** Share of the annual use that does not depend on the weather (hot water). */
  baseShare?: number;
  /** The tank stands outdoors: its content follows the weather and expands (0.084 %/K). */
  outdoors?: boolean;
  /** Now and then a refill in summer while the level is still about half (cheap oil). */
  summerTopUps?: boolean;
}

export interface ProcessTankOptions extends TankOptions {
  /** Mean use per working day (Monday to Friday; Saturday and Sunday less). */
  perWorkday?: number;
  /** Relative use per weekday, Sunday first (drawn when absent). */
  weekdayFactors?: readonly number[];
  /** Weeks per year in which the plant stands still. */
  shutdownWeeksPerYear?: number;
}

/** Heating oil for space heating: base + k · degree days, with the family's day-to-day variation. */
export function syntheticHeatingTank(options: HeatingTankOptions): SyntheticTank {
  const random = mulberry32(options.seed);
  const capacity = options.capacity ?? pick(random, [3_000, 5_000, 6_000, 8_000, 10_000]);
  const annualUse = options.annualUse ?? capacity * between(random, 0.6, 1.1);
  const baseShare = options.baseShare ?? between(random, 0.05, 0.25);
  // A normal German year counts about 3,760 degree days (degree-days.ts).
  const basePerDay = (annualUse * baseShare) / 365;
  const perDegreeDay = (annualUse * (1 - baseShare)) / 3_760;
  const first = dayFromKey(options.from);
  const temperatureOf = (day: number) => options.temperatures.get(dayKey(day)) ?? normalTemperature(day);
  const plannedUse = (day: number) => {
    const temperature = temperatureOf(day);
    const degreeDays = temperature < 15 ? 20 - temperature : 0;
    return basePerDay + perDegreeDay * degreeDays;
  };
  const outdoors = options.outdoors ?? random() < 0.3;
  let tankTemperature = temperatureOf(first);
  const expansion = (day: number) => {
    // An outdoor tank follows the weather within days, a cellar tank hardly.
    tankTemperature += (outdoors ? 0.25 : 0.03) * (temperatureOf(day) - tankTemperature);
    return 1 + 0.00084 * (tankTemperature - 15);
  };
  return simulateTank('heating', options, random, capacity, plannedUse, expansion, {
    summerTopUps: options.summerTopUps ?? random() < 0.3,
    delayDays: [1, 10],
    truth: { basePerDay, perDegreeDay, weekdayFactors: null },
  });
}

/** Diesel, AdBlue, flour: a working-week rhythm, a little season, and shutdown weeks. */
export function syntheticProcessTank(options: ProcessTankOptions): SyntheticTank {
  const random = mulberry32(options.seed);
  const capacity = options.capacity ?? pick(random, [5_000, 10_000, 20_000, 25_000]);
  // Sized so that a refill lasts three to ten weeks.
  const perWorkday = options.perWorkday ?? (capacity * 0.65) / (between(random, 3, 10) * 5.5);
  const factors = options.weekdayFactors ?? [
    between(random, 0, 0.15),
    ...Array.from({ length: 5 }, () => between(random, 0.9, 1.1)),
    between(random, 0.2, 0.6),
  ];
  const seasonAmplitude = between(random, 0, 0.15);
  const seasonPhase = between(random, 0, 2 * Math.PI);
  const first = dayFromKey(options.from);
  const shutdowns = new Set<number>();
  const weeksPerYear = options.shutdownWeeksPerYear ?? (random() < 0.6 ? 1 : 2);
  for (let year = 0; year * 365 < options.days; year++)
    for (let week = 0; week < weeksPerYear; week++) {
      const start = first + year * 365 + Math.floor(random() * 358);
      for (let day = start; day < start + 7; day++) shutdowns.add(day);
    }
  const plannedUse = (day: number) => {
    if (shutdowns.has(day)) return 0.03 * perWorkday;
    const season = 1 + seasonAmplitude * Math.sin((2 * Math.PI * (day - first)) / 365.25 + seasonPhase);
    return perWorkday * factors[weekdayOf(day)] * season;
  };
  const mean = factors.reduce((sum, factor) => sum + factor, 0) / 7;
  return simulateTank('process', options, random, capacity, plannedUse, () => 1, {
    summerTopUps: false,
    delayDays: [0, 3],
    truth: {
      basePerDay: perWorkday * mean,
      perDegreeDay: 0,
      weekdayFactors: factors.map((factor) => factor / mean),
    },
  });
}

interface SimulationRules {
  summerTopUps: boolean;
  /** Days from falling below the reorder level to the delivery. */
  delayDays: [number, number];
  truth: Pick<SyntheticTank['truth'], 'basePerDay' | 'perDegreeDay' | 'weekdayFactors'>;
}

/**
 * Day by day: the day's use (planned × variation, never below empty), a refill to 85–95 % some
 * days after the level fell below the reorder level, readings at irregular times with gaps,
 * noise and now and then a stray value.
 */
function simulateTank(
  kind: SyntheticTank['kind'],
  options: TankOptions,
  random: () => number,
  capacity: number,
  plannedUse: (day: number) => number,
  expansion: (day: number) => number,
  rules: SimulationRules,
): SyntheticTank {
  const first = dayFromKey(options.from);
  const { days } = options;
  const reorderPct = options.reorderPct ?? Math.round(between(random, 15, 30));
  const dailyNoise = options.dailyNoise ?? (kind === 'heating' ? 0.15 : 0.2);
  // Per day: the level at 00:00, the pace of use, what was used, and an optional refill (its time
  // of day as a share of the day, and the level it left).
  const startLevel = new Float64Array(days);
  const pace = new Float64Array(days);
  const dailyUse = new Float64Array(days);
  const refillShare = new Float64Array(days).fill(-1);
  const refillTo = new Float64Array(days);
  const expansionOf = new Float64Array(days);
  const refills: Date[] = [];
  let level = capacity * (options.startShare ?? between(random, 0.4, 0.9));
  let deliveryDay = -1;
  for (let i = 0; i < days; i++) {
    const day = first + i;
    startLevel[i] = level;
    expansionOf[i] = expansion(day);
    const rate = Math.max(0, plannedUse(day) * (1 + dailyNoise * gaussian(random)));
    pace[i] = rate;
    if (i === deliveryDay) {
      const share = between(random, 0.3, 0.7);
      refillShare[i] = share;
      refillTo[i] = capacity * between(random, 0.85, 0.95);
      refills.push(fromLocalDays(day + share));
      dailyUse[i] = Math.min(level, rate * share) + rate * (1 - share);
      level = refillTo[i] - rate * (1 - share);
      deliveryDay = -1;
    } else {
      dailyUse[i] = Math.min(level, rate);
      level -= dailyUse[i];
    }
    const topUp = rules.summerTopUps && isSummer(day) && level < 0.45 * capacity && random() < 0.01;
    if (deliveryDay < 0 && (level < (capacity * reorderPct) / 100 || topUp))
      deliveryDay = i + 1 + Math.round(between(random, ...rules.delayDays));
  }

  const levelAt = (at: Date) => {
    const u = localDays(at);
    const i = Math.min(days - 1, Math.max(0, Math.floor(u) - first));
    const share = Math.min(1, u - first - i);
    if (refillShare[i] < 0 || share < refillShare[i]) return Math.max(0, startLevel[i] - pace[i] * share);
    return refillTo[i] - pace[i] * (share - refillShare[i]);
  };

  const points: LevelPoint[] = [];
  const hours = options.readingHours ?? pick(random, [4, 6, 8, 12, 24]);
  const noise = (options.noiseShare ?? 0.005) * capacity;
  const gapChance = options.gapChance ?? 0.002;
  const outlierRate = options.outlierRate ?? 0.001;
  for (let u = first + random() * (hours / 24); u < first + days;) {
    const at = fromLocalDays(u);
    const i = Math.floor(u) - first;
    let volume = levelAt(at) * expansionOf[i] + noise * (2 * random() - 1);
    if (random() < outlierRate) volume = capacity * random();
    points.push({ at, volume: Math.round(Math.max(0, volume) * 10) / 10 });
    u += (hours / 24) * between(random, 0.6, 1.4);
    if (random() < gapChance) u += between(random, 3, 21);
  }
  return {
    kind,
    input: {
      points,
      capacity,
      reorderPct,
      heating: kind === 'heating',
      temperatures: options.temperatures,
      now: points.at(-1)!.at,
    },
    truth: { firstDay: first, dailyUse, refills, levelAt, ...rules.truth },
  };
}

function isSummer(day: number): boolean {
  const month = new Date(day * 86_400_000).getUTCMonth();
  return month >= 5 && month <= 7;
}

// --- Fleets -----------------------------------------------------------------------------------

export interface FleetOptions {
  seed: number;
  count: number;
  /** First day, 'YYYY-MM-DD', and length of every series. */
  from: string;
  days: number;
  /** Share of heating tanks (the rest are process tanks). */
  heatingShare?: number;
  /** The year's weather: anomalies shared by all locations (see WeatherOptions). */
  weather?: Pick<WeatherOptions, 'winterAnomalyC' | 'autumnAnomalyC' | 'seasonShiftDays' | 'spreadC'>;
  /** Places with weather of their own (each a few tenths of a degree off and with local weather). */
  locations?: number;
  readingHours?: number;
}

/**
 * A fleet in the demo's mould (packages/server/src/seed/demo-fleet.ts): heating oil tanks of
 * 3,000–10,000 l, diesel, AdBlue and flour for the rest, spread over a few places in Germany.
 */
export function syntheticFleet(options: FleetOptions): SyntheticTank[] {
  const random = mulberry32(options.seed);
  const places = Array.from({ length: options.locations ?? 12 }, (_, place) =>
    syntheticWeather({
      ...options.weather,
      seed: options.seed * 1_000 + place,
      from: options.from,
      days: options.days,
      offsetC: between(random, -1.5, 1),
    }),
  );
  return Array.from({ length: options.count }, (_, index) => {
    const common = {
      seed: options.seed * 100_003 + index,
      from: options.from,
      days: options.days,
      temperatures: pick(random, places),
      readingHours: options.readingHours,
    };
    return random() < (options.heatingShare ?? 0.6)
      ? syntheticHeatingTank(common)
      : syntheticProcessTank(common);
  });
}
