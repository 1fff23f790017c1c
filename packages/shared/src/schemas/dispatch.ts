import { z } from 'zod';
import { queryInteger } from './common.ts';

/** The dispatch view's horizons offered by the web; the API takes any day count up to a year. */
export const DISPATCH_HORIZONS = [7, 14, 30] as const;
export const DISPATCH_MAX_ROWS = 5_000;

/** Query of `GET /v2/dispatch` and its export (after snake_case → camelCase). */
export const dispatchQuery = z.object({
  withinDays: queryInteger({ min: 1, max: 365 }).default(14),
});

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
  /** Up to the fill limit, whole units, never below 0; null without capacity, fill limit or level. */
  orderQuantity: z.number().nullable(),
  emptyAt: z.date(),
  emptyAtLow: z.date(),
  reorderAt: z.date().nullable(),
});
export type DispatchRow = z.infer<typeof dispatchRowSchema>;

export const dispatchResponseSchema = z.object({
  withinDays: z.number(),
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
