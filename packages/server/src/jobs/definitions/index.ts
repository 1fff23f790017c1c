import type { JobDefinition } from '../../queue/queue.ts';
import type { RecurringJob } from '../../queue/scheduler.ts';
import { deliverNotification } from './deliver-notification.ts';
import { dispatchQueries } from './dispatch-queries.ts';
import { purgeJobs } from './purge-jobs.ts';
import { purgeAuditEntries, purgeMessages } from './purge-logs.ts';
import { refDateQueriesJob } from './run-ref-date-queries.ts';
import { invoicingRunJob } from './invoicing-run.ts';
import { refreshForecastsJob } from './refresh-forecasts.ts';
import { importWeatherJob } from './import-weather.ts';

/** Every job this release runs: a worker claims only jobs named here. */
export const JOB_DEFINITIONS: JobDefinition[] = [deliverNotification, dispatchQueries];

/** Every recurring job this release schedules (queue/scheduler.ts); their queue jobs run as any other. */
export const RECURRING_JOBS: RecurringJob[] = [
  purgeJobs,
  purgeMessages,
  purgeAuditEntries,
  refDateQueriesJob,
  invoicingRunJob,
  refreshForecastsJob,
  importWeatherJob,
];
