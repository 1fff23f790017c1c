import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/mobile';

/**
 * A cell number in E.164 (`+491705559901`), from what a person types: international (`+49 170 …`,
 * `0049 170 …`) or national (`0170 5559901`) in the country given, with spaces, brackets, slashes
 * and dashes. Null when it is no valid number of that country (or, international, of any).
 *
 * libphonenumber-js with its `min` metadata (about 80 kB): it checks each country's number lengths
 * and leading digits, which is what a SIM's number needs; `mobile` would refuse M2M ranges that some
 * IoT SIMs use, and `max` only adds the type detection (mobile, fixed line) we never ask for.
 */
export function normaliseCellNumber(input: string, countryCode?: string | null): string | null {
  // `00` is the international call prefix in most of the countries the portal serves; the library
  // only knows it for the default country given.
  const text = input.trim().replace(/^00/, '+');
  // The library finds a number inside any text ("call 0170 …"): only a number is a number here.
  if (!/^\+?[\d ()/.-]+$/.test(text)) return null;
  const country = countryCode?.toUpperCase();
  const phone = parsePhoneNumberFromString(text, {
    defaultCountry: country && isSupportedCountry(country) ? country : undefined,
  });
  return phone?.isValid() ? phone.number : null;
}
