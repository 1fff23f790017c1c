import { describe, expect, it } from 'vitest';
import { filledShare, type GeometryId } from './geometry.ts';
import { heightFromPressure, levelFromPressure, levelFromValue } from './level.ts';
import { isRefill, monthlyConsumption } from './consumption.ts';

describe('filledShare per geometry', () => {
  const cases: [GeometryId, number, number][] = [
    [1, 0.5, 0.5],
    [3, 0.25, 0.25],
    [2, 0.5, 0.5],
    [2, 0.25, 0.1955], // circular segment: (θ − sin θ) / 2π with θ = 2·acos(0.5)
    [4, 0.5, 0.5],
    [4, 0.25, 0.15625], // x²(3 − 2x)
    [8, 0.15, 0.015625], // cone: 0.15³ / (3 · 0.3²) = 0.0125 of a total 0.1 + 0.7
    [8, 0.3, 0.125],
  ];
  it.each(cases)('geometry %i at height %f holds %f of its volume', (geometry, x, expected) => {
    expect(filledShare(geometry, x)).toBeCloseTo(expected, 3);
  });

  it('is 0 when empty, 1 when full and never decreases, for every geometry', () => {
    for (const geometry of [1, 2, 3, 4, 5, 6, 7, 8, 9] as GeometryId[]) {
      expect(filledShare(geometry, 0)).toBe(0);
      expect(filledShare(geometry, 1)).toBe(1);
      expect(filledShare(geometry, 1.2)).toBe(1);
      expect(filledShare(geometry, -0.1)).toBe(0);
      let previous = 0;
      for (let x = 0; x <= 1; x += 0.01) {
        const share = filledShare(geometry, x);
        expect(share).toBeGreaterThanOrEqual(previous);
        previous = share;
      }
      // Symmetric shapes are half full at half height.
      if (geometry !== 8) expect(filledShare(geometry, 0.5)).toBeCloseTo(0.5, 6);
    }
  });
});

describe('levels', () => {
  const tank = { capacity: 10_000, fillLimit: 95 };
  it.each([
    [5_000, 50, 52.63, 4_500],
    [9_500, 95, 100, 0],
    [10_400, 100, 100, 0], // over-full readings clamp
    [-20, 0, 0, 9_520], // a slightly negative probe value is empty
  ])('value %f -> pct %f, netPct %f, free %f', (value, pct, netPct, free) => {
    const level = levelFromValue(tank, value);
    expect(level.pct).toBeCloseTo(pct, 2);
    expect(level.netPct).toBeCloseTo(netPct, 2);
    expect(level.netFreeSpace).toBeCloseTo(free, 2);
  });

  it('turns hydrostatic pressure into height: 100 mbar of water is 102 cm', () => {
    expect(heightFromPressure(100, 1000)).toBeCloseTo(101.97, 2);
    expect(heightFromPressure(100, 1000, 5)).toBeCloseTo(106.97, 2);
    expect(heightFromPressure(84.5, 845)).toBeCloseTo(101.97, 2);
  });

  it('turns pressure into contents through the geometry', () => {
    // Horizontal cylinder 200 cm high, heating oil, probe 2 cm above the bottom, half full.
    const sensor = {
      capacity: 6_000,
      fillLimit: 95,
      geometry: 2,
      fillHeight: 200,
      contentDensity: 845,
      groundClearance: 2,
    };
    const halfHeightPressure = (0.98 * 845 * 9.80665) / 100; // 98 cm of oil above the probe, in mbar
    const level = levelFromPressure(sensor, halfHeightPressure);
    expect(level.pct).toBeCloseTo(50, 1);
    expect(level.value).toBeCloseTo(3_000, -1);
    expect(() => levelFromPressure({ capacity: 1, fillLimit: 95 }, 10)).toThrow(RangeError);
  });
});

describe('monthly consumption', () => {
  const at = (iso: string) => new Date(`${iso}T12:00:00Z`);
  it('sums decreases, ignores refills, and books each step to the month of its later reading', () => {
    const readings = [
      { at: at('2026-01-01'), value: 8000 },
      { at: at('2026-01-15'), value: 7000 },
      { at: at('2026-01-20'), value: 9500 }, // refill
      { at: at('2026-01-31'), value: 9000 },
      { at: at('2026-02-10'), value: 8200 },
    ];
    expect(monthlyConsumption(readings, 'probe')).toEqual([
      { year: 2026, month: 1, consumption: 1500 },
      { year: 2026, month: 2, consumption: 800 },
    ]);
  });

  it('gives the same result for readings out of order and repeated', () => {
    const readings = [
      { at: at('2026-03-05'), value: 500 },
      { at: at('2026-03-01'), value: 900 },
      { at: at('2026-03-05'), value: 500 },
      { at: at('2026-03-03'), value: 700 },
      { at: at('2026-03-01'), value: 900 },
    ];
    expect(monthlyConsumption(readings, 'probe')).toEqual([{ year: 2026, month: 3, consumption: 400 }]);
  });

  it("counts a counter's increases", () => {
    const readings = [
      { at: at('2026-04-01'), value: 100 },
      { at: at('2026-04-02'), value: 130 },
      { at: at('2026-04-03'), value: 175 },
    ];
    expect(monthlyConsumption(readings, 'counter')).toEqual([{ year: 2026, month: 4, consumption: 75 }]);
  });

  it('recognises a refill by the filling-recognition share', () => {
    expect(isRefill(2000, 3000, 10_000, 10)).toBe(true);
    expect(isRefill(2000, 2900, 10_000, 10)).toBe(false);
    expect(isRefill(2000, 1000, 10_000, 10)).toBe(false);
  });
});
