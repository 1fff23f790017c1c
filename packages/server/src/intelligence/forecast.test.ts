import { describe, expect, it } from 'vitest';
import { heatingDegreeDays, normalDegreeDays, normalTemperature } from './degree-days.ts';
import { dayKey, localDays } from '../time/day-numbers.ts';
import {
  FORECAST_RULES,
  forecastLevel,
  hourlyReadings,
  learnConsumption,
  segmentStarts,
  type ForecastInput,
  type LevelPoint,
} from './forecast.ts';
import { mulberry32 } from '@tankportal/shared/random';
import { dayKind, type FederalState } from './calendar.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Use between two instants at a per-German-day rate, even within each day (as the model assumes). */
function usedBetween(from: Date, to: Date, perDay: (day: number) => number): number {
  let used = 0;
  const end = localDays(to);
  for (let u = localDays(from); u < end;) {
    const day = Math.floor(u);
    const next = Math.min(day + 1, end);
    used += perDay(day) * (next - u);
    u = next;
  }
  return used;
}

interface Simulation {
  from: string;
  to: string;
  everyHours: number;
  start: number;
  perDay: (day: number) => number;
  refillBelow?: number;
  refillTo?: number;
  /** Extra noise per reading (volume units). */
  noise?: (index: number) => number;
}

/** Readings of a tank used at `perDay`, refilled to `refillTo` at the first reading below `refillBelow`. */
function simulate(options: Simulation): LevelPoint[] {
  const points: LevelPoint[] = [];
  let level = options.start;
  let previous = new Date(options.from);
  for (let t = previous.getTime(); t <= Date.parse(options.to); t += options.everyHours * HOUR) {
    const at = new Date(t);
    level -= usedBetween(previous, at, options.perDay);
    if (options.refillBelow !== undefined && level < options.refillBelow) level = options.refillTo!;
    previous = at;
    points.push({ at, volume: level + (options.noise?.(points.length) ?? 0) });
  }
  return points;
}

/** The true level at an instant after the last reading of a noise-free simulation. */
function levelLater(points: LevelPoint[], at: Date, perDay: (day: number) => number): number {
  const last = points.at(-1)!;
  return last.volume - usedBetween(last.at, at, perDay);
}

function input(points: LevelPoint[], overrides: Partial<ForecastInput> = {}): ForecastInput {
  return {
    points,
    capacity: 10_000,
    reorderPct: 20,
    heating: false,
    temperatures: new Map(),
    ...overrides,
    now: overrides.now ?? points.at(-1)!.at,
  };
}

const days = (later: string, earlier: Date) => (Date.parse(later) - earlier.getTime()) / DAY;
const steady = (perDay: number) => () => perDay;

describe('hourlyReadings: what a forecast learns from a sensor that reports every few minutes', () => {
  // A radar sensor every 10 minutes for 60 days, 1 % noise, refilled once: 8,641 readings.
  const random = mulberry32(7);
  const dense = simulate({
    from: '2025-03-01T00:00:00Z',
    to: '2025-04-30T00:00:00Z',
    everyHours: 1 / 6,
    start: 9_000,
    perDay: (day) => (day % 7 === 3 ? 40 : 160),
    refillBelow: 2_000,
    refillTo: 9_500,
    noise: () => (random() - 0.5) * 200,
  });

  it("keeps one reading of each hour, the hour's median, and leaves sparser readings alone", () => {
    const hourly = hourlyReadings(dense);
    expect(hourly.length).toBeLessThanOrEqual(60 * 24 + 1);
    expect(hourly.length).toBeGreaterThan(60 * 24 - 2);
    // Readings as they came, one per clock hour, in time order.
    for (let i = 1; i < hourly.length; i++) {
      expect(dense).toContain(hourly[i]);
      expect(Math.floor(hourly[i]!.at.getTime() / HOUR)).toBeGreaterThan(
        Math.floor(hourly[i - 1]!.at.getTime() / HOUR),
      );
    }
    const sixHourly = dense.filter((_, index) => index % 36 === 0);
    expect(hourlyReadings(sixHourly)).toBe(sixHourly);
  });

  it('forecasts what every reading forecasts, within a day of 56', () => {
    const every = forecastLevel(input(dense))!;
    const hourly = forecastLevel(input(hourlyReadings(dense)))!;
    expect(Math.abs(Date.parse(hourly.emptyAt) - Date.parse(every.emptyAt)) / HOUR).toBeLessThan(24);
    expect(hourly.perDay).toBeCloseTo(every.perDay, -1);
  });
});

