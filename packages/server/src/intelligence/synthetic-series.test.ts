import { describe, expect, it } from 'vitest';
import { heatingDegreeDays } from './degree-days.ts';
import { dayKey, weekdayOf } from '../time/day-numbers.ts';
import { mulberry32 } from '@tankportal/shared/random';
import {
  syntheticFleet,
  syntheticHeatingTank,
  syntheticProcessTank,
  syntheticWeather,
} from './synthetic-series.ts';

const DAY = 86_400_000;
const weather = (seed: number) => syntheticWeather({ seed, from: '2023-09-01', days: 730 });

describe('mulberry32', () => {
  it('repeats its sequence per seed and spreads evenly over [0, 1)', () => {
    const a = mulberry32(1);
    const b = mulberry32(1);
    const values = Array.from({ length: 10_000 }, () => a());
    expect(values.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.reduce((sum, value) => sum + value, 0) / values.length).toBeCloseTo(0.5, 1);
    expect(mulberry32(2)()).not.toBe(mulberry32(1)());
  });
});

describe('syntheticWeather', () => {
  it('varies around the normals: ten Januaries average about 0.9 °C, ten Julys about 18.3 °C', () => {
    const decade = syntheticWeather({ seed: 5, from: '2010-01-01', days: 3_652 });
    const mean = (month: string) => {
      const values = [...decade].filter(([key]) => key.slice(5, 7) === month).map(([, value]) => value);
      return values.reduce((sum, value) => sum + value, 0) / values.length;
    };
    expect(Math.abs(mean('01') - 0.9)).toBeLessThan(1);
    expect(Math.abs(mean('07') - 18.3)).toBeLessThan(1);
  });

  it('gives a colder winter and a warmer autumn on request, with the same day-to-day weather', () => {
    const normal = weather(9);
    const different = syntheticWeather({
      seed: 9,
      from: '2023-09-01',
      days: 730,
      winterAnomalyC: -3,
      autumnAnomalyC: 2,
    });
    expect(different.get('2024-01-15')! - normal.get('2024-01-15')!).toBeCloseTo(-3, 1);
    expect(different.get('2023-10-15')! - normal.get('2023-10-15')!).toBeCloseTo(2, 1);
    expect(different.get('2024-06-15')).toBe(normal.get('2024-06-15'));
  });

  it('is the same for the same seed and different for another', () => {
    expect(weather(1)).toEqual(weather(1));
    expect(weather(2).get('2024-01-15')).not.toBe(weather(1).get('2024-01-15'));
  });
});

