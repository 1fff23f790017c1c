import { differenceInCalendarDays, parseISO } from 'date-fns';
import { DISPATCH_MAX_DAYS } from '@tankportal/shared/schemas/dispatch';
import { today } from '../../../lib/format.ts';

/** Tanks due this many days after the tour's day still go along when there is room. */
export const DUE_AFTER_DAYS = 7;

/**
 * The dispatch view's horizon for a tour on `day`: the tanks forecast to run empty up to a week
 * after it; null for a day already past (the dispatch view looks ahead only).
 */
export function dueWithin(day: string, now = today()): number | null {
  const ahead = differenceInCalendarDays(parseISO(day), parseISO(now));
  if (Number.isNaN(ahead) || ahead < 0) return null;
  return Math.min(DISPATCH_MAX_DAYS, ahead + DUE_AFTER_DAYS);
}

interface DayOrder {
  state: string;
  plannedDate: string | null;
  earliest: string;
  latest: string;
}

/**
 * The confirmed orders a tour on `day` may take: planned for that day, or wanted in a window that
 * holds it; those planned for the day first.
 */
export function ordersForDay<T extends DayOrder>(orders: readonly T[], day: string): T[] {
  const confirmed = orders.filter(
    (order) =>
      order.state === 'confirmed' &&
      (order.plannedDate === day || (order.earliest <= day && day <= order.latest)),
  );
  const planned = (order: T) => (order.plannedDate === day ? 0 : 1);
  return confirmed.sort((a, b) => planned(a) - planned(b));
}
