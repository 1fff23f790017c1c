import { describe, expect, it } from 'vitest';
import { monthlyDataFlow, quantityAt } from './data-flow.ts';

const at = (iso: string) => new Date(iso);
const options = {
  capacity: 1_000,
  fillingRecognitionInterval: 10,
  mode: 'interpolate',
  at: 'month_end',
} as const;

describe('monthly data flow', () => {
  const readings = [
    { at: at('2025-01-01T00:00:00Z'), value: 600 },
    { at: at('2025-01-22T00:00:00Z'), value: 500 },
    { at: at('2025-02-11T00:00:00Z'), value: 400 },
    // a rise of 5 % of the capacity: noise, neither inflow nor outflow
    { at: at('2025-02-12T00:00:00Z'), value: 450 },
    // a refill of 50 %
    { at: at('2025-02-20T00:00:00Z'), value: 950 },
    { at: at('2025-03-02T00:00:00Z'), value: 900 },
  ];
  const months = [
    { year: 2025, month: 1 },
    { year: 2025, month: 2 },
    { year: 2025, month: 3 },
  ];

  it('books decreases as outflow and refills as inflow to the month of the later reading', () => {
    const flows = monthlyDataFlow(readings, months, options);
    expect(flows.map(({ inflow, outflow }) => [inflow, outflow])).toEqual([
      [0, 100],
      [500, 100],
      [0, 50],
    ]);
  });

  it('leaves inflow and outflow empty in a month without readings: unknown, not zero', () => {
    const flows = monthlyDataFlow(readings, [...months, { year: 2025, month: 4 }], options);
    expect(flows[3]).toEqual({ year: 2025, month: 4, inflow: null, outflow: null, qty: 900 });
  });

  it('interpolates the quantity at the end of each month, or takes the last value before it', () => {
    // 1 Feb lies half way between 22 Jan (500) and 11 Feb (400).
    expect(monthlyDataFlow(readings, months, options)[0].qty).toBe(450);
    expect(monthlyDataFlow(readings, months, { ...options, mode: 'last_value' })[0].qty).toBe(500);
    // After the last reading the quantity stays at it.
    expect(monthlyDataFlow(readings, months, options)[2].qty).toBe(900);
    // Before the first reading there is none.
    expect(
      monthlyDataFlow(readings, [{ year: 2025, month: 1 }], { ...options, at: 'month_start' })[0].qty,
    ).toBe(600);
    expect(
      monthlyDataFlow(readings, [{ year: 2024, month: 12 }], { ...options, at: 'month_start' })[0].qty,
    ).toBeNull();
  });

  it('finds the quantity at a reading exactly', () => {
    const ordered: [number, number][] = readings.map((r) => [r.at.getTime(), r.value]);
    expect(quantityAt(ordered, Date.parse('2025-02-11T00:00:00Z'), 'interpolate')).toBe(400);
    expect(quantityAt([], Date.now(), 'interpolate')).toBeNull();
  });
});
