import { describe, expect, it } from 'vitest';
import { formatDateRange, parseDate } from './format.ts';

describe('parseDate', () => {
  it('reads a day in the locale’s format', () => {
    expect(parseDate('15.01.2025', 'de')).toEqual(new Date(2025, 0, 15));
    expect(parseDate(' 01/15/2025 ', 'en')).toEqual(new Date(2025, 0, 15));
  });

  it('refuses what is no such day', () => {
    for (const text of ['', '31.02.2025', '1.1.25', '2025-01-15', '15.01.2025x'])
      expect(parseDate(text, 'de')).toBeNull();
    expect(parseDate('15.01.2025', 'en')).toBeNull();
  });
});

describe('formatDateRange', () => {
  const day = (year: number, month: number, date: number) => new Date(year, month - 1, date, 12);

  it('writes the shared month and year once', () => {
    expect(formatDateRange(day(2027, 3, 10), day(2027, 3, 15), 'de')).toBe('10.–15.03.2027');
    expect(formatDateRange(day(2027, 3, 10), day(2027, 3, 15), 'en')).toBe('03/10–03/15/2027');
    expect(formatDateRange(day(2027, 2, 28), day(2027, 3, 15), 'de')).toBe('28.02.–15.03.2027');
    expect(formatDateRange(day(2027, 2, 28), day(2027, 3, 15), 'en')).toBe('02/28–03/15/2027');
  });

  it('writes both dates in full across a new year, and one day once', () => {
    expect(formatDateRange(day(2026, 12, 28), day(2027, 1, 5), 'de')).toBe('28.12.2026–05.01.2027');
    expect(formatDateRange(day(2026, 12, 28), day(2027, 1, 5), 'en')).toBe('12/28/2026–01/05/2027');
    expect(formatDateRange(day(2027, 3, 10), day(2027, 3, 10).toISOString(), 'de')).toBe('10.03.2027');
  });
});
