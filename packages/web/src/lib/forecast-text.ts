import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import { healthLabel } from '@tankportal/shared/health-texts';
import type { SensorForecast } from '@tankportal/shared/schemas/devices';
import { unitSymbol } from '@tankportal/shared/units';
import type { JsonOf } from './api/json.ts';
import { formatDate, formatDateRange, formatNumber } from './format.ts';
import { unitFractionDigits } from './sensor-totals.ts';

/** A sensor's forecast as the web receives it (dates as ISO strings). */
export type ForecastView = JsonOf<SensorForecast>;

/** One line of a level sensor's forecast on the status page; `key` names it for tests and styling. */
export interface ForecastLine {
  key: 'empty' | 'reorder' | 'use' | 'accuracy' | 'none' | 'unreliable';
  text: string;
}

/** The doubts that make a forecast unreliable, in their labels ("Sensor hängt"); '' for none. */
export const doubtsText = (forecast: Pick<ForecastView, 'doubts'>, locale: Locale) =>
  forecast.doubts.map((kind) => healthLabel(kind, locale)).join(', ');

/**
 * The level sensor that runs empty first, with its forecast (the list's "Leer voraussichtlich"):
 * null when none has a forecast.
 */
export function firstEmpty<T extends { forecast: ForecastView | null }>(
  sensors: readonly T[],
): (T & { forecast: ForecastView }) | null {
  let first: (T & { forecast: ForecastView }) | null = null;
  for (const sensor of sensors)
    if (sensor.forecast && (!first || sensor.forecast.emptyAt < first.forecast.emptyAt))
      first = sensor as T & { forecast: ForecastView };
  return first;
}

/**
 * The use per day with the unit's usual digits; a small use (under 10 in a unit shown without
 * decimals) gets one decimal, so that 0.4 l a day does not read "0 l".
 */
export function perDayText(perDay: number, unit: string, locale: Locale): string {
  const digits = Math.max(unitFractionDigits(unit), Math.abs(perDay) < 10 ? 1 : 0);
  return `${formatNumber(perDay, locale, digits)} ${unitSymbol(unit)}`;
}

/**
 * What the status page says about a connected level sensor's forecast: the empty date
 * with its range, the reorder date (or that the reorder point is reached, when it is not after
 * `now`; nothing without a threshold), the use per day and, once measured, the accuracy. Without a
 * forecast: one line saying there are too few readings. While the sensor's readings are in doubt
 * (stuck, jump): one line saying there is no reliable forecast, and no date at all.
 */
export function forecastLines(
  forecast: ForecastView | null,
  unit: string,
  locale: Locale,
  t: TFunction,
  now: Date,
): ForecastLine[] {
  if (!forecast) return [{ key: 'none', text: t('device.forecast.none') }];
  if (forecast.doubts.length > 0)
    return [
      { key: 'unreliable', text: t('device.forecast.unreliable', { doubts: doubtsText(forecast, locale) }) },
    ];
  const lines: ForecastLine[] = [
    {
      key: 'empty',
      text: t('device.forecast.emptyAt', {
        date: formatDate(forecast.emptyAt, locale),
        range: formatDateRange(forecast.emptyAtLow, forecast.emptyAtHigh, locale),
      }),
    },
  ];
  if (forecast.reorderAt !== null)
    lines.push({
      key: 'reorder',
      text:
        new Date(forecast.reorderAt).getTime() > now.getTime()
          ? t('device.forecast.reorderBy', { date: formatDate(forecast.reorderAt, locale) })
          : t('device.forecast.reorderReached'),
    });
  lines.push({
    key: 'use',
    text: t('device.forecast.perDay', { quantity: perDayText(forecast.perDay, unit, locale) }),
  });
  if (forecast.errorDays !== null) {
    const days = Math.round(forecast.errorDays);
    lines.push({
      key: 'accuracy',
      text: t('device.forecast.accuracy', {
        count: days,
        days: formatNumber(days, locale),
        horizon: formatNumber(forecast.errorHorizonDays ?? 30, locale),
      }),
    });
  }
  return lines;
}
