import { describe, expect, it } from 'vitest';
import { parseDate } from './format.ts';

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
