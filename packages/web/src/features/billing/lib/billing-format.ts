import type { Locale } from '@tankportal/shared/constants';
import { formatNumber } from '../../../lib/format.ts';

// Calendar days are not billing's alone (the dispatch view plans delivery days): they live in
// lib/format.ts; billing keeps its names for them.
export { formatDay, today } from '../../../lib/format.ts';

/** Money as the wire sends it ('12.50'): two decimals in the locale, in euros. */
export function formatMoney(amount: string | number, locale: Locale): string {
  return `${formatNumber(Number(amount), locale, 2)} €`;
}

/** Invoice years from 2016 to the current one, newest first. */
export function invoiceYears(now = new Date()): number[] {
  const years: number[] = [];
  for (let year = now.getFullYear(); year >= 2016; year--) years.push(year);
  return years;
}