describe('forecastLevel: linear consumption', () => {
  const points = simulate({
    from: '2025-03-01T00:00:00Z',
    to: '2025-04-10T00:00:00Z',
    everyHours: 6,
    start: 9_000,
    perDay: steady(100),
  });
  const now = points.at(-1)!.at;

  it('finds the day the tank runs empty within an hour, and the reorder day', () => {
    const forecast = forecastLevel(input(points))!;
    // 9,000 − 40 days × 100 = 5,000 left: empty in 50 days, 20 % (2,000) in 30.
    expect(days(forecast.emptyAt, now)).toBeCloseTo(50, 1);
    expect(days(forecast.reorderAt!, now)).toBeCloseTo(30, 1);
    expect(forecast.perDay).toBeCloseTo(100, 0);
    expect(forecast.basis).toEqual({
      since: '2025-03-01T00:00:00.000Z',
      days: 40,
      points: points.length,
      model: 'daily_rate',
    });
  });

  it('brackets the median with its range and never dates before now', () => {
    const forecast = forecastLevel(input(points))!;
    expect(Date.parse(forecast.emptyAtLow)).toBeLessThan(Date.parse(forecast.emptyAt));
    expect(Date.parse(forecast.emptyAtHigh)).toBeGreaterThan(Date.parse(forecast.emptyAt));
    expect(Date.parse(forecast.emptyAtLow)).toBeGreaterThan(now.getTime());
  });

  it('answers null without a reorder level for reorderAt only', () => {
    const forecast = forecastLevel(input(points, { reorderPct: null }))!;
    expect(forecast.reorderAt).toBeNull();
    expect(days(forecast.emptyAt, now)).toBeCloseTo(50, 1);
  });

  it('reads unsorted readings like sorted ones', () => {
    const shuffled = [...points].reverse();
    expect(forecastLevel(input(shuffled, { now }))).toEqual(forecastLevel(input(points)));
  });
});

