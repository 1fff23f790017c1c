import { DISPATCH_MAX_DAYS } from '@tankportal/shared/schemas/dispatch';
import { today } from '../../../lib/format.ts';

/** The German calendar day of a moment (the planner's days are German days). */
const germanDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' });

/**
 * The dispatch view's horizon for a tour on `day`: a tank reaching its reorder level by then may
 * run empty much later, so the view looks as far as it can; null for a day already past (tours are
 * planned from today on).
 */
export function dispatchHorizon(day: string, now = today()): number | null {
  return day < now ? null : DISPATCH_MAX_DAYS;
}

/**
 * The tanks due for a tour on `day`, as the planner takes them: the forecast reaches the reorder
 * level by the end of that day (German calendar).
 */
export function dueOn<T extends { reorderAt: string | null }>(rows: readonly T[], day: string): T[] {
  return rows.filter((row) => row.reorderAt !== null && germanDay.format(new Date(row.reorderAt)) <= day);
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
