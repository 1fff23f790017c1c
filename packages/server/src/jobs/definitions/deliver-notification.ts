import { z } from 'zod';
import { deliverMessage, recordDeliveryFailure } from '../../notifications/delivery.ts';
import type { JobDefinition } from '../queue.ts';

/** Payload version 1: the notification Message to deliver (its content and address are in the row). */
const payload = z.object({ v: z.literal(1), messageId: z.number().int().positive() });

/**
 * Delivers a notification Message by mail or SMS (notifications/delivery.ts). Retries for about
 * six hours in all (10 s doubling up to 30 min between attempts), then gives up as sending_failed.
 */
export const deliverNotification: JobDefinition<z.infer<typeof payload>> = {
  name: 'deliver-notification',
  payload,
  maxAttempts: 20,
  backoff: { baseMs: 10_000, maxMs: 30 * 60_000 },
  run: ({ messageId }, run, deps) => deliverMessage(messageId, run, deps),
  onFailed: ({ messageId }, error, deps) => recordDeliveryFailure(messageId, error, deps),
};
