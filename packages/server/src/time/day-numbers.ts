/**
 * German calendar days as numbers: a "day number" counts the local (Europe/Berlin) days since
 * 1970-01-01, and fractional "local days" place an instant inside its day. A leaf any layer may use
 * (the forecast, the dispatch view); it imports nothing of the server.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Start and end (UTC ms) of summer time in a year: the EU rule in force since 1996, from the last
 * Sunday of March to the last Sunday of October, both at 01:00 UTC. Computed by rule instead of
 * Intl: this runs for every reading of every sensor, and Intl costs microseconds per call.
 */
const summerTimeCache = new Map<number, readonly [number, number]>();
function summerTime(year: number): readonly [number, number] {
  let span = summerTimeCache.get(year);
  if (!span) {
    const lastSunday = (month: number) => {
      const lastDay = Date.UTC(year, month + 1, 0);
      return lastDay - new Date(lastDay).getUTCDay() * DAY_MS + HOUR_MS;
    };
    span = [lastSunday(2), lastSunday(9)];
    summerTimeCache.set(year, span);
  }
  return span;
}

/** Offset of Europe/Berlin from UTC at an instant (ms): one hour, two in summer time. */
export function berlinOffsetMs(utcMs: number): number {
  // An approximate year is enough: it can only be wrong around New Year, far from both changes.
  const year = 1970 + Math.floor(utcMs / 31_556_952_000);
  const [start, end] = summerTime(year);
  return utcMs >= start && utcMs < end ? 2 * HOUR_MS : HOUR_MS;
}

/** An instant as fractional German local days since 1970-01-01 (the integer part is its day number). */
export function localDays(at: Date | number): number {
  const ms = typeof at === 'number' ? at : at.getTime();
  return (ms + berlinOffsetMs(ms)) / DAY_MS;
}

/** The instant of fractional local days (the inverse of `localDays`, outside the repeated autumn hour). */
export function fromLocalDays(days: number): Date {
  const wallMs = days * DAY_MS;
  // The offset in force at the wall-clock instant: try winter time first, then summer time.
  const winter = wallMs - HOUR_MS;
  return new Date(berlinOffsetMs(winter) === HOUR_MS ? winter : wallMs - 2 * HOUR_MS);
}

/** The German calendar day of an instant, as a day number. */
export function germanDayNumber(at: Date | number): number {
  return Math.floor(localDays(at));
}

/** Day numbers 1970-01-01 … 2199-12-31, worth caching: a forecast asks for the same few thousand days of every sensor. */
export const CACHE_DAYS = 84_000;
const dayKeyCache: (string | undefined)[] = new Array(CACHE_DAYS);

/** 'YYYY-MM-DD' of a day number: the key of the temperature maps. */
export function dayKey(day: number): string {
  const cached = dayKeyCache[day];
  if (cached !== undefined) return cached;
  const key = new Date(day * DAY_MS).toISOString().slice(0, 10);
  if (day >= 0 && day < CACHE_DAYS) dayKeyCache[day] = key;
  return key;
}

/** The day number of a 'YYYY-MM-DD' key. */
export function dayFromKey(key: string): number {
  return Math.round(Date.parse(`${key}T00:00:00Z`) / DAY_MS);
}

/** Weekday of a day number, 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}
