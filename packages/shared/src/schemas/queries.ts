import { z } from 'zod';
import { bodyId } from './common.ts';

/** Life of a manual query: pending -> sent -> processed, or failed. */
export const QUERY_STATUSES = ['pending', 'sent', 'processed', 'failed'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

/**
 * Why a query failed (decision 033), as the configuration's delivery (decision 032): not_configured:
 * the server has no SMS gateway API or MQTT broker for it; no_address: the device has no cell
 * number or ICCID to send to; refused: the gateway or broker did not take it.
 */
export const QUERY_FAILURES = ['not_configured', 'no_address', 'refused'] as const;
export type QueryFailure = (typeof QUERY_FAILURES)[number];

/** The device types a query reaches: manual, block and reference-date queries. */
export const QUERYABLE_TYPES = ['sms', 'lx_iot'] as const;

/** POST /v2/queries */
export const createQueryBody = z.object({
  deviceId: bodyId(),
});
export type CreateQueryBody = z.infer<typeof createQueryBody>;

/** GET /v2/queries/{queryId}; also the body of the POST's 201. */
export const querySchema = z.object({
  id: z.number(),
  deviceId: z.number(),
  status: z.enum(QUERY_STATUSES),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
  processedAt: z.date().nullable(),
  /** Set when status is failed; the message log has the channel's own words. */
  failure: z.enum(QUERY_FAILURES).nullable(),
});
export type Query = z.infer<typeof querySchema>;
