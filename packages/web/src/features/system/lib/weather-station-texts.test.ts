import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { weatherStationBody } from '@tankportal/shared/schemas/weather';
import {
  formatDay,
  importResultText,
  positionText,
  stationBody,
  stationFieldErrorText,
} from './weather-station-texts.ts';

/** Shows the key and its values; a key with a default value stands for a missing text. */
const t = ((key: string | string[], options?: Record<string, unknown>) => {
  const first = Array.isArray(key) ? key[0] : key;
  const values = Object.entries(options ?? {})
    .filter(([name]) => name !== 'defaultValue')
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(',');
  return values ? `${first}(${values})` : first;
}) as unknown as TFunction;

describe('weather station texts', () => {
  it('explains a failed import by its reason', () => {
    expect(importResultText({ days: 0, lastDay: null, error: 'unreachable' }, t, 'de')).toBe(
      'weather.importFailed(reason=weather.importErrors.unreachable)',
    );
  });

  it('counts the days an import brought and names the last one in the locale', () => {
    expect(importResultText({ days: 540, lastDay: '2026-03-01', error: null }, t, 'de')).toBe(
      'weather.imported(count=540,lastDay=01.03.2026)',
    );
    expect(importResultText({ days: 0, lastDay: null, error: null }, t, 'en')).toBe(
      'weather.importedNothing',
    );
  });

  it('writes a calendar day without shifting it, and a dash for none', () => {
    expect(formatDay('2026-01-31', 'de')).toBe('31.01.2026');
    expect(formatDay('2026-01-31', 'en')).toBe('01/31/2026');
    expect(formatDay(null, 'de')).toBe('–');
  });

  it('writes a position with four decimals and its hemispheres', () => {
    expect(positionText(53.6332, 9.9881, t, 'de')).toBe(
      'weather.position(lat=53,6332,latHemisphere=weather.hemispheres.n,lng=9,9881,lngHemisphere=weather.hemispheres.e)',
    );
    expect(positionText(-33.9, -70.1, t, 'en')).toBe(
      'weather.position(lat=33.9000,latHemisphere=weather.hemispheres.s,lng=70.1000,lngHemisphere=weather.hemispheres.w)',
    );
  });
});

describe('the station form', () => {
  it('takes coordinates with a decimal comma or point and pads the id', () => {
    const parsed = weatherStationBody.parse(
      stationBody({ id: ' 1975 ', name: 'Hamburg-Fuhlsbüttel', lat: '53,6332', lng: '9.9881' }),
    );
    expect(parsed).toEqual({ id: '01975', name: 'Hamburg-Fuhlsbüttel', lat: 53.6332, lng: 9.9881 });
  });

  it('leaves out an empty coordinate (required) and refuses one that is no number', () => {
    expect(stationBody({ id: '1', name: 'x', lat: ' ', lng: 'abc' })).toMatchObject({ lat: undefined });
    const result = weatherStationBody.safeParse(stationBody({ id: '1', name: 'x', lat: '', lng: 'abc' }));
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['lat', 'lng']);
  });

  it('has its own words for the station id', () => {
    expect(stationFieldErrorText(t, { path: 'id', code: 'conflict', args: {} })).toBe(
      'weather.fieldErrors.id.conflict',
    );
  });
});
