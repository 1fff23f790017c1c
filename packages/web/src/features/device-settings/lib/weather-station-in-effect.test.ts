import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { choiceOf, stationIdOf, weatherInEffectText } from './weather-station-in-effect.ts';

const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key}(${Object.values(values).join('|')})` : key) as unknown as TFunction;

const station = { id: '01975', name: 'Hamburg-Fuhlsbüttel' };

describe('weatherInEffectText', () => {
  it('names the station set on the device with its distance, rounded to whole km', () => {
    expect(
      weatherInEffectText(
        {
          weatherStationId: '01975',
          located: true,
          station: { ...station, chosen: 'device', distanceKm: 12.4 },
        },
        t,
        'de',
      ),
    ).toBe('weather.device.inEffect.deviceAt(Hamburg-Fuhlsbüttel|01975|12)');
  });

  it('leaves the distance out when the device has no location', () => {
    expect(
      weatherInEffectText(
        {
          weatherStationId: '01975',
          located: false,
          station: { ...station, chosen: 'device', distanceKm: null },
        },
        t,
        'de',
      ),
    ).toBe('weather.device.inEffect.device(Hamburg-Fuhlsbüttel|01975|)');
  });

  it('says when the nearest station was chosen automatically', () => {
    expect(
      weatherInEffectText(
        {
          weatherStationId: null,
          located: true,
          station: { ...station, chosen: 'nearest', distanceKm: 1234.6 },
        },
        t,
        'de',
      ),
    ).toBe('weather.device.inEffect.nearestAt(Hamburg-Fuhlsbüttel|01975|1.235)');
  });

  it('names the long-term normals when no station is near, or the device has no location', () => {
    expect(weatherInEffectText({ weatherStationId: null, located: true, station: null }, t, 'en')).toBe(
      'weather.device.inEffect.none',
    );
    expect(weatherInEffectText({ weatherStationId: null, located: false, station: null }, t, 'en')).toBe(
      'weather.device.inEffect.unlocated',
    );
  });
});

describe('the station choice', () => {
  it('is automatic without a station on the device', () => {
    expect(choiceOf({ weatherStationId: null, located: true, station: null })).toBe('automatic');
    expect(stationIdOf('automatic')).toBeNull();
    expect(stationIdOf('01975')).toBe('01975');
  });
});
