import { z } from 'zod';
import { bodyId } from './common.ts';

/** How a reference-date query repeats. */
export const REF_DATE_INTERVAL_TYPES = ['monthly', 'daily', 'intraday'] as const;
export type RefDateIntervalType = (typeof REF_DATE_INTERVAL_TYPES)[number];

/** Monthly: the first, the 15th or the last day of the month. */
export const MONTHLY_INTERVALS = ['monthly_first', 'monthly_mid', 'monthly_last'] as const;
/** Daily: the days of the week, Sunday first (daily_0 = Sunday). */
export const DAILY_INTERVALS = [
  'daily_0',
  'daily_1',
  'daily_2',
  'daily_3',
  'daily_4',
  'daily_5',
  'daily_6',
] as const;
/** Intraday: every 1, 3, 6 or 12 hours, counted from the query time. */
export const INTRADAY_INTERVALS = ['intraday_1', 'intraday_3', 'intraday_6', 'intraday_12'] as const;
export const REF_DATE_INTERVALS = [...MONTHLY_INTERVALS, ...DAILY_INTERVALS, ...INTRADAY_INTERVALS] as const;
export type RefDateInterval = (typeof REF_DATE_INTERVALS)[number];

/** The intervals each type takes. */
export const INTERVALS_OF_TYPE: Record<RefDateIntervalType, readonly RefDateInterval[]> = {
  monthly: MONTHLY_INTERVALS,
  daily: DAILY_INTERVALS,
  intraday: INTRADAY_INTERVALS,
};

/** "older than" choices in seconds; a member that reported within it is skipped. */
export const REF_DATE_OLDER_THAN = [1800, 3600, 7200, 21600, 43200, 86400] as const;
export const REF_DATE_OLDER_THAN_DEFAULT = 1800;
/** Query times lie on a 5-minute grid. */
export const REF_DATE_QUERY_TIME_STEP_MINUTES = 5;
export const REF_DATE_DEFAULTS = {
  intervalType: 'monthly',
  monthly: 'monthly_first',
  intraday: 'intraday_12',
} as const satisfies {
  intervalType: RefDateIntervalType;
  monthly: RefDateInterval;
  intraday: RefDateInterval;
};
/** Members per query: a whole fleet of a large dealer, not unbounded. */
export const REF_DATE_MAX_DEVICES = 20_000;

const QUERY_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * POST /v2/ref-date-queries and PUT /v2/ref-date-queries/{id}. The body names active,
 * intervals, queryAt, olderThan and deviceIds; intervalType is sent too, so that an empty interval
 * choice is refused for the field the form shows (decision 041).
 */
export const refDateQueryBody = z
  .object({
    intervalType: z.enum(REF_DATE_INTERVAL_TYPES),
    intervals: z.array(z.enum(REF_DATE_INTERVALS)).max(DAILY_INTERVALS.length),
    queryAt: z
      .string()
      .regex(QUERY_TIME, { error: 'invalid' })
      .refine((value) => Number(value.slice(3)) % REF_DATE_QUERY_TIME_STEP_MINUTES === 0, {
        error: 'invalid',
      }),
    olderThan: z
      .number()
      .int()
      .refine((value) => (REF_DATE_OLDER_THAN as readonly number[]).includes(value), { error: 'invalid' }),
    active: z.boolean(),
    // A query without devices would run for nothing.
    deviceIds: z.array(bodyId()).min(1, { error: 'required' }).max(REF_DATE_MAX_DEVICES),
  })
  .superRefine((body, context) => {
    const allowed = INTERVALS_OF_TYPE[body.intervalType];
    if (body.intervals.some((interval) => !allowed.includes(interval)))
      context.addIssue({ code: 'custom', path: ['intervals'], message: 'invalid' });
    else if (body.intervals.length === 0)
      // Only the days of the week can be left empty in the form: the reason names them.
      context.addIssue({
        code: 'custom',
        path: ['intervals'],
        message: 'required',
        params: { code: 'required', args: body.intervalType === 'daily' ? { reason: 'weekdays' } : {} },
      });
    else if (body.intervalType !== 'daily' && body.intervals.length > 1)
      context.addIssue({ code: 'custom', path: ['intervals'], message: 'invalid' });
  });
export type RefDateQueryBody = z.infer<typeof refDateQueryBody>;

/** GET /v2/ref-date-queries[/{id}]. */
export const refDateQuerySchema = z.object({
  id: z.number(),
  userId: z.number(),
  username: z.string(),
  intervalType: z.enum(REF_DATE_INTERVAL_TYPES),
  intervals: z.array(z.enum(REF_DATE_INTERVALS)),
  /** HH:mm, German time. */
  queryAt: z.string(),
  olderThan: z.number(),
  isActive: z.boolean(),
  deviceIds: z.array(z.number()),
  lastRunAt: z.date().nullable(),
  /** Null while inactive. */
  nextRunAt: z.date().nullable(),
});
export type RefDateQuery = z.infer<typeof refDateQuerySchema>;

/** GET /v2/devices/{id}/ref-date-queries: the queries the device belongs to (no member lists). */
export const deviceRefDateQuerySchema = refDateQuerySchema.omit({ deviceIds: true });
export type DeviceRefDateQuery = z.infer<typeof deviceRefDateQuerySchema>;
