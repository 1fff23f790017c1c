import { describe, expect, it } from 'vitest';
import { backtest, type BacktestSeries } from './backtest.ts';
import { forecastLevel, type LevelPoint } from './forecast.ts';
import { syntheticFleet } from './synthetic-series.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Readings every six hours of a tank using `perDay(dayIndex)`, refilled to 9,000 at the first reading at or below 0. */
function run(from: string, totalDays: number, perDay: (dayIndex: number) => number): LevelPoint[] {
  const start = Date.parse(from);
  const points: LevelPoint[] = [];
  let level = 9_000;
  for (let step = 0; step <= totalDays * 4; step++) {
    if (step > 0) level -= perDay(Math.floor((step - 1) / 4)) / 4;
    points.push({ at: new Date(start + step * 6 * HOUR), volume: Math.max(0, level) });
    if (level <= 0) level = 9_000;
  }
  return points;
}

const steadySeries = (points: LevelPoint[]): BacktestSeries => ({
  points,
  capacity: 10_000,
  heating: false,
  temperatures: new Map(),
});

describe('backtest', () => {
  it('on a tank that runs dry is exactly the emptyAt error of the forecast made 30 days before', () => {
    // 100 a day from 9,000: empty after 90 days, refilled, then 20 more days.
    const points = run('2025-01-06T00:00:00Z', 110, () => 100);
    const emptyIndex = points.findIndex((point) => point.volume === 0);
    const result = backtest(steadySeries(points));
    expect(result.errors).toHaveLength(1);
    const emptied = points[emptyIndex].at.getTime();
    const now = new Date(emptied - 30 * DAY);
    const forecast = forecastLevel({
      ...steadySeries(points.filter((point) => point.at <= now)),
      reorderPct: null,
      now,
    })!;
    expect(result.errors[0]).toBeCloseTo((Date.parse(forecast.emptyAt) - emptied) / DAY, 6);
    expect(Math.abs(result.errors[0])).toBeLessThan(0.05);
    expect(result.medianAbs).toBeCloseTo(Math.abs(result.errors[0]), 10);
  });

  it('counts a forecast that came too late as positive', () => {
    // 100 a day, then 200 a day in the last 30 days before running dry: the forecast was 15 days late.
    const points = run('2025-01-06T00:00:00Z', 100, (day) => (day < 60 ? 100 : 200));
    const [error] = backtest(steadySeries(points)).errors;
    expect(error).toBeGreaterThan(13);
    expect(error).toBeLessThan(17);
  });

  it('skips segments shorter than the horizon and the open segment at the end', () => {
    const points = run('2025-01-06T00:00:00Z', 80, () => 100);
    expect(backtest(steadySeries(points))).toEqual({
      errors: [],
      medianAbs: null,
      p90Abs: null,
      inRange: null,
    });
  });
});

describe('backtest on synthetic fleets (seeded)', () => {
  const heating = syntheticFleet({ seed: 11, count: 60, from: '2023-09-01', days: 730, heatingShare: 1 });
  const process = syntheticFleet({ seed: 11, count: 30, from: '2024-09-01', days: 365, heatingShare: 0 });
  const pooled = (series: BacktestSeries[]) => {
    const errors = series.flatMap((one) => backtest(one).errors);
    const absolute = errors.map(Math.abs).sort((a, b) => a - b);
    return { count: errors.length, medianAbs: absolute[Math.floor(absolute.length / 2)] };
  };

  it('forecasts heating within about 3 days (median) 30 days ahead, with known temperatures', () => {
    const result = pooled(heating.map((tank) => tank.input));
    expect(result.count).toBeGreaterThan(120);
    expect(result.medianAbs).toBeLessThan(3.5);
  });

  it('does measurably worse on the same heating tanks when it ignores degree days', () => {
    const withDegreeDays = pooled(heating.map((tank) => tank.input));
    const withoutDegreeDays = pooled(heating.map((tank) => ({ ...tank.input, heating: false })));
    expect(withoutDegreeDays.medianAbs).toBeGreaterThan(1.5 * withDegreeDays.medianAbs);
    expect(withoutDegreeDays.medianAbs - withDegreeDays.medianAbs).toBeGreaterThan(2);
  });

  it('forecasts process tanks within 2 days (median) 30 days ahead', () => {
    const result = pooled(process.map((tank) => tank.input));
    expect(result.count).toBeGreaterThan(120);
    expect(result.medianAbs).toBeLessThan(2);
  });

  it('puts about 80 % of the outcomes within the forecast range', () => {
    let inside = 0;
    let count = 0;
    for (const tank of [...heating, ...process]) {
      const result = backtest(tank.input);
      inside += (result.inRange ?? 0) * result.errors.length;
      count += result.errors.length;
    }
    expect(inside / count).toBeGreaterThan(0.7);
    expect(inside / count).toBeLessThan(0.92);
  });
});
