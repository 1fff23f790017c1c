import {
  DAILY_INTERVALS,
  INTRADAY_INTERVALS,
  MONTHLY_INTERVALS,
  REF_DATE_DEFAULTS,
  REF_DATE_OLDER_THAN_DEFAULT,
  REF_DATE_QUERY_TIME_STEP_MINUTES,
  type RefDateInterval,
  type RefDateIntervalType,
  type RefDateQueryBody,
} from '@tankportal/shared/schemas/ref-date-queries';
import type { RefDateQueryView } from '../../../lib/api/ref-date-queries.ts';
import { REF_DATE_TIME_ZONE } from '../../../lib/ref-date-texts.ts';

export type MonthlyInterval = (typeof MONTHLY_INTERVALS)[number];
export type DailyInterval = (typeof DAILY_INTERVALS)[number];
export type IntradayInterval = (typeof INTRADAY_INTERVALS)[number];

/**
 * The form of a reference-date query. Each interval type keeps its own choice, so switching the
 * type back and forth loses nothing; only the chosen type's intervals are sent.
 */
export interface RefDateFormValues {
  intervalType: RefDateIntervalType;
  monthly: MonthlyInterval;
  daily: DailyInterval[];
  intraday: IntradayInterval;
  /** HH:mm, German time. */
  queryAt: string;
  olderThan: number;
  active: boolean;
  /** Ascending. */
  deviceIds: number[];
}

const MINUTES_PER_DAY = 24 * 60;
const pad = (value: number) => String(value).padStart(2, '0');

/** The time of day at `now` in `timeZone`, rounded to the nearest 5 minutes. */
export function roundedQueryTime(now: Date, timeZone = REF_DATE_TIME_ZONE): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  const step = REF_DATE_QUERY_TIME_STEP_MINUTES;
  const minutes = Number(parts.hour) * 60 + Number(parts.minute);
  const rounded = (Math.round(minutes / step) * step) % MINUTES_PER_DAY;
  return `${pad(Math.floor(rounded / 60))}:${pad(rounded % 60)}`;
}

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

/** A new query's defaults, or the values of a stored one. */
export function refDateFormValues(query?: RefDateQueryView, now = new Date()): RefDateFormValues {
  const stored: readonly RefDateInterval[] = query?.intervals ?? [];
  const monthly = stored.find((interval) => isOneOf(MONTHLY_INTERVALS, interval));
  const intraday = stored.find((interval) => isOneOf(INTRADAY_INTERVALS, interval));
  return {
    intervalType: query?.intervalType ?? REF_DATE_DEFAULTS.intervalType,
    monthly: (monthly as MonthlyInterval | undefined) ?? REF_DATE_DEFAULTS.monthly,
    daily: DAILY_INTERVALS.filter((day) => stored.includes(day)),
    intraday: (intraday as IntradayInterval | undefined) ?? REF_DATE_DEFAULTS.intraday,
    queryAt: query?.queryAt ?? roundedQueryTime(now),
    olderThan: query?.olderThan ?? REF_DATE_OLDER_THAN_DEFAULT,
    active: query?.isActive ?? true,
    deviceIds: [...(query?.deviceIds ?? [])].sort((a, b) => a - b),
  };
}

/** The request body: the chosen type with its own intervals (Sunday first for the days). */
export function refDateBody(values: RefDateFormValues): RefDateQueryBody {
  const intervals: RefDateInterval[] =
    values.intervalType === 'monthly'
      ? [values.monthly]
      : values.intervalType === 'intraday'
        ? [values.intraday]
        : DAILY_INTERVALS.filter((day) => values.daily.includes(day));
  return {
    intervalType: values.intervalType,
    intervals,
    queryAt: values.queryAt,
    olderThan: values.olderThan,
    active: values.active,
    deviceIds: values.deviceIds,
  };
}

/** Whether the form holds a change that would be lost: what would be sent differs. */
export function isDirty(initial: RefDateFormValues, current: RefDateFormValues): boolean {
  return JSON.stringify(refDateBody(initial)) !== JSON.stringify(refDateBody(current));
}

/** A query time that is a time of day but off the 5-minute grid. */
export function isOffStep(queryAt: string): boolean {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(queryAt);
  return !!match && Number(match[2]) % REF_DATE_QUERY_TIME_STEP_MINUTES !== 0;
}
