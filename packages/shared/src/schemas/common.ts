import { z } from 'zod';

/** A missing or null value is "required"; every other issue keeps zod's own code. */
const requiredWhenMissing = (issue: { code?: string; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.input == null ? 'required' : undefined;

/** A string field; absent or null answers `required`. */
export const text = () => z.string({ error: requiredWhenMissing });

/** A string that must not be empty after trimming. */
export const requiredText = () => text().trim().min(1, { error: 'required' });

/**
 * Text PostgreSQL cannot store: a NUL character (refused by text and jsonb) or a lone UTF-16
 * surrogate (no UTF-8 form: node-postgres would store U+FFFD, jsonb refuses its \u escape).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/**
 * Text without control characters (NUL, line breaks, escapes) or lone surrogates: what an
 * identifier sent by a device may contain (a message id, an ident code). Stricter than
 * isStorableText, which free text (names, comments) passes with its line breaks.
 */
export function isPrintableText(value: string): boolean {
  return /^[^\p{Cc}\p{Cs}]*$/u.test(value);
}

/** The largest value of PostgreSQL's integer (int4): every id and counter column. */
export const INT4_MAX = 2_147_483_647;

/** An id as written in a URL or a query: digits without a leading zero (no `0x6`, `+6`, `6.0`, `06`). */
const ID_DIGITS = /^[1-9]\d{0,9}$/;

const requiredOrInvalid = (issue: { input?: unknown }) => (issue.input == null ? 'required' : 'invalid');

/**
 * An object id in a path (`/devices/{id}`): a plain positive integer within int4. A path param that
 * fails it names no object, and the server answers 404 as for an unknown id.
 */
export const pathId = () =>
  z
    .string()
    .regex(ID_DIGITS)
    .transform(Number)
    .pipe(z.number().max(INT4_MAX))
    .meta({ description: `A positive integer up to ${INT4_MAX}, digits only` });

/** An object id in a JSON body: a positive integer within int4; codes required or invalid. */
export const bodyId = () =>
  z
    .number({ error: requiredOrInvalid })
    .int({ error: 'invalid' })
    .positive({ error: 'invalid' })
    .max(INT4_MAX, { error: 'invalid' });

/** An object id in a query string: plain digits as in a path, within int4; code invalid. */
export const queryId = () =>
  z.string().regex(ID_DIGITS, { error: 'invalid' }).transform(Number).pipe(bodyId());

/**
 * A whole number in a query string: plain digits (no `0x6`, `1e3`, `6.0`) from `min` to `max`,
 * at most int4; codes invalid, min, max.
 */
export const queryInteger = ({ min = 0, max = INT4_MAX }: { min?: number; max?: number } = {}) =>
  z
    .string()
    .regex(/^(0|[1-9]\d{0,9})$/, { error: 'invalid' })
    .transform(Number)
    .pipe(z.number().min(min).max(Math.min(max, INT4_MAX)));

/** Dates the API takes: four-digit years from 1900 (PostgreSQL refuses year 0, JavaScript goes past 9999). */
export const DATE_RANGE = { min: '1900-01-01T00:00:00.000Z', max: '9999-12-31T23:59:59.999Z' } as const;

/** A point in time in a query or body: an ISO date-time with offset or an ISO date, within DATE_RANGE. */
export const moment = () =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'invalid' })
    .transform((value, context) => {
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) context.addIssue({ code: 'custom', message: 'invalid' });
      else if (date < new Date(DATE_RANGE.min))
        context.addIssue({
          code: 'custom',
          message: 'min',
          params: { code: 'min', args: { min: DATE_RANGE.min } },
        });
      else if (date > new Date(DATE_RANGE.max))
        context.addIssue({
          code: 'custom',
          message: 'max',
          params: { code: 'max', args: { max: DATE_RANGE.max } },
        });
      return date;
    });
