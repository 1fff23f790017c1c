import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import Cookies from 'js-cookie';
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALES, type Locale } from '@tankportal/shared/constants';

type Messages = Record<string, unknown>;

// One file per area and language (`locales/de/login.json` holds the `login.*` texts), so areas
// add their texts without touching each other's files.
const files = import.meta.glob<Messages>('../locales/*/*.json', { eager: true, import: 'default' });

function resources() {
  const byLocale: Record<string, { common: Messages }> = {};
  for (const [file, messages] of Object.entries(files)) {
    const [, locale, area] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file)!;
    (byLocale[locale] ??= { common: {} }).common[area] = messages;
  }
  return byLocale;
}

function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/** The chosen language, kept in a cookie for a year (portal-area §9); German by default. */
export function storedLocale(): Locale {
  const value = Cookies.get(LOCALE_COOKIE);
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

export function changeLocale(locale: Locale) {
  Cookies.set(LOCALE_COOKIE, locale, { expires: 365, sameSite: 'Strict', path: '/' });
  document.documentElement.lang = locale;
  return i18n.changeLanguage(locale);
}

/** The current UI language, for formatting and for texts the server sends in both languages. */
export function useLocale(): Locale {
  const { i18n: instance } = useTranslation();
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

void i18n.use(initReactI18next).init({
  resources: resources(),
  lng: storedLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
});
document.documentElement.lang = storedLocale();

export default i18n;
