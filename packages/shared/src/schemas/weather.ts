import { z } from 'zod';
import { requiredText } from './common.ts';

/**
 * Weather stations (docs/forecast.md "Weather"): the German weather service's stations
 * whose daily mean temperatures the forecast of heating contents uses.
 */

/** A DWD station id: one to five digits ("1975" and "01975" are the same station). */
export const weatherStationId = () =>
  z
    .string({ error: (issue) => (issue.input == null ? 'required' : 'invalid') })
    .trim()
    .regex(/^\d{1,5}$/, { error: 'invalid' })
    .transform((id) => id.padStart(5, '0'));

/** Body of `POST /v2/weather-stations` (master). */
export const weatherStationBody = z.strictObject({
  id: weatherStationId(),
  name: requiredText().max(64),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});

export const WEATHER_IMPORT_FAILURES = ['not_found', 'unreachable', 'unreadable'] as const;

export const weatherStationSchema = z.object({
  id: z.string(),
  name: z.string(),
  lat: z.number(),
  lng: z.number(),
  importedAt: z.date().nullable(),
  /** Why the last import failed (null: it worked or has not run). */
  importError: z.enum(WEATHER_IMPORT_FAILURES).nullable(),
  /** Days of daily means stored, and the last of them ('YYYY-MM-DD'). */
  days: z.number(),
  lastDay: z.string().nullable(),
});
export type WeatherStation = z.infer<typeof weatherStationSchema>;

/** Which station a device's forecast uses: its own, the nearest within 100 km, or none (normals). */
export const deviceWeatherSchema = z.object({
  /** The station set on the device; null: chosen by location. */
  weatherStationId: z.string().nullable(),
  /** Whether the device has a location to choose the nearest station by. */
  located: z.boolean(),
  station: z
    .object({
      id: z.string(),
      name: z.string(),
      chosen: z.enum(['device', 'nearest']),
      distanceKm: z.number().nullable(),
    })
    .nullable(),
});
export type DeviceWeather = z.infer<typeof deviceWeatherSchema>;

/** Body of `PUT /v2/devices/{id}/weather-station`: a station, or null for "the nearest". */
export const deviceWeatherBody = z.strictObject({
  weatherStationId: weatherStationId().nullable(),
});
