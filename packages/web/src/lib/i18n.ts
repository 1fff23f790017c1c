import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import Cookies from 'js-cookie';
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALES, type Locale } from '@tankportal/shared/constants';
import { isLocale } from './use-locale.ts';

type Messages = Record<string, unknown>;

// One file per area and language (`locales/de/login.json` holds the `login.*` texts), so areas
// add their texts without touching each other's files. The login page's areas come with the app
// in both languages; every other area is a chunk of its own, loaded per language when the
// signed-in app or the public page opens (the login page loads none of them).
const loginFiles = import.meta.glob<Messages>(
  [
    '../locales/*/common.json',
    '../locales/*/login.json',
    '../locales/*/nav.json',
    '../locales/*/validation.json',
  ],
  { eager: true, import: 'default' },
);
const laterFiles = import.meta.glob<Messages>(
  [
    '../locales/*/*.json',
    '!../locales/*/common.json',
    '!../locales/*/login.json',
    '!../locales/*/nav.json',
    '!../locales/*/validation.json',
  ],
  { import: 'default' },
);

function localeAndArea(file: string) {
  const [, locale, area] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file)!;
  return { locale, area };
}

function loginResources() {
  const byLocale: Record<string, { common: Messages }> = {};
  for (const [file, messages] of Object.entries(loginFiles)) {
    const { locale, area } = localeAndArea(file);
    (byLocale[locale] ??= { common: {} }).common[area] = messages;
  }
  return byLocale;
}

const loadedLocales = new Map<Locale, Promise<void>>();

/** Adds the texts of every other area in `locale`, once (again after a failed load). */
function loadLaterAreas(locale: Locale): Promise<void> {
  let loading = loadedLocales.get(locale);
  if (!loading) {
    loading = Promise.all(
      Object.entries(laterFiles)
        .filter(([file]) => localeAndArea(file).locale === locale)
        .map(async ([file, load]) => {
          const messages = await load();
          i18n.addResourceBundle(locale, 'common', { [localeAndArea(file).area]: messages }, true, true);
        }),
    ).then(
      () => undefined,
      (error: unknown) => {
        loadedLocales.delete(locale);
        throw error;
      },
    );
    loadedLocales.set(locale, loading);
  }
  return loading;
}

/** Set once a page needed every area: a change of language then loads them before switching. */
let allAreasWanted = false;

/**
 * Resolves when the texts of every area are there in the current language. The signed-in app and
 * the public status page wait for it before they render (router.tsx).
 */
export function loadAllTexts(): Promise<void> {
  allAreasWanted = true;
  return loadLaterAreas(currentLocale());
}

function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** The chosen language, kept in a cookie for a year; German by default. */
export function storedLocale(): Locale {
  const value = Cookies.get(LOCALE_COOKIE);
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

export async function changeLocale(locale: Locale) {
  Cookies.set(LOCALE_COOKIE, locale, { expires: 365, sameSite: 'Strict', path: '/' });
  // The new language's texts first, so that no page shows keys in between.
  if (allAreasWanted) await loadLaterAreas(locale);
  document.documentElement.lang = locale;
  return i18n.changeLanguage(locale);
}

export { useLocale } from './use-locale.ts';

void i18n.use(initReactI18next).init({
  resources: loginResources(),
  lng: storedLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
});
document.documentElement.lang = storedLocale();

export default i18n;
