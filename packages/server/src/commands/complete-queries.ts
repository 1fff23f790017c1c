/**
 * A manual query is answered by the device's next report, whatever protocol it arrives by: the
 * store path completes the sent queries of the devices that reported something new, in the
 * transaction that stores the reports, so "processed" and the new reading commit together. Only
 * queries sent before this transaction began count (`now()` is the transaction's start): an
 * earlier report is no answer.
 *
 * Written as one part of a statement of data-modifying parts (the batch store's write, one round
 * trip for the whole batch), with the devices' ids as the integer array parameter `idsParam` (`$7`).
 */
export const completeSentQueriesPart = (idsParam: string) =>
  `UPDATE queries SET status = 'processed', processed_at = now()
    WHERE device_id = ANY(${idsParam}::int[]) AND status = 'sent' AND sent_at <= now()`;
