import type { Locale } from '@tankportal/shared/constants';

/** January .. December, short, in the UI language. */
export function monthNames(locale: Locale): string[] {
  const format = new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-US', { month: 'short' });
  return Array.from({ length: 12 }, (_, month) => format.format(new Date(2000, month, 1)));
}
