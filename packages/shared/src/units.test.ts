import { describe, expect, it } from 'vitest';
import {
  COUNTER_UNITS,
  FILL_HEIGHT_UNITS,
  LX_IOT_UNITS,
  TANK_UNITS,
  UNIT_SYMBOLS,
  UNITS,
  isUnit,
  unitSymbol,
} from './units.ts';

describe('units', () => {
  it('labels every unit and offers only known units in the option sets of the form', () => {
    expect(Object.keys(UNIT_SYMBOLS).sort()).toEqual([...UNITS].sort());
    expect(unitSymbol('c')).toBe('°C');
    expect(unitSymbol('m3')).toBe('m³');
    expect(unitSymbol('cbm')).toBe('m³');
    expect(unitSymbol('gal')).toBe('gal');
    for (const set of [COUNTER_UNITS, TANK_UNITS, LX_IOT_UNITS, FILL_HEIGHT_UNITS]) {
      expect(set.every(isUnit)).toBe(true);
    }
    expect(TANK_UNITS).toEqual(['l', 'kg']);
    expect(LX_IOT_UNITS).toEqual(['l', 'kg', 'm3']);
    expect(FILL_HEIGHT_UNITS).toEqual(['l', 'kg', 'cm']);
    expect(COUNTER_UNITS).toEqual(['l', 'kg', 'c', 'kwh', 'mwh', 'sec', 'min', 'cbm']);
    expect(isUnit('gal')).toBe(false);
  });
});
