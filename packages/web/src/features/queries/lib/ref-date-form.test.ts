import { describe, expect, it } from 'vitest';
import { isDirty, isOffStep, refDateBody, refDateFormValues, roundedQueryTime } from './ref-date-form.ts';

describe('roundedQueryTime', () => {
  it('rounds German time to the nearest 5 minutes', () => {
    // 10:07 UTC in winter is 11:07 in Germany.
    expect(roundedQueryTime(new Date('2026-01-15T10:07:00Z'))).toBe('11:05');
    expect(roundedQueryTime(new Date('2026-01-15T10:08:00Z'))).toBe('11:10');
    // Summer time: UTC+2.
    expect(roundedQueryTime(new Date('2026-07-15T10:02:29Z'))).toBe('12:00');
  });

  it('wraps past midnight', () => {
    expect(roundedQueryTime(new Date('2026-01-15T22:58:00Z'))).toBe('00:00');
  });
});

describe('refDateFormValues and refDateBody', () => {
  it('starts a new query monthly on the first at the rounded time, 30 min, active, no devices', () => {
    const values = refDateFormValues(undefined, new Date('2026-01-15T10:07:00Z'));
    expect(refDateBody(values)).toEqual({
      intervalType: 'monthly',
      intervals: ['monthly_first'],
      queryAt: '11:05',
      olderThan: 1800,
      active: true,
      deviceIds: [],
    });
    expect(values.intraday).toBe('intraday_12');
  });

  it('sends only the chosen type, the days Sunday first', () => {
    const values = { ...refDateFormValues(), intervalType: 'daily' as const };
    values.daily = ['daily_5', 'daily_0', 'daily_2'];
    expect(refDateBody(values).intervals).toEqual(['daily_0', 'daily_2', 'daily_5']);
    expect(refDateBody({ ...values, intervalType: 'intraday' }).intervals).toEqual(['intraday_12']);
  });

  it('reads a stored query back, and finds no change in it', () => {
    const stored = {
      id: 1,
      userId: 2,
      username: 'user',
      intervalType: 'intraday' as const,
      intervals: ['intraday_3' as const],
      queryAt: '06:15',
      olderThan: 7200,
      isActive: false,
      deviceIds: [9, 3],
      lastRunAt: null,
      nextRunAt: null,
    };
    const values = refDateFormValues(stored);
    expect(values).toMatchObject({ intraday: 'intraday_3', monthly: 'monthly_first', daily: [] });
    expect(refDateBody(values)).toEqual({
      intervalType: 'intraday',
      intervals: ['intraday_3'],
      queryAt: '06:15',
      olderThan: 7200,
      active: false,
      deviceIds: [3, 9],
    });
    expect(isDirty(values, { ...values })).toBe(false);
    // A choice of a type not sent is no change; one of the sent type is.
    expect(isDirty(values, { ...values, monthly: 'monthly_last' })).toBe(false);
    expect(isDirty(values, { ...values, intraday: 'intraday_6' })).toBe(true);
  });
});

describe('isOffStep', () => {
  it('is true for a time of day off the 5-minute grid only', () => {
    expect(isOffStep('06:07')).toBe(true);
    expect(isOffStep('06:05')).toBe(false);
    expect(isOffStep('')).toBe(false);
  });
});