describe('forecastLevel: heating follows degree days', () => {
  // 2 l a day for hot water plus 1.2 l per degree day; the weather is the normals' (no measurements).
  const law = (day: number) => 2 + 1.2 * normalDegreeDays(day);
  const twoWinters = simulate({
    from: '2024-06-01T00:00:00Z',
    to: '2026-03-01T00:00:00Z',
    everyHours: 12,
    start: 5_500,
    refillBelow: 1_200,
    refillTo: 5_700,
    perDay: law,
  });
  const upTo = (iso: string) => twoWinters.filter((point) => point.at <= new Date(iso));

  it('predicts a winter month several times faster than a summer month', () => {
    const winter = forecastLevel(input(upTo('2025-01-15T00:00:00Z'), { capacity: 6_000, heating: true }))!;
    const summer = forecastLevel(input(upTo('2025-07-15T00:00:00Z'), { capacity: 6_000, heating: true }))!;
    expect(winter.basis.model).toBe('degree_days');
    // The law itself: about 25 l a day in the second half of January, about 3.5 l in July.
    const truth = (from: string) =>
      usedBetween(new Date(from), new Date(Date.parse(from) + 30 * DAY), law) / 30;
    expect(winter.perDay).toBeCloseTo(truth('2025-01-15T00:00:00Z'), 0);
    expect(summer.perDay).toBeCloseTo(truth('2025-07-15T00:00:00Z'), 0);
    expect(winter.perDay).toBeGreaterThan(5 * summer.perDay);
  });

  it('hits the empty date of the law within a day, across the seasons', () => {
    for (const cut of ['2025-10-01T00:00:00Z', '2026-02-01T00:00:00Z']) {
      const known = upTo(cut);
      const forecast = forecastLevel(input(known, { capacity: 6_000, heating: true }))!;
      const leftAtEmptyAt = levelLater(known, new Date(forecast.emptyAt), law);
      expect(Math.abs(leftAtEmptyAt)).toBeLessThan(law(Math.floor(localDays(new Date(forecast.emptyAt)))));
    }
  });

  it('made in autumn after a summer only, predicts faster use than the summer rate', () => {
    // A sensor installed in May: no winter seen yet.
    const summerOnly = simulate({
      from: '2025-05-01T00:00:00Z',
      to: '2025-09-30T00:00:00Z',
      everyHours: 12,
      start: 5_000,
      perDay: law,
    });
    const july =
      (summerOnly.find((p) => p.at >= new Date('2025-07-01T00:00:00Z'))!.volume -
        summerOnly.find((p) => p.at >= new Date('2025-08-01T00:00:00Z'))!.volume) /
      31;
    const heating = forecastLevel(input(summerOnly, { capacity: 6_000, heating: true }))!;
    const flat = forecastLevel(input(summerOnly, { capacity: 6_000, heating: false }))!;
    expect(july).toBeLessThan(4);
    // October under the law: about 2 + 1.2 × 10.4 = 14.5 l a day.
    expect(heating.perDay).toBeGreaterThan(3 * july);
    expect(heating.perDay).toBeCloseTo(
      usedBetween(new Date('2025-09-30'), new Date('2025-10-30'), law) / 30,
      0,
    );
    // A model blind to the season keeps September's pace and promises weeks too many.
    expect(Date.parse(flat.emptyAt) - Date.parse(heating.emptyAt)).toBeGreaterThan(30 * DAY);
    const leftAtEmptyAt = levelLater(summerOnly, new Date(heating.emptyAt), law);
    expect(Math.abs(leftAtEmptyAt)).toBeLessThan(30);
  });

  it('uses the measured temperatures of the past: a cold spell since the last reading lowers the level', () => {
    const known = upTo('2025-11-01T00:00:00Z');
    const now = new Date('2025-11-08T00:00:00Z');
    const coldWeek = new Map(Array.from({ length: 7 }, (_, i) => [`2025-11-0${i + 1}`, -10]));
    const normal = forecastLevel(input(known, { capacity: 6_000, heating: true, now }))!;
    const cold = forecastLevel(
      input(known, { capacity: 6_000, heating: true, now, temperatures: coldWeek }),
    )!;
    // Seven days at 30 K·d instead of about 14: some 130 l more used, about a week earlier.
    const earlier = (Date.parse(normal.emptyAt) - Date.parse(cold.emptyAt)) / DAY;
    expect(earlier).toBeGreaterThan(4);
    expect(earlier).toBeLessThan(12);
  });
});

describe('forecastLevel: a site with its own climate', () => {
  // A mountain site 5 K colder than Germany's normal all year, with its weather station's daily means
  // (a slow wiggle of weather around its own normal); the house uses 2 l + 1.2 l per degree day.
  const siteTemperature = (day: number) => normalTemperature(day) - 5 + 2 * Math.sin(day / 9);
  const law = (day: number) => 2 + 1.2 * heatingDegreeDays(siteTemperature(day));
  const points = simulate({
    from: '2023-10-01T00:00:00Z',
    to: '2025-10-01T00:00:00Z',
    everyHours: 12,
    start: 7_500,
    refillBelow: 1_500,
    refillTo: 7_600,
    perDay: law,
  });
  const now = points.at(-1)!.at;
  const measured = new Map<string, number>();
  for (let day = Math.floor(localDays(points[0]!.at)); day < Math.floor(localDays(now)); day++)
    measured.set(dayKey(day), Math.round(siteTemperature(day) * 10) / 10);

  it('is projected with the site’s own normals learnt from its station, not Germany’s', () => {
    const forecast = forecastLevel(
      input(points, { capacity: 8_000, heating: true, temperatures: measured }),
    )!;
    // The day the law empties the tank from the last reading on.
    let day = Math.floor(localDays(now));
    let level = points.at(-1)!.volume;
    while (level > 0) level -= law(++day);
    const trueDays = day - localDays(now);
    const forecastDays = (Date.parse(forecast.emptyAt) - now.getTime()) / DAY;
    // Projected with Germany’s normals (5 K too warm) it came out 76 days late.
    // 168 days ahead, through the winter.
    expect(trueDays).toBeGreaterThan(150);
    expect(Math.abs(forecastDays - trueDays)).toBeLessThan(3);
  });
});

