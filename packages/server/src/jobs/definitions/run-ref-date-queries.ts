import { runDueRefDateQueries } from '../../commands/run-ref-date-queries.ts';
import { recurringJob } from '../../queue/scheduler.ts';

/**
 * Reference-date queries: query times lie on a 5-minute grid of German time, so a tick
 * every 5 minutes runs each query at its time; each query's own nextRunAt says whether it is due
 * (commands/run-ref-date-queries.ts). After downtime the one catch-up occurrence runs every query
 * whose time passed, once.
 */
export const refDateQueriesJob = recurringJob({
  name: 'ref-date-queries',
  schedule: '*/5 * * * *',
  async run({ dueAt }, _run, { db }) {
    await runDueRefDateQueries(db, dueAt);
  },
});
