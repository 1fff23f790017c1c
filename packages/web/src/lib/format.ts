import { format, isValid, parse } from 'date-fns';
import type { Locale } from '@tankportal/shared/constants';

/** German dd.MM.yyyy HH:mm, English MM/dd/yyyy hh:mm a. */
const DATE_TIME = { de: 'dd.MM.yyyy HH:mm', en: 'MM/dd/yyyy hh:mm a' } as const;
const DATE = { de: 'dd.MM.yyyy', en: 'MM/dd/yyyy' } as const;

export function formatDateTime(value: string | Date, locale: Locale): string {
  return format(new Date(value), DATE_TIME[locale]);
}

export function formatDate(value: string | Date, locale: Locale): string {
  return format(new Date(value), DATE[locale]);
}

/** A calendar day 'YYYY-MM-DD' as the locale writes it (dd.MM.yyyy in German), or '–'. */
export function formatDay(day: string | null | undefined, locale: Locale): string {
  if (!day) return '–';
  const [year, month, date] = day.split('-').map(Number);
  // Local midnight of that day: `new Date('2026-01-31')` would be UTC and may show the day before.
  return formatDate(new Date(year!, month! - 1, date!), locale);
}

/** Today as a calendar day 'YYYY-MM-DD' (local time). */
export function today(): string {
  return format(new Date(), 'yyyy-MM-dd');
}

/** The start of a date range within one year (dd.MM. / MM/dd), and within one month in German (dd.). */
const DAY_MONTH = { de: 'dd.MM.', en: 'MM/dd' } as const;
const DAY = 'dd.';

/**
 * A range of calendar days in the locale's date format, the shared part written once:
 * "10.–15.03.2027", "28.02.–15.03.2027", "03/10–03/15/2027"; one day alone when both are the same.
 */
export function formatDateRange(from: string | Date, to: string | Date, locale: Locale): string {
  const start = new Date(from);
  const end = new Date(to);
  const last = formatDate(end, locale);
  if (formatDate(start, locale) === last) return last;
  if (start.getFullYear() !== end.getFullYear()) return `${formatDate(start, locale)}–${last}`;
  const sameMonth = start.getMonth() === end.getMonth();
  return `${format(start, locale === 'de' && sameMonth ? DAY : DAY_MONTH[locale])}–${last}`;
}

/** A date typed in the locale's format (a calendar day, local time), or null if it is none. */
export function parseDate(text: string, locale: Locale): Date | null {
  const trimmed = text.trim();
  const parsed = parse(trimmed, DATE[locale], new Date());
  // Strict: "31.02.2025" or "1.1.25" must not turn into some other day.
  return isValid(parsed) && format(parsed, DATE[locale]) === trimmed ? parsed : null;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

export function formatNumber(value: number, locale: Locale, fractionDigits = 0): string {
  const key = `${locale}:${fractionDigits}`;
  let formatter = numberFormats.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-US', {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    numberFormats.set(key, formatter);
  }
  return formatter.format(value);
}