describe('forecastLevel: a building with its own heating limit', () => {
  // A well-insulated house heats only below 13 °C, in proportion to how far below (no jump at the
  // limit, unlike GTZ 20/15): 1.5 l a day for hot water plus 2 l per K below 13 °C.
  const temperature = (day: number) => normalTemperature(day) + 2.5 * Math.sin(day / 6);
  const law = (day: number) => 1.5 + 2 * Math.max(0, 13 - temperature(day));
  const points = simulate({
    from: '2023-09-01T00:00:00Z',
    to: '2025-09-20T00:00:00Z',
    everyHours: 12,
    start: 5_500,
    refillBelow: 1_000,
    refillTo: 5_800,
    perDay: law,
  });
  const measured = new Map<string, number>();
  for (let day = Math.floor(localDays(points[0]!.at)); day < Math.floor(localDays(points.at(-1)!.at)); day++)
    measured.set(dayKey(day), Math.round(temperature(day) * 10) / 10);

  it('learns the limit from its readings instead of assuming 15 °C with a jump', () => {
    // A forecast on the first of every month of the last year, each with the readings up to then.
    const errors: number[] = [];
    for (let month = 0; month < 12; month++) {
      const cut = new Date(Date.UTC(2024, 9 + month, 1));
      const known = points.filter((point) => point.at <= cut);
      const forecast = forecastLevel(
        input(known, { capacity: 6_000, heating: true, temperatures: measured, now: cut }),
      )!;
      let day = Math.floor(localDays(cut));
      let level = levelLater(known, cut, law);
      while (level > 0) level -= law(++day);
      errors.push(Math.abs((Date.parse(forecast.emptyAt) - cut.getTime()) / DAY - (day - localDays(cut))));
    }
    const mean = errors.reduce((sum, error) => sum + error, 0) / errors.length;
    // Assuming GTZ 20/15 these were 8.9 days off on average and 19 at worst (the winter's forecasts,
    // which cross the spring), 100–200 days ahead.
    expect(mean).toBeLessThan(5);
    expect(Math.max(...errors)).toBeLessThan(8);
  });
});

describe('forecastLevel: a lasting change in use', () => {
  const emptyDayError = (
    points: LevelPoint[],
    law: (day: number) => number,
    overrides: Partial<ForecastInput>,
  ) => {
    const now = points.at(-1)!.at;
    const forecast = forecastLevel(input(points, overrides))!;
    let day = Math.floor(localDays(now));
    let level = points.at(-1)!.volume;
    while (level > 0) level -= law(++day);
    return (Date.parse(forecast.emptyAt) - now.getTime()) / DAY - (day - localDays(now));
  };

  it('follows a thermostat raised five weeks ago (a third more oil) at once, not over months', () => {
    const raisedOn = Math.floor(localDays(new Date('2025-12-10T00:00:00Z')));
    const law = (day: number) => (day >= raisedOn ? 1.35 : 1) * (2 + 1.2 * normalDegreeDays(day));
    const points = simulate({
      from: '2023-09-01T00:00:00Z',
      to: '2026-01-15T00:00:00Z',
      everyHours: 12,
      start: 7_000,
      refillBelow: 1_200,
      refillTo: 7_800,
      perDay: law,
    });
    // Learnt from the weighted history alone it came out 80 days late (the two winters before weigh in).
    expect(Math.abs(emptyDayError(points, law, { capacity: 8_000, heating: true }))).toBeLessThan(6);
  });

  it('follows a second truck that came a month ago (40 % more diesel a day)', () => {
    const from = Math.floor(localDays(new Date('2025-10-15T00:00:00Z')));
    const law = (day: number) => (day >= from ? 140 : 100);
    const points = simulate({
      from: '2025-01-01T00:00:00Z',
      to: '2025-11-15T00:00:00Z',
      everyHours: 8,
      start: 9_000,
      refillBelow: 1_500,
      refillTo: 9_500,
      perDay: law,
    });
    // Learnt from the weighted history alone: 23 days late.
    expect(Math.abs(emptyDayError(points, law, { capacity: 10_000 }))).toBeLessThan(2);
  });
});

