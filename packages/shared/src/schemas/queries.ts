import { z } from 'zod';
import { bodyId } from './common.ts';

/** Life of a manual query (contracts §6): pending -> sent -> processed, or failed. */
export const QUERY_STATUSES = ['pending', 'sent', 'processed', 'failed'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

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
});
export type Query = z.infer<typeof querySchema>;
