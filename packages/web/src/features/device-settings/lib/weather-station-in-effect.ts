import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import type { DeviceWeather } from '@tankportal/shared/schemas/weather';
import { formatNumber } from '../../../lib/format.ts';

/**
 * What the device's forecast takes its temperatures from, in a sentence: the station set on the
 * device, the nearest one within 100 km, or (none, or no location to find one by) the long-term
 * normals.
 */
export function weatherInEffectText(weather: DeviceWeather, t: TFunction, locale: Locale): string {
  const { station } = weather;
  if (!station)
    return t(weather.located ? 'weather.device.inEffect.none' : 'weather.device.inEffect.unlocated');
  const distance = station.distanceKm === null ? null : formatNumber(Math.round(station.distanceKm), locale);
  const values = { name: station.name, id: station.id, distance };
  if (station.chosen === 'device')
    return t(
      distance === null ? 'weather.device.inEffect.device' : 'weather.device.inEffect.deviceAt',
      values,
    );
  return t(
    distance === null ? 'weather.device.inEffect.nearest' : 'weather.device.inEffect.nearestAt',
    values,
  );
}

/**
 * The select's value of a station choice: "automatic" (no station on the device) is a word, as a
 * select shows nothing for '' and station ids are digits only.
 */
export const AUTOMATIC = 'automatic';
export const choiceOf = (weather: DeviceWeather) => weather.weatherStationId ?? AUTOMATIC;
export const stationIdOf = (choice: string) => (choice === AUTOMATIC ? null : choice);
