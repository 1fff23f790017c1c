import { describe, expect, it } from 'vitest';
import { ALARM_TYPES } from './devices.ts';
import { LOCALES } from './constants.ts';
import { ALARM_TEXTS, alarmDescription, alarmTitle, portalDateTime } from './alarm-texts.ts';

describe('alarm wording', () => {
  it('gives every alarm type a name and a description in German and English', () => {
    for (const language of LOCALES) {
      for (const type of ALARM_TYPES) {
        const { label, description } = ALARM_TEXTS[language][type];
        expect(label.length, `${language} ${type}`).toBeGreaterThan(3);
        expect(description, `${language} ${type}`).toMatch(/^[A-Z].{20,}\.$/);
      }
      // No two types share a description (the error codes name their code).
      const descriptions = ALARM_TYPES.map((type) => alarmDescription(type, language));
      expect(new Set(descriptions).size).toBe(ALARM_TYPES.length);
    }
    expect(alarmDescription('e003', 'de')).toContain('E003');
    expect(alarmDescription('e003', 'en')).toContain('E003');
  });

  it('names a temperature alarm with its sensor, value and unit in the locale', () => {
    const alarm = { type: 'temperature' as const, value: '3', sensor: { sequence: 2, unit: 'c' } };
    expect(alarmTitle(alarm, 'de')).toBe('Temperaturalarm Sensor 2: 3,0 °C');
    expect(alarmTitle(alarm, 'en')).toBe('Temperature alarm Sensor 2: 3.0 °C');
    expect(
      alarmTitle({ ...alarm, value: '-12.25', sensor: { sequence: 1, name: 'Tank Nord', unit: 'c' } }, 'de'),
    ).toBe('Temperaturalarm Sensor 1 (Tank Nord): -12,3 °C');
    // A sensor whose unit is not known yet: temperatures are Celsius.
    expect(alarmTitle({ type: 'temperature', value: '3', sensor: { sequence: 2 } }, 'de')).toBe(
      'Temperaturalarm Sensor 2: 3,0 °C',
    );
  });

  it("writes a leak's quantity with the locale's thousands separator and the unit's symbol", () => {
    const leak = { type: 'leak' as const, value: '1440 l', sensor: { sequence: 1, name: 'Diesel' } };
    expect(alarmTitle(leak, 'de')).toBe('Leck- oder Diebstahlverdacht Sensor 1 (Diesel): 1.440 l');
    expect(alarmTitle(leak, 'en')).toBe('Suspected leak or theft Sensor 1 (Diesel): 1,440 l');
    expect(alarmTitle({ ...leak, value: '12500.5 m3' }, 'de')).toContain(': 12.500,5 m³');
  });

  it('names an input alarm by its type alone', () => {
    expect(alarmTitle({ type: 'e003' }, 'de')).toBe('Gerätefehler E003');
    expect(alarmTitle({ type: 'power_failure', value: null, sensor: null }, 'en')).toBe('Power failure');
  });

  it("writes dates in the portal's format per language and time zone", () => {
    const at = new Date('2026-11-24T17:05:00Z');
    expect(portalDateTime(at, 'de', 'Europe/Berlin')).toBe('24.11.2026 18:05');
    expect(portalDateTime(at, 'en', 'Europe/Berlin')).toBe('11/24/2026 06:05 PM');
    expect(portalDateTime(new Date('2026-07-01T22:30:00Z'), 'de', 'Europe/Berlin')).toBe('02.07.2026 00:30');
    expect(portalDateTime(new Date('2026-07-01T22:30:00Z'), 'en', 'Europe/Berlin')).toBe(
      '07/02/2026 12:30 AM',
    );
  });
});
