import { describe, expect, it } from 'vitest';
import { dayFromKey, dayKey, fromLocalDays, germanDayNumber, localDays, weekdayOf } from './day-numbers.ts';

describe('German calendar days', () => {
  it('counts days in Europe/Berlin, in winter and in summer time', () => {
    expect(dayKey(germanDayNumber(new Date('2025-01-31T22:59:00Z')))).toBe('2025-01-31');
    expect(dayKey(germanDayNumber(new Date('2025-01-31T23:00:00Z')))).toBe('2025-02-01');
    expect(dayKey(germanDayNumber(new Date('2025-06-30T21:59:00Z')))).toBe('2025-06-30');
    expect(dayKey(germanDayNumber(new Date('2025-06-30T22:00:00Z')))).toBe('2025-07-01');
  });

  it('turns local days back into the instant, also on the days the clocks change', () => {
    for (const iso of ['2025-03-30T00:30:00.000Z', '2025-03-30T01:30:00.000Z', '2025-07-01T12:00:00.000Z'])
      expect(fromLocalDays(localDays(new Date(iso))).toISOString()).toBe(iso);
  });

  it('knows the weekday (2024-01-01 was a Monday)', () => {
    expect(weekdayOf(dayFromKey('2024-01-01'))).toBe(1);
    expect(weekdayOf(dayFromKey('2024-01-07'))).toBe(0);
  });
});
