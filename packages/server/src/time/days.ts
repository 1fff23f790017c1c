/** Calendar days written as ISO dates (`2027-03-31`), without a zone: a leaf any layer may use. */

/** A calendar day, `YYYY-MM-DD`. */
export type Day = string;

const DAY_MS = 86_400_000;
/** The day's UTC midnight in epoch milliseconds. */
export const utcMidnight = (day: Day) => Date.parse(`${day}T00:00:00Z`);
/** The UTC day of a moment in epoch milliseconds. */
export const utcDay = (ms: number): Day => new Date(ms).toISOString().slice(0, 10);

export const addDays = (day: Day, days: number): Day => utcDay(utcMidnight(day) + days * DAY_MS);
/** Days from `from` to `to`, both included. */
export const daysBetween = (from: Day, to: Day): number =>
  Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS) + 1;
export const minDay = (a: Day, b: Day): Day => (a <= b ? a : b);
