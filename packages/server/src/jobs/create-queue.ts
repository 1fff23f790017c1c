import type { ServerConfig } from '../config/env.ts';
import { databaseKind, type Db } from '../db/client.ts';
import type { DeviceChannels } from '../channels/device-channels.ts';
import { Mailer } from '../channels/mailer.ts';
import { JOB_DEFINITIONS, RECURRING_JOBS } from './definitions/index.ts';
import { JobQueue, type JobQueueOptions } from '../queue/queue.ts';
import { Scheduler } from '../queue/scheduler.ts';
import type { JobObserver } from '../metrics/metrics.ts';

/**
 * The process's job queue with every job definition, the recurring jobs' scheduler and what
 * handlers need. Not started: the server entry points start it (main/start.ts), tests run due jobs
 * themselves (`runDueJobs`) and tick the scheduler with their own clock.
 */
export function createJobQueue(
  db: Db,
  config: ServerConfig,
  deviceChannels: DeviceChannels,
  /** `observer`: told of the queue's runs and the scheduler's occurrences alike (the metrics). */
  options: Omit<JobQueueOptions, 'observer'> & { observer?: JobObserver } = {},
): JobQueue {
  return new JobQueue(
    db,
    [...JOB_DEFINITIONS, ...RECURRING_JOBS.map((recurring) => recurring.job)],
    { db, config, deviceChannels, mailer: new Mailer(config.smtpUrl, config.mailFrom) },
    {
      // PGlite has one connection: one job at a time is plenty; a pool lets a few overlap.
      concurrency: databaseKind(db) === 'postgres' ? 4 : 1,
      // Recurring jobs are enqueued by whichever process ticks first when they are due.
      scheduler: new Scheduler(db, RECURRING_JOBS, {
        ...(options.log ? { log: options.log } : {}),
        ...(options.observer ? { observer: options.observer } : {}),
      }),
      ...options,
    },
  );
}
