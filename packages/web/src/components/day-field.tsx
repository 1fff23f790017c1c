import { useLocale } from '../lib/use-locale.ts';
import { DAY_PATTERN, readDay, showDay } from '../lib/typed-day.ts';
import { TypedValueField, type TypedValueFieldProps } from './typed-value-field.tsx';

/**
 * A calendar day (yyyy-MM-dd) typed in the portal's language: 24.11.2026, or 11/24/2026 in
 * English. A date input would follow the browser's language instead (11/24/2026 in the German
 * portal of an English browser).
 */
export function DayField(props: TypedValueFieldProps) {
  const locale = useLocale();
  return (
    <TypedValueField
      key={locale}
      {...props}
      placeholder={DAY_PATTERN[locale]}
      show={(value) => showDay(value, locale)}
      read={(text) => readDay(text, locale)}
    />
  );
}
