import pg from 'pg';
import type { ServerConfig } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import type { DeviceChannels } from '../channels/device-channels.ts';
import { Mailer } from '../notifications/mailer.ts';
import { JOB_DEFINITIONS } from './definitions/index.ts';
import { JobQueue, type JobQueueOptions } from './queue.ts';

/**
 * The process's job queue with every job definition and what handlers need. Not started: the
 * server entry points start it (main/start.ts), tests run due jobs themselves (`runDueJobs`).
 */
export function createJobQueue(
  db: Db,
  config: ServerConfig,
  deviceChannels: DeviceChannels,
  options: JobQueueOptions = {},
): JobQueue {
  const onPostgres = (db as unknown as { $client: unknown }).$client instanceof pg.Pool;
  return new JobQueue(
    db,
    JOB_DEFINITIONS,
    { db, config, deviceChannels, mailer: new Mailer(config.smtpUrl, config.mailFrom) },
    // PGlite has one connection: one job at a time is plenty; a pool lets a few overlap.
    { concurrency: onPostgres ? 4 : 1, ...options },
  );
}