describe('forecastLevel: refills', () => {
  // 100 a day from 9,000; below 2,000 (on 11 March) refilled to 9,500.
  const points = simulate({
    from: '2025-01-01T00:00:00Z',
    to: '2025-04-10T00:00:00Z',
    everyHours: 6,
    start: 9_000,
    refillBelow: 2_000,
    refillTo: 9_500,
    perDay: steady(100),
  });

  it('takes the level from the data since the last refill and the pace from all segments', () => {
    expect(segmentStarts(points, 10_000)).toHaveLength(2);
    const forecast = forecastLevel(input(points))!;
    const now = points.at(-1)!.at;
    expect(days(forecast.emptyAt, now)).toBeCloseTo(points.at(-1)!.volume / 100, 1);
    expect(forecast.basis.since).toBe('2025-01-01T00:00:00.000Z');
  });

  it('forecasts from an earlier segment’s pace right after a refill', () => {
    const refill = segmentStarts(points, 10_000)[1];
    const justRefilled = points.slice(0, refill + 2);
    const forecast = forecastLevel(input(justRefilled))!;
    const now = justRefilled.at(-1)!.at;
    expect(days(forecast.emptyAt, now)).toBeCloseTo(justRefilled.at(-1)!.volume / 100, 1);
  });

  it('is not fooled by a stray high reading, a slow thermal rise or a reading taken mid-filling', () => {
    const stray = points.slice(0, 100).map((point, i) => (i === 50 ? { ...point, volume: 9_900 } : point));
    expect(segmentStarts(stray, 10_000)).toEqual([0]);
    // 2 % in ten days: warm weather expanding the oil, not a delivery.
    const warming = Array.from({ length: 40 }, (_, i) => ({
      at: new Date(Date.UTC(2025, 5, 1) + i * 6 * HOUR),
      volume: 5_000 + 5 * i,
    }));
    expect(segmentStarts(warming, 10_000)).toEqual([0]);
    const filling = [
      ...Array.from({ length: 10 }, (_, i) => ({
        at: new Date(Date.UTC(2025, 5, 1) + i * 6 * HOUR),
        volume: 2_000 - 20 * i,
      })),
      { at: new Date(Date.UTC(2025, 5, 3, 12, 10)), volume: 5_000 },
      { at: new Date(Date.UTC(2025, 5, 3, 12, 30)), volume: 9_000 },
      { at: new Date(Date.UTC(2025, 5, 3, 18)), volume: 8_980 },
    ];
    expect(segmentStarts(filling, 10_000)).toEqual([0, 11]);
  });
});

describe('forecastLevel: gaps, noise, stale data', () => {
  const noisy = mulberry32(42);
  const points = simulate({
    from: '2025-03-01T00:00:00Z',
    to: '2025-05-01T00:00:00Z',
    everyHours: 8,
    start: 9_500,
    perDay: steady(100),
    // ± 0.5 % of the capacity, and three stray readings
    noise: (i) => (i === 40 || i === 90 || i === 150 ? -3_000 : 50 * (2 * noisy() - 1)),
  });
  const withGap = points.filter(
    (point) => point.at < new Date('2025-03-20T00:00:00Z') || point.at > new Date('2025-04-09T00:00:00Z'),
  );
  const trueEmpty = Date.parse('2025-03-01T00:00:00Z') + 95 * DAY;

  it('stays within a day of the truth through noise and stray readings', () => {
    expect(segmentStarts(points, 10_000)).toEqual([0]);
    const forecast = forecastLevel(input(points))!;
    expect(Math.abs(Date.parse(forecast.emptyAt) - trueEmpty)).toBeLessThan(DAY);
  });

  it('bridges a gap of three weeks', () => {
    const forecast = forecastLevel(input(withGap))!;
    expect(Math.abs(Date.parse(forecast.emptyAt) - trueEmpty)).toBeLessThan(DAY);
  });

  it('carries the level on to a later now, and gives up when the last reading is too old', () => {
    const lastAt = points.at(-1)!.at.getTime();
    const later = forecastLevel(input(points, { now: new Date(lastAt + 10 * DAY) }))!;
    expect(Math.abs(Date.parse(later.emptyAt) - trueEmpty)).toBeLessThan(DAY);
    const stale = new Date(lastAt + (FORECAST_RULES.staleDays + 1) * DAY);
    expect(forecastLevel(input(points, { now: stale }))).toBeNull();
  });

  it('keeps a stray last reading out of the level', () => {
    const daily = simulate({
      from: '2025-03-01T00:00:00Z',
      to: '2025-04-10T00:00:00Z',
      everyHours: 24,
      start: 9_000,
      perDay: steady(100),
    });
    const strayLast = daily.map((point, i) => (i === daily.length - 1 ? { ...point, volume: 0 } : point));
    const forecast = forecastLevel(input(strayLast))!;
    const now = daily.at(-1)!.at;
    expect(days(forecast.emptyAt, now)).toBeCloseTo(50, 0);
  });

  it('ignores readings after now', () => {
    const now = new Date('2025-04-01T00:00:00Z');
    const early = forecastLevel(input(points, { now }))!;
    const only = forecastLevel(
      input(
        points.filter((point) => point.at <= now),
        { now },
      ),
    )!;
    expect(early).toEqual(only);
  });
});

