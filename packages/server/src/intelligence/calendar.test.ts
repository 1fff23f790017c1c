import { describe, expect, it } from 'vitest';
import { dayKind, federalStateOfPostalCode, isPublicHoliday } from './calendar.ts';
import { dayFromKey } from '../time/day-numbers.ts';

const day = dayFromKey;

describe('calendar: public holidays and the weeks between the years', () => {
  it('knows the nationwide holidays, Easter included, and each state’s own', () => {
    expect(isPublicHoliday(day('2025-04-18'), null)).toBe(true); // Good Friday
    expect(isPublicHoliday(day('2025-06-09'), null)).toBe(true); // Whit Monday
    expect(isPublicHoliday(day('2025-10-03'), null)).toBe(true);
    expect(isPublicHoliday(day('2025-01-06'), null)).toBe(false);
    expect(isPublicHoliday(day('2025-01-06'), 'BY')).toBe(true); // Epiphany
    expect(isPublicHoliday(day('2025-06-19'), 'NW')).toBe(true); // Corpus Christi
    expect(isPublicHoliday(day('2025-06-19'), 'NI')).toBe(false);
    expect(isPublicHoliday(day('2025-10-31'), 'SN')).toBe(true); // Reformation Day
    expect(isPublicHoliday(day('2025-04-22'), 'BY')).toBe(false);
  });

  it('counts 24 December to 1 January as between the years, holidays or not', () => {
    expect(dayKind(day('2025-12-23'), null)).toBe('weekday');
    expect(dayKind(day('2025-12-24'), null)).toBe('christmas');
    expect(dayKind(day('2025-12-25'), null)).toBe('christmas');
    expect(dayKind(day('2025-12-29'), 'BY')).toBe('christmas');
    expect(dayKind(day('2026-01-01'), null)).toBe('christmas');
    expect(dayKind(day('2026-01-02'), null)).toBe('weekday');
    expect(dayKind(day('2026-01-06'), 'BW')).toBe('holiday');
  });

  it('finds the state of a German postal code, and none for another country’s', () => {
    expect(federalStateOfPostalCode('80331')).toBe('BY'); // Munich
    expect(federalStateOfPostalCode('10115')).toBe('BE');
    expect(federalStateOfPostalCode('01067')).toBe('SN'); // Dresden
    expect(federalStateOfPostalCode(' 50667 ')).toBe('NW'); // Cologne
    expect(federalStateOfPostalCode('70173')).toBe('BW');
    expect(federalStateOfPostalCode('1010', 'AT')).toBeNull();
    expect(federalStateOfPostalCode('8033')).toBeNull();
    expect(federalStateOfPostalCode(null)).toBeNull();
  });
});
