import { describe, expect, it } from 'vitest';
import { normaliseCellNumber } from './phone.ts';

describe('normaliseCellNumber', () => {
  it('turns a German number typed nationally into E.164 with the device country', () => {
    expect(normaliseCellNumber('0170 5559901', 'DE')).toBe('+491705559901');
    expect(normaliseCellNumber('01705559901', 'de')).toBe('+491705559901');
  });

  it('accepts international input with spaces, brackets, slashes and dashes, whatever the country', () => {
    expect(normaliseCellNumber('+49 (170) 555-9901', 'DE')).toBe('+491705559901');
    expect(normaliseCellNumber('+49 170/5559901', 'AT')).toBe('+491705559901');
    expect(normaliseCellNumber('0049 170 5559901', 'DE')).toBe('+491705559901');
    expect(normaliseCellNumber('+491705559901')).toBe('+491705559901');
  });

  it('reads a national number in the country of the device', () => {
    expect(normaliseCellNumber('0664 1234567', 'AT')).toBe('+436641234567');
    expect(normaliseCellNumber('079 123 45 67', 'CH')).toBe('+41791234567');
    expect(normaliseCellNumber('06 12 34 56 78', 'FR')).toBe('+33612345678');
  });

  it('refuses what is no number of that country', () => {
    expect(normaliseCellNumber('017', 'DE')).toBeNull();
    expect(normaliseCellNumber('hello', 'DE')).toBeNull();
    expect(normaliseCellNumber('0170 5559901 (office)', 'DE')).toBeNull();
    // A SIM is texted: a fixed line or a number too short for a mobile range is a typo.
    expect(normaliseCellNumber('0561 123456', 'DE')).toBeNull();
    expect(normaliseCellNumber('+49 170 55')).toBeNull();
    expect(normaliseCellNumber('+49 0170 5559901 12345678', 'DE')).toBeNull();
    // National without a (known) country: nothing to read it by.
    expect(normaliseCellNumber('0170 5559901')).toBeNull();
    expect(normaliseCellNumber('0170 5559901', 'XX')).toBeNull();
  });
});