describe('syntheticHeatingTank', () => {
  const temperatures = weather(3);
  const options = { seed: 21, from: '2023-09-01', days: 730, temperatures };
  const tank = syntheticHeatingTank(options);

  it('is the same for the same seed and different for another', () => {
    expect(syntheticHeatingTank(options).input.points).toEqual(tank.input.points);
    expect(syntheticHeatingTank({ ...options, seed: 22 }).input.points).not.toEqual(tank.input.points);
  });

  it('uses base + k · degree days of its weather, give or take the family’s day-to-day variation', () => {
    let law = 0;
    let used = 0;
    tank.truth.dailyUse.forEach((use, i) => {
      used += use;
      const day = tank.truth.firstDay + i;
      law +=
        tank.truth.basePerDay + tank.truth.perDegreeDay * heatingDegreeDays(temperatures.get(dayKey(day))!);
    });
    expect(used / law).toBeGreaterThan(0.95);
    expect(used / law).toBeLessThan(1.05);
    // Winter days use far more than summer days.
    const dayOf = (key: string) =>
      tank.truth.dailyUse[Math.round(Date.parse(key) / DAY) - tank.truth.firstDay];
    const january = Array.from({ length: 31 }, (_, d) => dayOf(`2024-01-${String(d + 1).padStart(2, '0')}`));
    const july = Array.from({ length: 31 }, (_, d) => dayOf(`2024-07-${String(d + 1).padStart(2, '0')}`));
    expect(january.reduce((a, b) => a + b)).toBeGreaterThan(4 * july.reduce((a, b) => a + b));
  });

  it('is refilled to 85–95 % some days after falling below its reorder level', () => {
    const { capacity, reorderPct } = tank.input;
    expect(tank.truth.refills.length).toBeGreaterThanOrEqual(1);
    for (const refill of tank.truth.refills) {
      const before = tank.truth.levelAt(new Date(refill.getTime() - 60_000));
      const after = tank.truth.levelAt(new Date(refill.getTime() + 60_000));
      expect(after / capacity).toBeGreaterThan(0.84);
      expect(after / capacity).toBeLessThan(0.96);
      expect(before).toBeLessThan((capacity * reorderPct!) / 100);
    }
  });

  it('reads at irregular times, with the sensor noise and the oil’s thermal expansion on the true level', () => {
    const { points, capacity } = tank.input;
    const spacings = new Set(
      points.slice(1, 50).map((point, i) => point.at.getTime() - points[i].at.getTime()),
    );
    expect(spacings.size).toBeGreaterThan(40);
    let within = 0;
    for (const point of points) {
      const offBy = Math.abs(point.volume - tank.truth.levelAt(point.at));
      // ±0.5 % noise plus up to about 2 % expansion (outdoor tank, ±25 K from 15 °C), or a stray reading.
      if (offBy <= 0.025 * capacity) within++;
    }
    expect(within / points.length).toBeGreaterThan(0.99);
  });

  it('loses readings for days at a time when asked to', () => {
    const gappy = syntheticHeatingTank({ ...options, gapChance: 0.02 });
    const spacings = gappy.input.points
      .slice(1)
      .map((point, i) => point.at.getTime() - gappy.input.points[i].at.getTime());
    expect(Math.max(...spacings)).toBeGreaterThan(3 * DAY);
  });
});

describe('syntheticProcessTank', () => {
  const tank = syntheticProcessTank({
    seed: 8,
    from: '2024-09-01',
    days: 365,
    temperatures: new Map(),
    outlierRate: 0,
  });

  it('works to a weekly rhythm, with a shutdown week, and is refilled often', () => {
    const byWeekday = Array.from({ length: 7 }, () => 0);
    tank.truth.dailyUse.forEach((use, i) => (byWeekday[weekdayOf(tank.truth.firstDay + i)] += use));
    expect(byWeekday[0]).toBeLessThan(0.2 * byWeekday[3]);
    const mean = tank.truth.dailyUse.reduce((a, b) => a + b) / tank.truth.dailyUse.length;
    let longestQuiet = 0;
    let quiet = 0;
    for (const use of tank.truth.dailyUse) {
      quiet = use < 0.1 * mean ? quiet + 1 : 0;
      longestQuiet = Math.max(longestQuiet, quiet);
    }
    expect(longestQuiet).toBeGreaterThanOrEqual(7);
    expect(tank.truth.refills.length).toBeGreaterThanOrEqual(5);
  });

  it('reads within ±0.5 % of the capacity of the true level', () => {
    const { points, capacity } = tank.input;
    for (const point of points)
      expect(Math.abs(point.volume - tank.truth.levelAt(point.at))).toBeLessThanOrEqual(
        0.005 * capacity + 0.05,
      );
  });
});

describe('syntheticFleet', () => {
  it('mixes heating and process tanks, the same for the same seed', () => {
    const fleet = syntheticFleet({ seed: 4, count: 40, from: '2024-09-01', days: 365 });
    const heating = fleet.filter((tank) => tank.kind === 'heating').length;
    expect(heating).toBeGreaterThan(15);
    expect(heating).toBeLessThan(35);
    const again = syntheticFleet({ seed: 4, count: 40, from: '2024-09-01', days: 365 });
    expect(again.map((tank) => tank.input.points.at(-1))).toEqual(
      fleet.map((tank) => tank.input.points.at(-1)),
    );
    const other = syntheticFleet({ seed: 5, count: 40, from: '2024-09-01', days: 365 });
    expect(other.map((tank) => tank.input.points.at(-1))).not.toEqual(
      fleet.map((tank) => tank.input.points.at(-1)),
    );
  });
});
