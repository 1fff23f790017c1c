/**
 * The installation's time zone and a moment's wall clock in a zone: leaf helpers any layer may use
 * (schedules, invoicing, exports, the dispatch view); they import nothing of the server.
 */
import type { Day } from './days.ts';

/** The installation's wall clock: schedules say "daily at 02:30" in German time, DST included. */
export const SCHEDULE_TIME_ZONE = 'Europe/Berlin';

/** The German calendar day of a moment. */
export const germanDay = (moment: Date): Day =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: SCHEDULE_TIME_ZONE }).format(moment);

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
export function partsIn(date: Date, timeZone: string) {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    dateTimeFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The calendar year and month (1..12) of a moment in a zone. */
export function monthIn(date: Date, timeZone: string): { year: number; month: number } {
  const { year, month } = partsIn(date, timeZone);
  return { year, month };
}

/** The zone's wall-clock time as a UTC date: what a spreadsheet cell shows. */
export function wallClock(date: Date, timeZone: string): Date {
  const p = partsIn(date, timeZone);
  return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second));
}
