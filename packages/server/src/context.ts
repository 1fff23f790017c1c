import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerConfig } from './config/env.ts';
import type { IngestContext } from './ingest/ingest-context.ts';
import type { JobQueue } from './queue/queue.ts';
import type { LiveUpdates } from './live/live-updates.ts';
import type { Readiness } from './health/readiness.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { LoginRateLimit } from './plugins/login-rate-limit.ts';
import type { SessionStore } from './repositories/sessions.ts';

/**
 * What route modules need from the process: handed to each area's plugin. Built once in app.ts;
 * the database, the device channels and the ingest's services come from IngestContext.
 */
export interface AppContext extends IngestContext {
  config: ServerConfig;
  loginRateLimit: LoginRateLimit;
  sessions: SessionStore;
  /** The durable job queue (notification delivery); started by main/start.ts. */
  jobs: JobQueue;
  /** The open pages' streams of new reports (routes/v2/live); listening from start to close. */
  liveUpdates: LiveUpdates;
  /** What GET /readyz answers; main/start.ts adds the broker and ends it on a stop signal. */
  readiness: Readiness;
  /** What GET /metrics answers; main/start.ts adds the broker and the process's own metrics. */
  metrics: Metrics;
}

export type Api = FastifyInstance<any, any, any, any, ZodTypeProvider>;
