import { format } from 'date-fns';
import type { Locale } from '@tankportal/shared/constants';
import { formatDate, formatNumber } from '../../../lib/format.ts';

/** A calendar day 'YYYY-MM-DD' as the locale writes it (dd.MM.yyyy in German), or '–'. */
export function formatDay(day: string | null | undefined, locale: Locale): string {
  if (!day) return '–';
  const [year, month, date] = day.split('-').map(Number);
  // Local midnight of that day: `new Date('2026-01-31')` would be UTC and may show the day before.
  return formatDate(new Date(year!, month! - 1, date!), locale);
}

/** Money as the wire sends it ('12.50'): two decimals in the locale, in euros. */
export function formatMoney(amount: string | number, locale: Locale): string {
  return `${formatNumber(Number(amount), locale, 2)} €`;
}

/** Today as a calendar day 'YYYY-MM-DD' (local time). */
export function today(): string {
  return format(new Date(), 'yyyy-MM-dd');
}

/** Invoice years from 2016 to the current one, newest first. */
export function invoiceYears(now = new Date()): number[] {
  const years: number[] = [];
  for (let year = now.getFullYear(); year >= 2016; year--) years.push(year);
  return years;
}