describe('forecastLevel: no forecast rather than a wrong one', () => {
  const from = '2025-03-01T00:00:00Z';

  it('answers null for too little data since the last refill and no earlier season', () => {
    const twoDays = simulate({
      from,
      to: '2025-03-03T00:00:00Z',
      everyHours: 12,
      start: 9_000,
      perDay: steady(100),
    });
    expect(forecastLevel(input(twoDays))).toBeNull();
    const sixDays = simulate({
      from,
      to: '2025-03-07T00:00:00Z',
      everyHours: 6,
      start: 9_000,
      perDay: steady(100),
    });
    expect(forecastLevel(input(sixDays))).toBeNull();
    const sevenDays = simulate({
      from,
      to: '2025-03-08T00:00:00Z',
      everyHours: 56,
      start: 9_000,
      perDay: steady(100),
    });
    expect(sevenDays).toHaveLength(4);
    expect(forecastLevel(input(sevenDays))).not.toBeNull();
  });

  it('answers null when nothing measurable is used', () => {
    const random = mulberry32(7);
    const flat = simulate({
      from,
      to: '2025-05-01T00:00:00Z',
      everyHours: 6,
      start: 5_000,
      perDay: steady(0),
      noise: () => 50 * (2 * random() - 1),
    });
    expect(forecastLevel(input(flat))).toBeNull();
    expect(forecastLevel(input(flat, { heating: true }))).toBeNull();
  });

  it('answers null when empty lies more than three years ahead', () => {
    const slow = simulate({
      from,
      to: '2025-05-01T00:00:00Z',
      everyHours: 6,
      start: 9_000,
      perDay: steady(5),
    });
    expect(learnConsumption(input(slow))).not.toBeNull();
    expect(forecastLevel(input(slow))).toBeNull();
  });

  it('answers null without a capacity', () => {
    const points = simulate({
      from,
      to: '2025-04-01T00:00:00Z',
      everyHours: 6,
      start: 9_000,
      perDay: steady(100),
    });
    expect(forecastLevel(input(points, { capacity: 0 }))).toBeNull();
    expect(forecastLevel(input(points, { capacity: Number.NaN }))).toBeNull();
    expect(forecastLevel(input([], { now: new Date(from) }))).toBeNull();
  });
});

describe('forecastLevel: below the reorder level, and past empty', () => {
  const from = '2025-03-01T00:00:00Z';
  const low = simulate({
    from,
    to: '2025-03-21T00:00:00Z',
    everyHours: 6,
    start: 3_500,
    perDay: steady(100),
  });

  it('says now for reorderAt when the level is already below it', () => {
    const now = low.at(-1)!.at;
    const forecast = forecastLevel(input(low))!;
    expect(low.at(-1)!.volume).toBe(1_500);
    expect(forecast.reorderAt).toBe(now.toISOString());
    expect(days(forecast.emptyAt, now)).toBeCloseTo(15, 1);
  });

  it('never dates before now: a tank modelled empty since is empty now', () => {
    const now = new Date(low.at(-1)!.at.getTime() + 20 * DAY);
    const forecast = forecastLevel(input(low, { now }))!;
    expect(forecast.emptyAt).toBe(now.toISOString());
    expect(forecast.emptyAtLow).toBe(now.toISOString());
    expect(forecast.reorderAt).toBe(now.toISOString());
  });
});

