import { describe, expect, it } from 'vitest';
import {
  BASELINE_SPREAD,
  baselineReach,
  forecastBaseline,
  learnBaseline,
  type BaselineKind,
} from './baselines.ts';
import { heatingDegreeDays, normalDegreeDays } from './degree-days.ts';
import { dayKey, germanDayNumber, localDays } from '../time/day-numbers.ts';
import { withLocalDays, type ForecastInput, type LevelPoint } from './forecast.ts';
import { mulberry32 } from '@tankportal/shared/random';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = new Date('2026-03-01T12:00:00Z');

/** Use between two instants at a per-German-day rate, even within each day. */
function usedBetween(from: number, to: number, perDay: (day: number) => number): number {
  let used = 0;
  for (let u = from; u < to;) {
    const day = Math.floor(u);
    const next = Math.min(day + 1, to);
    used += perDay(day) * (next - u);
    u = next;
  }
  return used;
}

/** Readings every `everyHours` over `days` up to NOW, refilled to `refillTo` below `refillBelow`. */
function tank(options: {
  days: number;
  everyHours?: number;
  start: number;
  perDay: (day: number) => number;
  refillBelow?: number;
  refillTo?: number;
  refillAt?: Date;
}): LevelPoint[] {
  const points: LevelPoint[] = [];
  const step = (options.everyHours ?? 6) * HOUR;
  let level = options.start;
  let previous = NOW.getTime() - options.days * DAY;
  for (let t = previous; t <= NOW.getTime(); t += step) {
    level -= usedBetween(localDays(previous), localDays(t), options.perDay);
    if (options.refillAt && previous < options.refillAt.getTime() && t >= options.refillAt.getTime())
      level = options.refillTo!;
    if (options.refillBelow !== undefined && level < options.refillBelow) level = options.refillTo!;
    previous = t;
    points.push({ at: new Date(t), volume: level });
  }
  return points;
}

function input(
  points: LevelPoint[],
  heating = false,
  temperatures = new Map<string, number>(),
): ForecastInput {
  return { points, capacity: 10_000, reorderPct: 20, heating, temperatures, now: NOW };
}

const daysFromNow = (iso: string) => (Date.parse(iso) - NOW.getTime()) / DAY;

