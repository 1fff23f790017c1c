import { purgeFinishedJobs } from '../../queue/queue.ts';
import { recurringJob } from '../../queue/scheduler.ts';

/**
 * Keeps the queue table small: settled jobs go after a week, failed ones after a month. Hourly, by
 * one process of the installation (it used to be a timer in every process's queue loop).
 */
export const purgeJobs = recurringJob({
  name: 'purge-jobs',
  schedule: '17 * * * *',
  async run({ dueAt }, _run, { db }) {
    await purgeFinishedJobs(db, dueAt);
  },
});
