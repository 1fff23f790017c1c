import { deliverMessage, DELIVER_NOTIFICATION, recordDeliveryFailure } from '../../notifications/delivery.ts';
import type { JobDefinition } from '../../queue/queue.ts';

/**
 * Delivers a notification Message by mail or SMS (notifications/delivery.ts). Retries for about
 * six hours in all (10 s doubling up to 30 min between attempts), then gives up as sending_failed.
 */
export const deliverNotification: JobDefinition<{ v: 1; messageId: number }> = {
  ...DELIVER_NOTIFICATION,
  backoff: { baseMs: 10_000, maxMs: 30 * 60_000 },
  run: ({ messageId }, run, deps) => deliverMessage(messageId, run, deps),
  onFailed: ({ messageId }, error, deps) => recordDeliveryFailure(messageId, error, deps),
};
