import { describe, expect, it } from 'vitest';
import { formatDay, formatMoney, invoiceYears } from './billing-format.ts';

describe('billing formats', () => {
  it('writes a calendar day in the locale, without a time-zone shift', () => {
    expect(formatDay('2026-01-31', 'de')).toBe('31.01.2026');
    expect(formatDay('2026-01-31', 'en')).toBe('01/31/2026');
    expect(formatDay(null, 'de')).toBe('–');
  });

  it('writes money with two decimals in euros', () => {
    expect(formatMoney('1234.5', 'de')).toBe('1.234,50 €');
    expect(formatMoney('12.50', 'en')).toBe('12.50 €');
  });

  it('offers the invoice years from now back to 2016, newest first', () => {
    const years = invoiceYears(new Date(2018, 5, 1));
    expect(years).toEqual([2018, 2017, 2016]);
  });
});
