import { describe, expect, it } from 'vitest';
import { clampPercent, totalsPerUnit, type ListSensor } from './sensor-totals.ts';

const probe = (unit: string, value: number | null, status: ListSensor['status'] = 'ok'): ListSensor => ({
  type: 'probe',
  status,
  unit,
  value,
});

describe('list footer totals', () => {
  it('sums probe values per unit over all devices, in order of appearance', () => {
    const totals = totalsPerUnit([
      { sensors: [probe('l', 1200), probe('kg', 300)] },
      { sensors: [probe('l', 800.5), probe('alarm-unit', 5, 'alarm')] },
    ]);
    expect(totals).toEqual([
      { unit: 'l', total: 2000.5 },
      { unit: 'kg', total: 300 },
      { unit: 'alarm-unit', total: 5 },
    ]);
  });

  it('leaves out sensors in error, counters and sensors without a value', () => {
    const totals = totalsPerUnit([
      {
        sensors: [
          probe('l', 1000, 'error'),
          { type: 'counter', status: 'ok', unit: 'l', value: 99 },
          probe('l', null),
          probe('l', 10),
        ],
      },
    ]);
    expect(totals).toEqual([{ unit: 'l', total: 10 }]);
  });

  it('has no totals for an empty page', () => {
    expect(totalsPerUnit([])).toEqual([]);
  });
});

describe('percent display', () => {
  it('clamps to 0..100', () => {
    expect(clampPercent(-3)).toBe(0);
    expect(clampPercent(104.2)).toBe(100);
    expect(clampPercent(42)).toBe(42);
    expect(clampPercent(null)).toBeNull();
  });
});
