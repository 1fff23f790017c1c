import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import type { FieldError } from '@tankportal/shared/field-errors';
import type { WEATHER_IMPORT_FAILURES } from '@tankportal/shared/schemas/weather';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { fieldErrorText } from '../../../lib/field-errors.ts';

/** Why an import of the DWD's daily means failed. */
export type WeatherImportFailure = (typeof WEATHER_IMPORT_FAILURES)[number];

/** What an import failure means for the master, in the user's language. */
export const importFailureText = (failure: WeatherImportFailure, t: TFunction) =>
  t(`weather.importErrors.${failure}`);

/** The toast after "Import now": the days stored and the last of them, or why nothing came. */
export function importResultText(
  result: { days: number; lastDay: string | null; error: WeatherImportFailure | null },
  t: TFunction,
  locale: Locale,
): string {
  if (result.error) return t('weather.importFailed', { reason: importFailureText(result.error, t) });
  if (result.days === 0 || !result.lastDay) return t('weather.importedNothing');
  return t('weather.imported', { count: result.days, lastDay: formatDay(result.lastDay, locale) });
}

/** A calendar day 'YYYY-MM-DD' in the locale's format (local midnight: no shift to the day before). */
export function formatDay(day: string | null, locale: Locale): string {
  if (!day) return '–';
  const [year, month, date] = day.split('-').map(Number);
  return formatDate(new Date(year!, month! - 1, date!), locale);
}

/** A station's position as people read it: "53,6332° N, 9,9881° O" (four decimals, about 10 m). */
export function positionText(lat: number, lng: number, t: TFunction, locale: Locale): string {
  return t('weather.position', {
    lat: formatNumber(Math.abs(lat), locale, 4),
    latHemisphere: t(`weather.hemispheres.${lat < 0 ? 's' : 'n'}`),
    lng: formatNumber(Math.abs(lng), locale, 4),
    lngHemisphere: t(`weather.hemispheres.${lng < 0 ? 'w' : 'e'}`),
  });
}

/** The add form's values: every field as typed. */
export interface StationFormValues {
  id: string;
  name: string;
  lat: string;
  lng: string;
}

export const EMPTY_STATION: StationFormValues = { id: '', name: '', lat: '', lng: '' };

/** A coordinate as typed, with a decimal point or (German) comma; empty: none (required). */
function coordinate(text: string): number | undefined {
  const trimmed = text.trim();
  // Number('') would be 0, and "53,6" with a comma NaN: both say what the person meant instead.
  return trimmed === '' ? undefined : Number(trimmed.replace(',', '.'));
}

/** The request body of the form's values, for the shared schema to check. */
export function stationBody(values: StationFormValues) {
  return { id: values.id, name: values.name, lat: coordinate(values.lat), lng: coordinate(values.lng) };
}

/**
 * A field error of the station form (the client's check or the server's answer): the station id
 * and the coordinates have their own words, the rest the common ones.
 */
export function stationFieldErrorText(
  t: TFunction,
  error: Pick<FieldError, 'path' | 'code' | 'args'>,
): string {
  return t(`weather.fieldErrors.${error.path}.${error.code}`, {
    ...error.args,
    defaultValue: fieldErrorText(t, error),
  });
}
