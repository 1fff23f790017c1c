import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tankportal/shared/constants';

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/**
 * The current UI language, for formatting and for texts the server sends in both languages. A
 * module of its own: components that only read the language do not start the i18n set-up
 * (lib/i18n.ts), which needs a document — their unit tests run without one.
 */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}
