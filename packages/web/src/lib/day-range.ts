import { endOfDay } from 'date-fns';
import { DAY_VALUE } from './typed-day.ts';

// A time filter of whole days, typed in the portal's date format (the message logs, the masters'
// page of the record of changes): what may be typed, and the moments the days start and end.

export type Bound = 'from' | 'to';
/** The filter's days: yyyy-MM-dd, '' for no bound, or the text typed while it is no day. */
export type Days = Record<Bound, string>;
export type DayError = 'format' | 'future' | 'order';

/**
 * What is wrong with the filter's days (no day, a future day, the end before the start), or
 * nothing. An empty field is no bound.
 */
export function dayErrors(days: Days, now = new Date()): Partial<Record<Bound, DayError>> {
  const errors: Partial<Record<Bound, DayError>> = {};
  for (const bound of ['from', 'to'] as const) {
    const day = days[bound];
    if (!day.trim()) continue;
    if (!DAY_VALUE.test(day)) errors[bound] = 'format';
    else if (new Date(`${day}T00:00:00`) > endOfDay(now)) errors[bound] = 'future';
  }
  if (!errors.from && !errors.to && days.from && days.to && days.from > days.to) errors.to = 'order';
  return errors;
}

/** A day of the date fields as the instant its local day starts, or ends. */
export const dayStart = (day: string) => new Date(`${day}T00:00:00`).toISOString();
export const dayEnd = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();
