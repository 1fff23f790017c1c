import type { TFunction } from 'i18next';
import type { Locale } from '@tankportal/shared/constants';
import { portalDateTime } from '@tankportal/shared/alarm-texts';
import { formatTimeOfDay } from './time-of-day.ts';
import {
  DAILY_INTERVALS,
  type RefDateInterval,
  type RefDateIntervalType,
} from '@tankportal/shared/schemas/ref-date-queries';

/** Reference-date queries run on German time (queryAt is German time). */
export const REF_DATE_TIME_ZONE = 'Europe/Berlin';

export const intervalTypeText = (type: RefDateIntervalType, t: TFunction) =>
  t(`refDateQueries.intervalTypes.${type}`);

/** The chosen intervals in a few words: "1st of the month", "Mon, Wed", "every 6 h". */
export function intervalsText(intervals: readonly RefDateInterval[], t: TFunction): string {
  // Days of the week in their order (Sunday first), whatever order they were stored in.
  const ordered = [...intervals].sort((a, b) => order(a) - order(b));
  return ordered.map((interval) => t(`refDateQueries.intervals.${interval}`)).join(', ');
}

function order(interval: RefDateInterval): number {
  const day = (DAILY_INTERVALS as readonly string[]).indexOf(interval);
  return day === -1 ? 0 : day;
}

/** An "older than" choice in seconds: 30 min, 1 h ... 24 h. */
export function olderThanText(seconds: number, t: TFunction): string {
  return seconds < 3600
    ? t('refDateQueries.duration.minutes', { count: seconds / 60 })
    : t('refDateQueries.duration.hours', { count: seconds / 3600 });
}

/** A run time of a query in the user's format, on German time. */
export function refDateTimeText(value: string | null, locale: Locale, t: TFunction): string {
  return value ? portalDateTime(new Date(value), locale, REF_DATE_TIME_ZONE) : t('refDateQueries.never');
}

/** The query time HH:mm (German time) in the user's format: 14:05, or 02:05 PM in English. */
export const queryAtText = formatTimeOfDay;
