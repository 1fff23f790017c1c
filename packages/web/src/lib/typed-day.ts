import { format } from 'date-fns';
import type { Locale } from '@tankportal/shared/constants';
import { formatDate, parseDate } from './format.ts';

/** How a day is typed in each language: shown in an empty day field and in its error texts. */
export const DAY_PATTERN: Record<Locale, string> = { de: 'TT.MM.JJJJ', en: 'MM/DD/YYYY' };
/** A day as forms and the API take it: yyyy-MM-dd. */
export const DAY_VALUE = /^\d{4}-\d{2}-\d{2}$/;

/** A day (yyyy-MM-dd) as the portal writes it; anything else as it is. */
export const showDay = (value: string, locale: Locale) =>
  DAY_VALUE.test(value) ? formatDate(`${value}T00:00:00`, locale) : value;

/** A day typed in the portal's language as yyyy-MM-dd, or null when it is none. */
export function readDay(text: string, locale: Locale): string | null {
  const day = parseDate(text, locale);
  return day && format(day, 'yyyy-MM-dd');
}
