import { describe, expect, it } from 'vitest';
import type { RefDateInterval, RefDateIntervalType } from '@tankportal/shared/schemas/ref-date-queries';
import { cronOf, nextRunAfter } from './ref-date-schedule.ts';

/** The due times of a timetable after `from`, as UTC ISO strings. */
function dueTimes(
  intervalType: RefDateIntervalType,
  intervals: RefDateInterval[],
  queryAt: string,
  from: string,
  count: number,
) {
  const times: string[] = [];
  let after = new Date(from);
  for (let i = 0; i < count; i++) {
    after = nextRunAfter({ intervalType, intervals, queryAt }, after)!;
    times.push(after.toISOString());
  }
  return times;
}

describe('reference-date timetables (German time)', () => {
  it('monthly: the first, the 15th and the last day, leap years and year ends included', () => {
    expect(dueTimes('monthly', ['monthly_first'], '08:00', '2027-11-15T00:00:00Z', 3)).toEqual([
      '2027-12-01T07:00:00.000Z',
      '2028-01-01T07:00:00.000Z',
      '2028-02-01T07:00:00.000Z',
    ]);
    expect(dueTimes('monthly', ['monthly_mid'], '23:55', '2027-06-20T00:00:00Z', 2)).toEqual([
      // Summer time: 23:55 CEST is 21:55 UTC.
      '2027-07-15T21:55:00.000Z',
      '2027-08-15T21:55:00.000Z',
    ]);
    expect(dueTimes('monthly', ['monthly_last'], '00:00', '2028-01-15T00:00:00Z', 3)).toEqual([
      '2028-01-30T23:00:00.000Z',
      '2028-02-28T23:00:00.000Z', // 29 February 2028, 00:00 CET
      '2028-03-30T22:00:00.000Z', // 31 March, summer time
    ]);
  });

  it('daily: only the chosen weekdays, Sunday = daily_0', () => {
    // 2027-01-04 is a Monday.
    expect(dueTimes('daily', ['daily_0', 'daily_3'], '06:30', '2027-01-04T00:00:00Z', 4)).toEqual([
      '2027-01-06T05:30:00.000Z', // Wednesday
      '2027-01-10T05:30:00.000Z', // Sunday
      '2027-01-13T05:30:00.000Z',
      '2027-01-17T05:30:00.000Z',
    ]);
    expect(cronOf({ intervalType: 'daily', intervals: ['daily_0', 'daily_3'], queryAt: '06:30' })).toBe(
      '30 6 * * 0,3',
    );
  });

  it('intraday: every N hours counted from the query time', () => {
    expect(dueTimes('intraday', ['intraday_6'], '07:05', '2027-01-10T00:00:00Z', 5)).toEqual([
      '2027-01-10T00:05:00.000Z', // 01:05 CET
      '2027-01-10T06:05:00.000Z',
      '2027-01-10T12:05:00.000Z',
      '2027-01-10T18:05:00.000Z',
      '2027-01-11T00:05:00.000Z',
    ]);
    expect(dueTimes('intraday', ['intraday_12'], '11:00', '2027-01-10T00:00:00Z', 2)).toEqual([
      '2027-01-10T10:00:00.000Z',
      '2027-01-10T22:00:00.000Z',
    ]);
    expect(dueTimes('intraday', ['intraday_1'], '00:15', '2027-01-10T00:00:00Z', 2)).toEqual([
      '2027-01-10T00:15:00.000Z',
      '2027-01-10T01:15:00.000Z',
    ]);
  });

  it('runs a time in the spring gap at its end and one in the repeated autumn hour once', () => {
    // 2027-03-28: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist that night.
    expect(dueTimes('daily', ['daily_0', 'daily_1'], '02:30', '2027-03-27T12:00:00Z', 2)).toEqual([
      '2027-03-28T01:00:00.000Z', // 03:00 CEST, the end of the gap
      '2027-03-29T00:30:00.000Z', // 02:30 CEST
    ]);
    // 2027-10-31: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice, the query runs once.
    expect(dueTimes('daily', ['daily_0', 'daily_1'], '02:30', '2027-10-30T12:00:00Z', 2)).toEqual([
      '2027-10-31T00:30:00.000Z', // the first 02:30 (CEST)
      '2027-11-01T01:30:00.000Z', // the next day, 02:30 CET
    ]);
  });
});