describe('forecastLevel: weekly rhythm', () => {
  // 150 a working day, 60 on Saturday, nothing on Sunday: 115.7 a day on average.
  const week = [0, 150, 150, 150, 150, 150, 60];
  const law = (day: number) => week[(((day + 4) % 7) + 7) % 7];
  const points = simulate({
    from: '2025-03-03T00:00:00Z',
    to: '2025-05-01T00:00:00Z',
    everyHours: 4,
    start: 9_800,
    perDay: law,
  });

  it('learns the weekday profile and lands on the right day', () => {
    const model = learnConsumption(input(points))!;
    expect(model.weekdayFactors).not.toBeNull();
    expect(model.weekdayFactors![0]).toBeLessThan(0.05);
    expect(model.weekdayFactors![3]).toBeCloseTo(150 / (810 / 7), 1);
    expect(model.basePerDay).toBeCloseTo(810 / 7, 0);
    const forecast = forecastLevel(input(points))!;
    expect(Math.abs(levelLater(points, new Date(forecast.emptyAt), law))).toBeLessThan(20);
  });
});

describe('forecastLevel: public holidays and the weeks between the years', () => {
  // A haulage yard's diesel: 150 a working day, 40 on Saturday, closed on Sundays, on Bavaria's
  // public holidays and from 24 December to 1 January; refilled below 2,000.
  const week = [0, 150, 150, 150, 150, 150, 40];
  const law = (day: number) => (dayKind(day, 'BY') === 'weekday' ? week[(((day + 4) % 7) + 7) % 7] : 0);
  const points = simulate({
    from: '2024-09-02T00:00:00Z',
    to: '2025-12-05T00:00:00Z',
    everyHours: 8,
    start: 9_000,
    refillBelow: 2_000,
    refillTo: 9_500,
    perDay: law,
  });
  const emptyDayError = (state: FederalState | null) => {
    const now = points.at(-1)!.at;
    const forecast = forecastLevel(input(points, { holidayState: state }))!;
    let day = Math.floor(localDays(now));
    let level = points.at(-1)!.volume;
    while (level > 0) level -= law(++day);
    return (Date.parse(forecast.emptyAt) - now.getTime()) / DAY - (day - localDays(now));
  };

  it('sees the shutdown coming: a horizon across Christmas and New Year lands on the right day', () => {
    // The tank runs dry in January, after the yard's nine closed days (and holidays before them).
    expect(points.at(-1)!.volume / 130).toBeGreaterThan(25);
    // Without the calendar the closed days counted as working days: about a week early.
    expect(Math.abs(emptyDayError('BY'))).toBeLessThan(1.5);
    // With Germany's holidays only, Bavaria's Epiphany (6 January) counts as a working day.
    expect(Math.abs(emptyDayError(null))).toBeLessThan(2.5);
  });

  it('learns what the yard uses on holidays and between the years', () => {
    const model = learnConsumption(input(points, { holidayState: 'BY' }))!;
    expect(model.calendar).not.toBeNull();
    expect(model.calendar!.christmas).toBeLessThan(0.15);
    expect(model.calendar!.holiday).toBeLessThan(0.15);
  });
});

describe('forecastLevel: the range', () => {
  it('widens with a varying use and holds the median between its ends', () => {
    const random = mulberry32(3);
    const varying = new Map<number, number>();
    const law = (day: number) => {
      if (!varying.has(day)) varying.set(day, 100 * (0.5 + random()));
      return varying.get(day)!;
    };
    const points = simulate({
      from: '2025-01-01T00:00:00Z',
      to: '2025-03-15T00:00:00Z',
      everyHours: 6,
      start: 9_800,
      perDay: law,
    });
    const forecast = forecastLevel(input(points))!;
    const now = points.at(-1)!.at;
    const toEmpty = days(forecast.emptyAt, now);
    const early = days(forecast.emptyAtLow, now);
    const late = days(forecast.emptyAtHigh, now);
    expect(early).toBeLessThan(toEmpty);
    expect(late).toBeGreaterThan(toEmpty);
    // Daily use ±50 % averages out over weeks: a range of a few days either side, not months.
    expect(toEmpty - early).toBeGreaterThan(0.5);
    expect(late - toEmpty).toBeLessThan(0.3 * toEmpty);
  });
});
