import { z } from 'zod';
import { bodyId } from './common.ts';
import { QUERY_FAILURES, QUERY_STATUSES } from './queries.ts';

/** The quick selections "not reported since" of the block query, in seconds. */
export const BLOCK_QUERY_NOT_REPORTED_SINCE = [
  3600, 7200, 10800, 21600, 43200, 86400, 172800, 259200, 604800,
] as const;
/** The block query's result is polled every 5 s. */
export const BLOCK_QUERY_POLL_MS = 5000;
/** Devices per block query: a whole fleet of a large dealer, not unbounded. */
export const BLOCK_QUERY_MAX_DEVICES = 20_000;

/** POST /v2/block-queries */
export const createBlockQueryBody = z.object({
  deviceIds: z.array(bodyId()).min(1, { error: 'required' }).max(BLOCK_QUERY_MAX_DEVICES),
});
export type CreateBlockQueryBody = z.infer<typeof createBlockQueryBody>;

/** GET /v2/block-queries/{id} (the POST's Location): per device its query's status. */
export const blockQuerySchema = z.object({
  id: z.number(),
  createdAt: z.date(),
  queries: z.array(
    z.object({
      deviceId: z.number(),
      queryId: z.number(),
      status: z.enum(QUERY_STATUSES),
      failure: z.enum(QUERY_FAILURES).nullable(),
    }),
  ),
});
export type BlockQuery = z.infer<typeof blockQuerySchema>;
