import { addDays, format, isValid, parseISO } from 'date-fns';
import {
  DISPATCH_HORIZONS,
  DISPATCH_MAX_DAYS,
  DISPATCH_MIN_DAYS,
  type DispatchRow,
} from '@tankportal/shared/schemas/dispatch';
import type { JsonOf } from '../../../lib/api/json.ts';
import type { UnitTotal } from '../../../lib/sensor-totals.ts';

/** A tank due for a delivery as the web receives it (dates as ISO strings). */
export type DispatchRowView = JsonOf<DispatchRow>;

/** The horizon the page starts with. */
export const DEFAULT_DISPATCH_HORIZON = 14;
export { DISPATCH_HORIZONS, DISPATCH_MAX_DAYS, DISPATCH_MIN_DAYS };

/** A typed number of days: a whole number in the API's range (1..365), else null. */
export function daysOf(value: string): number | null {
  if (!/^\d{1,3}$/.test(value.trim())) return null;
  const days = Number(value);
  return days >= DISPATCH_MIN_DAYS && days <= DISPATCH_MAX_DAYS ? days : null;
}

/**
 * The horizon of `?within_days=`: a whole number of days 1..365 (the API's range: the three
 * buttons and any number typed); anything else is the default.
 */
export function horizonOf(value: string | null): number {
  return (value === null ? null : daysOf(value)) ?? DEFAULT_DISPATCH_HORIZON;
}

/** The delivery days the API takes: from today to DISPATCH_MAX_DAYS ahead (`YYYY-MM-DD`). */
export function deliveryDayRange(today: string): { min: string; max: string } {
  return { min: today, max: format(addDays(parseISO(today), DISPATCH_MAX_DAYS), 'yyyy-MM-dd') };
}

/** A delivery day `YYYY-MM-DD` within deliveryDayRange, else null (the horizon's last day then). */
export function deliveryDayOf(value: string | null, today: string): string | null {
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = parseISO(value);
  if (!isValid(day) || format(day, 'yyyy-MM-dd') !== value) return null;
  const { min, max } = deliveryDayRange(today);
  return value >= min && value <= max ? value : null;
}

/** The tanks of one postal code (a route), with what they take per unit. */
export interface DispatchGroup {
  /** null: the devices without a postal code (always the last group). */
  postalCode: string | null;
  /** The first city named by a row of the group, if any. */
  city: string | null;
  rows: DispatchRowView[];
  /** Sum of today's order quantities per unit (rows without one left out), units in order of appearance. */
  totals: UnitTotal[];
  /** The same for the quantities on the delivery day. */
  deliveryTotals: UnitTotal[];
}

type QuantityKey = 'orderQuantity' | 'orderQuantityOnDelivery';

const postalCodeOf = (row: Pick<DispatchRowView, 'address'>) => row.address.postalCode?.trim() || null;

/** Sum of the order quantities (today's, or `key`'s) per unit; rows without one add nothing. */
export function orderTotals(
  rows: readonly Pick<DispatchRowView, 'unit' | QuantityKey>[],
  key: QuantityKey = 'orderQuantity',
): UnitTotal[] {
  const totals = new Map<string, number>();
  for (const row of rows) {
    const quantity = row[key];
    if (quantity === null) continue;
    totals.set(row.unit, (totals.get(row.unit) ?? 0) + quantity);
  }
  return [...totals].map(([unit, total]) => ({ unit, total }));
}

/**
 * The rows grouped by postal code, groups in the order their first row comes (the server sorts by
 * postal code, then empty date), rows keeping theirs; the rows without a postal code last.
 */
export function groupByPostalCode(rows: readonly DispatchRowView[]): DispatchGroup[] {
  const byCode = new Map<string | null, DispatchRowView[]>();
  for (const row of rows) {
    const code = postalCodeOf(row);
    const group = byCode.get(code);
    if (group) group.push(row);
    else byCode.set(code, [row]);
  }
  const groups = [...byCode].map(([postalCode, groupRows]) => ({
    postalCode,
    city: groupRows.find((row) => row.address.city?.trim())?.address.city?.trim() ?? null,
    rows: groupRows,
    totals: orderTotals(groupRows),
    deliveryTotals: orderTotals(groupRows, 'orderQuantityOnDelivery'),
  }));
  return [
    ...groups.filter((group) => group.postalCode !== null),
    ...groups.filter((group) => group.postalCode === null),
  ];
}

/** Street and number, then postal code and city, each part only when there: '' without any. */
export function addressLines(address: DispatchRowView['address']): string[] {
  const clean = (value: string | null) => value?.trim() ?? '';
  const street = [clean(address.street), clean(address.streetNumber)].filter(Boolean).join(' ');
  const place = [clean(address.postalCode), clean(address.city)].filter(Boolean).join(' ');
  return [street, place].filter(Boolean);
}
