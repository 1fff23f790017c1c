import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { firstEmpty, forecastLines, perDayText, type ForecastView } from './forecast-text.ts';

/** Stands in for i18next: the key with its options, so the tests see what is chosen and filled in. */
const t = ((key: string, options?: Record<string, unknown>) =>
  options ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;

/** A calendar day at noon local time, as the API's ISO string: the same day in any time zone offset below 12 h. */
const day = (year: number, month: number, date: number) => new Date(year, month - 1, date, 12).toISOString();

const NOW = new Date(2027, 1, 1, 12);

const forecast: ForecastView = {
  emptyAt: day(2027, 3, 12),
  reorderAt: day(2027, 3, 1),
  emptyAtLow: day(2027, 3, 10),
  emptyAtHigh: day(2027, 3, 15),
  perDay: 18.2,
  errorDays: 3,
  errorHorizonDays: 14,
  doubts: [],
};

describe('forecastLines', () => {
  it('gives the empty date with its range, the reorder date, the use per day and the accuracy', () => {
    expect(forecastLines(forecast, 'l', 'de', t, NOW)).toEqual([
      { key: 'empty', text: 'device.forecast.emptyAt {"date":"12.03.2027","range":"10.–15.03.2027"}' },
      { key: 'reorder', text: 'device.forecast.reorderBy {"date":"01.03.2027"}' },
      { key: 'use', text: 'device.forecast.perDay {"quantity":"18 l"}' },
      { key: 'accuracy', text: 'device.forecast.accuracy {"count":3,"days":"3","horizon":"14"}' },
    ]);
  });

  it('writes the dates and numbers in English the English way', () => {
    const lines = forecastLines({ ...forecast, perDay: 1234.4 }, 'l', 'en', t, NOW);
    expect(lines[0].text).toContain('"date":"03/12/2027","range":"03/10–03/15/2027"');
    expect(lines[1].text).toContain('"date":"03/01/2027"');
    expect(lines[2].text).toContain('"quantity":"1,234 l"');
  });

  it('says the reorder point is reached once its date is not after now', () => {
    expect(forecastLines(forecast, 'l', 'de', t, new Date(forecast.reorderAt!))[1]).toEqual({
      key: 'reorder',
      text: 'device.forecast.reorderReached',
    });
    expect(forecastLines(forecast, 'l', 'de', t, new Date(2027, 2, 5))[1].text).toBe(
      'device.forecast.reorderReached',
    );
  });

  it('gives no date while the readings are in doubt, only that the forecast is unreliable and why', () => {
    expect(forecastLines({ ...forecast, doubts: ['stuck'] }, 'l', 'de', t, NOW)).toEqual([
      { key: 'unreliable', text: 'device.forecast.unreliable {"doubts":"Sensor hängt"}' },
    ]);
    expect(forecastLines({ ...forecast, doubts: ['stuck', 'jump'] }, 'l', 'en', t, NOW)[0].text).toBe(
      'device.forecast.unreliable {"doubts":"Sensor stuck, Implausible jump"}',
    );
  });

  it('leaves out the reorder line without a reorder date and the accuracy while not measured', () => {
    const lines = forecastLines({ ...forecast, reorderAt: null, errorDays: null }, 'l', 'de', t, NOW);
    expect(lines.map((line) => line.key)).toEqual(['empty', 'use']);
  });

  it('rounds the accuracy to whole days', () => {
    expect(forecastLines({ ...forecast, errorDays: 0.6 }, 'l', 'de', t, NOW)[3].text).toBe(
      'device.forecast.accuracy {"count":1,"days":"1","horizon":"14"}',
    );
  });

  it('says there is no forecast yet when there is none', () => {
    expect(forecastLines(null, 'l', 'de', t, NOW)).toEqual([{ key: 'none', text: 'device.forecast.none' }]);
  });
});

describe('perDayText', () => {
  it('uses the unit’s digits, one decimal for a small use', () => {
    expect(perDayText(18.2, 'l', 'de')).toBe('18 l');
    expect(perDayText(0.42, 'kg', 'de')).toBe('0,4 kg');
    expect(perDayText(1.234, 'm3', 'en')).toBe('1.23 m³');
  });
});

describe('firstEmpty', () => {
  it('picks the sensor forecast to run empty first, skipping those without a forecast', () => {
    const later = { name: 'Heizöl', forecast: { ...forecast, emptyAt: day(2027, 4, 1) } };
    const sooner = { name: 'Diesel', forecast: { ...forecast, emptyAt: day(2027, 3, 1) } };
    expect(firstEmpty([later, { name: 'Wasser', forecast: null }, sooner])).toBe(sooner);
    expect(firstEmpty([{ name: 'Wasser', forecast: null }])).toBeNull();
  });
});
