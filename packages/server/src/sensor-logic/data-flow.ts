import type { InterpolationDate, InterpolationMode } from '@tankportal/shared/schemas/export';
import { isRefill, monthlyConsumption, type Reading } from './consumption.ts';

/**
 * Monthly data flow of a level sensor (the data-flow export):
 * - outflow: what was used, exactly the monthly consumption (sum of decreases);
 * - inflow: what was filled in, the rises that count as refills (at least the filling-recognition
 *   share of the capacity; smaller rises are measuring noise, as for the consumption);
 * - qty: the contents at the month's reference moment (its first moment, or the first moment of the
 *   next month for `month_end`), interpolated linearly between the readings around it or taken
 *   from the last reading before it.
 * Steps are booked to the month (UTC) of their later reading, as the consumption does.
 */
export interface MonthlyFlow {
  year: number;
  month: number;
  /** Null in a month without readings: nothing is known, which is not "nothing flowed". */
  inflow: number | null;
  outflow: number | null;
  /** Null before the first reading. */
  qty: number | null;
}

export interface DataFlowOptions {
  capacity: number;
  fillingRecognitionInterval: number;
  mode: InterpolationMode;
  at: InterpolationDate;
}

export function monthlyDataFlow(
  readings: Reading[],
  months: { year: number; month: number }[],
  options: DataFlowOptions,
): MonthlyFlow[] {
  const byTime = new Map<number, number>();
  for (const reading of readings) byTime.set(reading.at.getTime(), reading.value);
  const ordered = [...byTime].sort((a, b) => a[0] - b[0]);
  const key = (year: number, month: number) => `${year}-${month}`;

  const outflow = new Map(
    monthlyConsumption(readings, 'probe').map((row) => [key(row.year, row.month), row.consumption]),
  );
  const measured = new Set<string>();
  for (const [at] of ordered) {
    const date = new Date(at);
    measured.add(key(date.getUTCFullYear(), date.getUTCMonth() + 1));
  }
  const inflow = new Map<string, number>();
  for (let i = 1; i < ordered.length; i++) {
    const [, previous] = ordered[i - 1];
    const [at, current] = ordered[i];
    if (!isRefill(previous, current, options.capacity, options.fillingRecognitionInterval)) continue;
    const date = new Date(at);
    const month = key(date.getUTCFullYear(), date.getUTCMonth() + 1);
    inflow.set(month, (inflow.get(month) ?? 0) + current - previous);
  }

  return months.map(({ year, month }) => {
    const moment = options.at === 'month_start' ? Date.UTC(year, month - 1, 1) : Date.UTC(year, month, 1);
    const known = measured.has(key(year, month));
    return {
      year,
      month,
      inflow: known ? (inflow.get(key(year, month)) ?? 0) : null,
      outflow: known ? (outflow.get(key(year, month)) ?? 0) : null,
      qty: quantityAt(ordered, moment, options.mode),
    };
  });
}

/** Contents at `moment` from time-ordered [ms, value] pairs; null before the first reading. */
export function quantityAt(
  ordered: [number, number][],
  moment: number,
  mode: InterpolationMode,
): number | null {
  let before = -1;
  for (let low = 0, high = ordered.length - 1; low <= high;) {
    const middle = (low + high) >> 1;
    if (ordered[middle][0] <= moment) {
      before = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (before < 0) return null;
  const [beforeAt, beforeValue] = ordered[before];
  const after = ordered[before + 1];
  if (mode === 'last_value' || beforeAt === moment || !after) return beforeValue;
  const [afterAt, afterValue] = after;
  return beforeValue + ((afterValue - beforeValue) * (moment - beforeAt)) / (afterAt - beforeAt);
}
