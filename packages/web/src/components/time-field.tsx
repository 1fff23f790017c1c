import type { Locale } from '@tankportal/shared/constants';
import { useLocale } from '../lib/use-locale.ts';
import { formatTimeOfDay, parseTimeOfDay } from '../lib/time-of-day.ts';
import { TypedValueField, type TypedValueFieldProps } from './typed-value-field.tsx';

/** How a time is typed in each language, shown in the empty field. */
const PATTERN: Record<Locale, string> = { de: 'HH:MM', en: 'hh:mm AM' };

/**
 * A time of day (HH:mm, 24 hours) typed in the portal's language: 14:05, or 02:05 PM in English.
 * A time input would follow the browser's language instead ("06:15 AM" in the German portal of an
 * English browser).
 */
export function TimeField(props: TypedValueFieldProps) {
  const locale = useLocale();
  return (
    <TypedValueField
      key={locale}
      {...props}
      placeholder={PATTERN[locale]}
      show={(value) => formatTimeOfDay(value, locale)}
      read={(text) => parseTimeOfDay(text, locale)}
    />
  );
}
