import { DISPATCH_QUERIES, dispatchPendingQueries } from '../../commands/dispatch-queries.ts';
import { enqueue, type JobDefinition } from '../../queue/queue.ts';

/**
 * Hands waiting block and reference-date queries to the gateways, paced (commands/dispatch-queries.ts).
 * Enqueued with every batch; several may run at once without sending anything twice. One that runs
 * out of its budget leaves a successor for the rest, so no run outlives its lease.
 */
export const dispatchQueries: JobDefinition<{ v: 1 }> = {
  ...DISPATCH_QUERIES,
  backoff: { baseMs: 5_000, maxMs: 5 * 60_000 },
  async run(_payload, _run, deps) {
    if ((await dispatchPendingQueries(deps)) === 'more') await enqueue(deps.db, DISPATCH_QUERIES, [{ v: 1 }]);
  },
};