describe('baselines', () => {
  it('a steady tank: every rule finds its pace, the level and the day of empty', () => {
    const points = tank({ days: 420, start: 9_000, perDay: () => 40, refillBelow: 2_000, refillTo: 9_000 });
    const level = points.at(-1)!.volume;
    for (const kind of ['last_30_days', 'last_year'] as BaselineKind[]) {
      const forecast = forecastBaseline(kind, input(points))!;
      expect(forecast.perDay, kind).toBeCloseTo(40, 1);
      expect(daysFromNow(forecast.emptyAt), kind).toBeCloseTo(level / 40, 0);
      expect(daysFromNow(forecast.reorderAt!), kind).toBeCloseTo((level - 2_000) / 40, 0);
      // The fixed spread: 25 % more use early, 20 % less late.
      expect(daysFromNow(forecast.emptyAtLow), kind).toBeCloseTo(level / 40 / BASELINE_SPREAD.high, 0);
      expect(daysFromNow(forecast.emptyAtHigh), kind).toBeCloseTo(level / 40 / BASELINE_SPREAD.low, 0);
    }
  });

  it('a refill within the last 30 days: the pace is the same, the level the one after the refill', () => {
    const points = tank({
      days: 60,
      start: 5_000,
      perDay: () => 25,
      refillAt: new Date(NOW.getTime() - 12 * DAY),
      refillTo: 9_500,
    });
    const model = learnBaseline('last_30_days', input(points))!;
    expect(model.useOnDay(germanDayNumber(NOW))).toBeCloseTo(25, 1);
    expect(model.level).toBeCloseTo(points.at(-1)!.volume, 0);
    expect(model.level).toBeGreaterThan(9_000);
    expect(baselineReach(model, 0)!.at.getTime()).toBeCloseTo(NOW.getTime() + (model.level / 25) * DAY, -5);
  });

  it('a stray reading does not move the level or the pace', () => {
    const points = tank({ days: 40, start: 8_000, perDay: () => 30 });
    points[points.length - 2] = { ...points.at(-2)!, volume: 100 };
    const model = learnBaseline('last_30_days', input(points))!;
    expect(model.useOnDay(germanDayNumber(NOW))).toBeCloseTo(30, 1);
    expect(model.level).toBeCloseTo(points.at(-1)!.volume, 0);
  });

  it('last year: a seasonal business runs through last year’s pace from the same date', () => {
    // 10 per day, except 60 per day in the 30 days that follow the same date last year.
    const today = germanDayNumber(NOW);
    const perDay = (day: number) => (day >= today - 365 && day < today - 335 ? 60 : 10);
    const points = tank({ days: 400, start: 9_500, perDay, refillBelow: 1_500, refillTo: 9_500 });
    const forecast = forecastBaseline('last_year', input(points))!;
    expect(forecast.perDay).toBeCloseTo(60, 0);
    // Last year's days from the same date on, from now until the level is used.
    let left = points.at(-1)!.volume;
    let u = localDays(NOW);
    while (left > 0) {
      const day = Math.floor(u);
      const piece = usedBetween(u, day + 1, (d) => perDay(d - 365));
      if (piece >= left) {
        u += left / perDay(day - 365);
        break;
      }
      left -= piece;
      u = day + 1;
    }
    expect(daysFromNow(forecast.emptyAt)).toBeCloseTo(u - localDays(NOW), 0);
    // The last 30 days said 10 per day.
    expect(forecastBaseline('last_30_days', input(points))!.perDay).toBeCloseTo(10, 1);
  });

  it('degree-day regression: learns a + b · HDD from the measured weather and projects with the normals', () => {
    const temperatures = new Map<string, number>();
    const today = germanDayNumber(NOW);
    for (let day = today - 400; day <= today; day++)
      temperatures.set(
        dayKey(day),
        9 + 9 * Math.cos((2 * Math.PI * (day - 200)) / 365) + ((day * 7) % 5) - 2,
      );
    const perDay = (day: number) => 4 + 1.5 * heatingDegreeDays(temperatures.get(dayKey(day)) ?? 10);
    const points = tank({ days: 400, start: 9_500, perDay, refillBelow: 2_000, refillTo: 9_500 });
    const forecast = forecastBaseline('degree_day_regression', input(points, true, temperatures))!;
    let expected = 0;
    for (let day = today; day < today + 30; day++) expected += 4 + 1.5 * normalDegreeDays(day);
    expect(forecast.perDay).toBeGreaterThan((0.95 * expected) / 30);
    expect(forecast.perDay).toBeLessThan((1.05 * expected) / 30);
  });

  it('a backtest’s origins, each with the first readings of one series, clean them as each alone would', () => {
    // Noise, refills and strays (some near an origin's last readings, whose neighbours differ by origin).
    const random = mulberry32(3);
    const points = tank({
      days: 420,
      start: 9_000,
      perDay: () => 35,
      refillBelow: 2_500,
      refillTo: 9_200,
    }).map((point) => ({ ...point, volume: point.volume + (random() - 0.5) * 40 }));
    for (let i = 40; i < points.length; i += 97)
      points[i] = { ...points[i]!, volume: points[i]!.volume + 900 };
    const days = Float64Array.from(points, (point) => localDays(point.at));
    const today = germanDayNumber(NOW);
    for (let origin = NOW.getTime(); origin > NOW.getTime() - 200 * DAY; origin -= 7 * DAY + 5 * HOUR) {
      const upTo = points.filter((point) => point.at.getTime() <= origin).length;
      const at = (given: LevelPoint[]) => ({ ...input(given), now: new Date(origin) });
      for (const kind of ['last_30_days', 'last_year'] as BaselineKind[]) {
        // As the backtest gives them (the later origins first), and a copy on its own.
        const reused = learnBaseline(kind, at(withLocalDays(points.slice(0, upTo), days.subarray(0, upTo))));
        const alone = learnBaseline(kind, at(points.slice(0, upTo)));
        expect(reused === null, kind).toBe(alone === null);
        if (!reused || !alone) continue;
        expect([reused.level, reused.basis], kind).toEqual([alone.level, alone.basis]);
        for (let day = today - 420; day < today + 60; day += 11)
          expect(reused.useOnDay(day), kind).toBe(alone.useOnDay(day));
      }
    }
  });

  it('too little data: null', () => {
    const short = tank({ days: 4, start: 8_000, perDay: () => 30 });
    expect(forecastBaseline('last_30_days', input(short))).toBeNull();
    const halfYear = tank({ days: 200, start: 9_000, perDay: () => 30 });
    expect(forecastBaseline('last_year', input(halfYear))).toBeNull();
    expect(forecastBaseline('last_30_days', input(halfYear))).not.toBeNull();
    // The degree-day regression is for heating only, and needs more than a few weeks.
    expect(forecastBaseline('degree_day_regression', input(halfYear))).toBeNull();
    const fewWeeks = tank({ days: 30, start: 9_000, perDay: () => 30 });
    expect(forecastBaseline('degree_day_regression', input(fewWeeks, true))).toBeNull();
    // Stale: the last reading is more than three weeks old.
    const stale = input(halfYear.slice(0, -4 * 25));
    expect(forecastBaseline('last_30_days', stale)).toBeNull();
    // A flat tank uses nothing.
    expect(
      forecastBaseline('last_30_days', input(tank({ days: 60, start: 8_000, perDay: () => 0 }))),
    ).toBeNull();
  });
});
