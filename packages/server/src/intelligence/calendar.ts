/**
 * The calendar a business's use follows besides the weekday: Germany's public holidays (per federal
 * state; the rules, Easter and all, are feiertagejs's) and the weeks between Christmas and New
 * Year, when many yards, bakeries and workshops close. The forecast of process contents learns how
 * a tank uses on such days (forecast.ts); heating contents follow the weather instead.
 */
import { getHolidays } from 'feiertagejs';
import { dayFromKey } from '../time/day-numbers.ts';

/** The federal states by their usual two-letter codes (ISO 3166-2:DE without the prefix). */
export const FEDERAL_STATES = [
  'BW',
  'BY',
  'BE',
  'BB',
  'HB',
  'HH',
  'HE',
  'MV',
  'NI',
  'NW',
  'RP',
  'SL',
  'SN',
  'ST',
  'SH',
  'TH',
] as const;
export type FederalState = (typeof FEDERAL_STATES)[number];

/** What a German day is to a business: a day of its week, a public holiday, or between the years. */
export type DayKind = 'weekday' | 'holiday' | 'christmas';

const DAY_MS = 86_400_000;
/** The holidays of a year per state (null: the nationwide ones), as day numbers. */
const holidayCache = new Map<string, Set<number>>();

function holidaysOf(year: number, state: FederalState | null): Set<number> {
  const key = `${state ?? 'BUND'}:${year}`;
  let days = holidayCache.get(key);
  if (!days) {
    days = new Set(getHolidays(year, state ?? 'BUND').map((holiday) => dayFromKey(holiday.dateString)));
    holidayCache.set(key, days);
  }
  return days;
}

/**
 * A day's kind (a German day number, degree-days.ts). 24 December to 1 January is `christmas`
 * (its public holidays too: a business closed between the years is closed on them as well); a
 * public holiday of the state (without a state, one of all of Germany) is `holiday`.
 */
export function dayKind(day: number, state: FederalState | null): DayKind {
  // Asked for every day of every forecast's history and projection: kept per state and day.
  const key = state ?? 'BUND';
  let kinds = kindCache.get(key);
  if (!kinds) kindCache.set(key, (kinds = new Int8Array(CACHE_DAYS).fill(-1)));
  const cached = day >= 0 && day < CACHE_DAYS ? kinds[day] : -1;
  if (cached >= 0) return DAY_KINDS[cached];
  const kind = computeDayKind(day, state);
  if (day >= 0 && day < CACHE_DAYS) kinds[day] = DAY_KINDS.indexOf(kind);
  return kind;
}

const DAY_KINDS: readonly DayKind[] = ['weekday', 'holiday', 'christmas'];
/** Day numbers 1970-01-01 … 2199-12-31, as in degree-days.ts. */
const CACHE_DAYS = 84_000;
const kindCache = new Map<string, Int8Array>();

function computeDayKind(day: number, state: FederalState | null): DayKind {
  const date = new Date(day * DAY_MS);
  const month = date.getUTCMonth();
  const dayOfMonth = date.getUTCDate();
  if ((month === 11 && dayOfMonth >= 24) || (month === 0 && dayOfMonth === 1)) return 'christmas';
  return isPublicHoliday(day, state) ? 'holiday' : 'weekday';
}

/** Whether a German day is a public holiday of the state (without a state: of all of Germany). */
export function isPublicHoliday(day: number, state: FederalState | null): boolean {
  return holidaysOf(new Date(day * DAY_MS).getUTCFullYear(), state).has(day);
}

/**
 * The federal state of a German postal code by its first two digits (the postal region), or null
 * when it is not a German code. A region that crosses a state's border counts for the state most
 * of it lies in (a village near the border may get its neighbour's holidays: one or two days a
 * year).
 */
export function federalStateOfPostalCode(
  postalCode: string | null | undefined,
  countryCode = 'DE',
): FederalState | null {
  if (countryCode !== 'DE' || !postalCode) return null;
  const match = /^\s*(\d{2})\d{3}\s*$/.exec(postalCode);
  return match ? (STATE_OF_POSTAL_REGION[match[1]] ?? null) : null;
}

/** Postal region (first two digits) → the state most of it lies in. */
// prettier-ignore
const STATE_OF_POSTAL_REGION: Record<string, FederalState> = {
  '01': 'SN', '02': 'SN', '03': 'BB', '04': 'SN', '06': 'ST', '07': 'TH', '08': 'SN', '09': 'SN',
  '10': 'BE', '12': 'BE', '13': 'BE', '14': 'BB', '15': 'BB', '16': 'BB', '17': 'MV', '18': 'MV',
  '19': 'MV', '20': 'HH', '21': 'NI', '22': 'HH', '23': 'SH', '24': 'SH', '25': 'SH', '26': 'NI',
  '27': 'NI', '28': 'HB', '29': 'NI', '30': 'NI', '31': 'NI', '32': 'NW', '33': 'NW', '34': 'HE',
  '35': 'HE', '36': 'HE', '37': 'NI', '38': 'NI', '39': 'ST', '40': 'NW', '41': 'NW', '42': 'NW',
  '44': 'NW', '45': 'NW', '46': 'NW', '47': 'NW', '48': 'NW', '49': 'NI', '50': 'NW', '51': 'NW',
  '52': 'NW', '53': 'NW', '54': 'RP', '55': 'RP', '56': 'RP', '57': 'NW', '58': 'NW', '59': 'NW',
  '60': 'HE', '61': 'HE', '63': 'HE', '64': 'HE', '65': 'HE', '66': 'SL', '67': 'RP', '68': 'BW',
  '69': 'BW', '70': 'BW', '71': 'BW', '72': 'BW', '73': 'BW', '74': 'BW', '75': 'BW', '76': 'BW',
  '77': 'BW', '78': 'BW', '79': 'BW', '80': 'BY', '81': 'BY', '82': 'BY', '83': 'BY', '84': 'BY',
  '85': 'BY', '86': 'BY', '87': 'BY', '88': 'BW', '89': 'BY', '90': 'BY', '91': 'BY', '92': 'BY',
  '93': 'BY', '94': 'BY', '95': 'BY', '96': 'BY', '97': 'BY', '98': 'TH', '99': 'TH',
};
