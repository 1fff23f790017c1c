import { Cron } from 'croner';
import type { RefDateInterval, RefDateIntervalType } from '@tankportal/shared/schemas/ref-date-queries';
import { SCHEDULE_TIME_ZONE } from '../time/zone.ts';

export interface RefDateTimetable {
  intervalType: RefDateIntervalType;
  intervals: RefDateInterval[];
  /** HH:mm, German wall-clock time. */
  queryAt: string;
}

const DAY_OF_MONTH = { monthly_first: '1', monthly_mid: '15', monthly_last: 'L' } as const;

/**
 * The cron expression of a timetable, read in German time: monthly on the 1st, 15th or last day;
 * daily on the chosen weekdays (0 = Sunday, as cron counts); intraday every N hours counted from
 * the query time (06:05 every 6 h: 00:05, 06:05, 12:05, 18:05).
 */
export function cronOf({ intervalType, intervals, queryAt }: RefDateTimetable): string {
  const hour = Number(queryAt.slice(0, 2));
  const minute = Number(queryAt.slice(3, 5));
  if (intervalType === 'monthly')
    return `${minute} ${hour} ${DAY_OF_MONTH[intervals[0] as keyof typeof DAY_OF_MONTH]} * *`;
  if (intervalType === 'daily')
    return `${minute} ${hour} * * ${intervals.map((interval) => interval.slice('daily_'.length)).join(',')}`;
  const every = Number(intervals[0]!.slice('intraday_'.length));
  const hours: number[] = [];
  for (let h = hour % every; h < 24; h += every) hours.push(h);
  return `${minute} ${hours.join(',')} * * *`;
}

/**
 * The first due time of a timetable strictly after `after`. croner keeps German time across the
 * clock changes: a time in the spring gap (02:30 on the last Sunday of March) runs at the gap's
 * end (03:00 CEST), a time in the repeated autumn hour runs once (decision 028).
 */
export function nextRunAfter(timetable: RefDateTimetable, after: Date): Date | null {
  return new Cron(cronOf(timetable), { timezone: SCHEDULE_TIME_ZONE, paused: true }).nextRun(after);
}
