import { DISPATCH_HORIZONS, type DispatchRow } from '@tankportal/shared/schemas/dispatch';
import type { JsonOf } from '../../../lib/api/json.ts';
import type { UnitTotal } from './sensor-totals.ts';

/** A tank due for a delivery as the web receives it (dates as ISO strings). */
export type DispatchRowView = JsonOf<DispatchRow>;

/** The horizon the page starts with. */
export const DEFAULT_DISPATCH_HORIZON = 14;
export { DISPATCH_HORIZONS };

/**
 * The horizon of `?within_days=`: a whole number of days 1..365 (the API's range, so a link with
 * another count than the three offered still works); anything else is the default.
 */
export function horizonOf(value: string | null): number {
  if (value === null || !/^\d{1,3}$/.test(value.trim())) return DEFAULT_DISPATCH_HORIZON;
  const days = Number(value);
  return days >= 1 && days <= 365 ? days : DEFAULT_DISPATCH_HORIZON;
}

/** The tanks of one postal code (a route), with what they take per unit. */
export interface DispatchGroup {
  /** null: the devices without a postal code (always the last group). */
  postalCode: string | null;
  /** The first city named by a row of the group, if any. */
  city: string | null;
  rows: DispatchRowView[];
  /** Sum of the order quantities per unit (rows without one left out), units in order of appearance. */
  totals: UnitTotal[];
}

const postalCodeOf = (row: Pick<DispatchRowView, 'address'>) => row.address.postalCode?.trim() || null;

/** Sum of the order quantities per unit; rows without an order quantity add nothing. */
export function orderTotals(rows: readonly Pick<DispatchRowView, 'unit' | 'orderQuantity'>[]): UnitTotal[] {
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (row.orderQuantity === null) continue;
    totals.set(row.unit, (totals.get(row.unit) ?? 0) + row.orderQuantity);
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
