import { describe, expect, it } from 'vitest';
import { formatTimeOfDay, parseTimeOfDay } from './time-of-day.ts';

describe('time of day', () => {
  it('is written in 24 hours in German and 12 in English', () => {
    expect(formatTimeOfDay('06:15', 'de')).toBe('06:15');
    expect(formatTimeOfDay('18:15', 'en')).toBe('06:15 PM');
    expect(formatTimeOfDay('00:05', 'en')).toBe('12:05 AM');
  });

  it('is read as typed in the language, and nothing else', () => {
    expect(parseTimeOfDay('6:15', 'de')).toBe('06:15');
    expect(parseTimeOfDay('18:15', 'de')).toBe('18:15');
    expect(parseTimeOfDay('06:15 PM', 'en')).toBe('18:15');
    expect(parseTimeOfDay('12:05 am', 'en')).toBe('00:05');
    expect(parseTimeOfDay('18:15', 'en')).toBe('18:15');
    for (const text of ['06:15 AM', '24:00', '7:60', '715', ''])
      expect(parseTimeOfDay(text, 'de'), text).toBeNull();
    expect(parseTimeOfDay('13:00 PM', 'en')).toBeNull();
  });
});
