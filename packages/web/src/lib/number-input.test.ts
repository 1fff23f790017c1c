import { describe, expect, it } from 'vitest';
import { numberOrNull, numberText } from './number-input.ts';

describe('numberOrNull', () => {
  it('reads numbers as the locale writes them', () => {
    expect(numberOrNull('2.500,5', 'de')).toBe(2500.5);
    expect(numberOrNull('2,500.5', 'en')).toBe(2500.5);
    expect(numberOrNull('12000', 'de')).toBe(12000);
    expect(numberOrNull(' ', 'de')).toBeNull();
  });
  it('takes a coordinate typed with a point in German as a decimal', () => {
    expect(numberOrNull('51.1657', 'de')).toBe(51.1657);
    expect(numberOrNull('-7,25', 'de')).toBe(-7.25);
  });
  it('gives NaN for what is no number', () => {
    expect(numberOrNull('abc', 'de')).toBeNaN();
  });
  it('shows a number for editing', () => {
    expect(numberText(51.5, 'de')).toBe('51,5');
    expect(numberText(null, 'en')).toBe('');
  });
});
