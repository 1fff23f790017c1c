import { COUNTRIES } from '../../lookups/countries.ts';

/** A free-text recipient address in the parts an invoice names. */
export interface PostalAddress {
  name: string;
  /** Street lines between the name and the town (at most two kept: BT-50, BT-51). */
  streetLines: string[];
  postalCode: string | null;
  city: string | null;
  countryCode: string;
}

/** The letters on cars (and before postal codes) that are not the ISO code. */
const VEHICLE_CODES: Record<string, string> = { D: 'DE', A: 'AT', F: 'FR', L: 'LU', B: 'BE', I: 'IT' };

/** Every country by its code and its German and English names, in capitals. */
const COUNTRY_BY_WORD = new Map<string, string>([
  ...Object.entries(VEHICLE_CODES),
  ...COUNTRIES.flatMap((country): [string, string][] => [
    [country.code, country.code],
    [country.name.de.toUpperCase(), country.code],
    [country.name.en.toUpperCase(), country.code],
  ]),
]);

/** A country named by a word; letter codes only in capitals ("am" is no Armenia). */
const countryOf = (word: string): string | undefined =>
  word.length <= 2 && word !== word.toUpperCase() ? undefined : COUNTRY_BY_WORD.get(word.toUpperCase());

/** "12345 Town", "D-12345 Town", "AT 1010 Wien": the town line of a European address. */
const TOWN_LINE = /^(?:([A-Za-zÄÖÜäöü]{1,2})\s*-\s*|([A-Z]{1,2})\s+)?(\d{4,5}(?:\s?[A-Z]{2})?)\s+(.+)$/;

/**
 * Reads a recipient address written as people write one on an envelope: the first line the
 * recipient, the street lines, the line with postal code and town, optionally a country line.
 * Without a country the seller's is meant. Nothing found: the debtor is named, with no town.
 */
export function parseRecipientAddress(
  text: string | null,
  fallbackName: string,
  defaultCountry: string,
): PostalAddress {
  const lines = (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const address: PostalAddress = {
    name: lines[0] ?? fallbackName,
    streetLines: [],
    postalCode: null,
    city: null,
    countryCode: defaultCountry,
  };
  let rest = lines.slice(1);
  const last = rest.at(-1);
  const lastCountry = last === undefined || TOWN_LINE.test(last) ? undefined : countryOf(last);
  if (lastCountry) {
    address.countryCode = lastCountry;
    rest = rest.slice(0, -1);
  }
  const townIndex = rest.findLastIndex((line) => TOWN_LINE.test(line));
  if (townIndex >= 0) {
    const [, dashed, spaced, postalCode, city] = TOWN_LINE.exec(rest[townIndex]!)!;
    const prefixCountry = countryOf(dashed ?? spaced ?? '');
    if (prefixCountry && !lastCountry) address.countryCode = prefixCountry;
    address.postalCode = postalCode!;
    address.city = city!;
    rest = rest.slice(0, townIndex);
  }
  address.streetLines = rest.length > 2 ? [rest[0]!, rest.slice(1).join(', ')] : rest;
  return address;
}
