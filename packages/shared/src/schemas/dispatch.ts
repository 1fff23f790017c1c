import { z } from 'zod';
import { calendarDay } from './billing.ts';
import { queryInteger } from './common.ts';
import { healthIssueSchema, READING_DOUBTS } from './tank-health.ts';

/**
 * The dispatch view's horizons offered as buttons by the web; the API (and the web's own field)
 * take any whole number of days from DISPATCH_MIN_DAYS to DISPATCH_MAX_DAYS.
 */
export const DISPATCH_HORIZONS = [7, 14, 30] as const;
export const DISPATCH_MIN_DAYS = 1;
export const DISPATCH_MAX_DAYS = 365;
export const DISPATCH_MAX_ROWS = 5_000;

/** Query of `GET /v2/dispatch` and its export (after snake_case → camelCase). */
export const dispatchQuery = z.object({
  withinDays: queryInteger({ min: DISPATCH_MIN_DAYS, max: DISPATCH_MAX_DAYS }).default(14),
  /**
   * The planned delivery day (German calendar), from today to DISPATCH_MAX_DAYS ahead (the server
   * checks the range: codes min, max); without it the horizon's last day.
   */
  deliveryOn: calendarDay().optional(),
});
export type DispatchQuery = z.infer<typeof dispatchQuery>;

/**
 * One tank due for a delivery: a level sensor forecast to run empty within the horizon,
 * with the quantity that fills it to its fill limit.
 */
export const dispatchRowSchema = z.object({
  deviceId: z.number(),
  deviceName: z.string().nullable(),
  username: z.string(),
  address: z.object({
    street: z.string().nullable(),
    streetNumber: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    countryCode: z.string().nullable(),
  }),
  sensorId: z.number(),
  sequence: z.number(),
  sensorName: z.string(),
  contentType: z.string().nullable(),
  unit: z.string(),
  capacity: z.number().nullable(),
  /** The current volume. */
  level: z.number().nullable(),
  /** Percent of the capacity a delivery may fill up to. */
  fillLimit: z.number().nullable(),
  /** The reorder level (the sensor's threshold) in percent of the capacity. */
  threshold: z.number().nullable(),
  /**
   * What a delivery today brings: up to the fill limit, whole units, never below 0; null without
   * capacity, fill limit or level.
   */
  orderQuantity: z.number().nullable(),
  /**
   * What a delivery on the delivery day brings: up to the fill limit from the level the forecast
   * expects then (see expectedLevel); null as orderQuantity.
   */
  orderQuantityOnDelivery: z.number().nullable(),
  emptyAt: z.date(),
  emptyAtLow: z.date(),
  /** When the level reaches the reorder level. */
  reorderAt: z.date().nullable(),
  /** The open doubts about the sensor's readings: while any, the forecast is unreliable. */
  forecastDoubts: z.array(z.enum(READING_DOUBTS)),
  /** The open health doubts of this sensor and of its whole device (silent, low battery), oldest first. */
  health: z.array(healthIssueSchema),
});
export type DispatchRow = z.infer<typeof dispatchRowSchema>;

export const dispatchResponseSchema = z.object({
  withinDays: z.number(),
  /** The delivery day of orderQuantityOnDelivery: the one asked for, or the horizon's last day. */
  deliveryOn: z.string(),
  rows: z.array(dispatchRowSchema),
});
export type DispatchResponse = z.infer<typeof dispatchResponseSchema>;

/** What a delivery up to the fill limit brings. */
export function orderQuantity(
  capacity: number | null,
  fillLimit: number | null,
  level: number | null,
): number | null {
  if (capacity === null || fillLimit === null || level === null) return null;
  return Math.max(0, Math.floor((capacity * fillLimit) / 100 - level));
}

/**
 * The level the forecast expects at `at`: the current level falling evenly to 0 at the forecast's
 * empty date (the date the view shows), 0 from then on; the level itself when `at` is not after
 * the reading.
 */
export function expectedLevel(level: number | null, measuredAt: Date | null, emptyAt: Date, at: Date) {
  if (level === null || measuredAt === null) return null;
  if (at <= measuredAt) return level;
  if (at >= emptyAt) return 0;
  return (level * (emptyAt.getTime() - at.getTime())) / (emptyAt.getTime() - measuredAt.getTime());
}
