import { sql } from 'drizzle-orm';
import pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { databaseKind, type Db } from '../db/client.ts';
import type { BrokerStatus } from '../health/readiness.ts';

/** What became of a report handed to the ingest batcher. */
export type IngestOutcome = 'stored' | 'duplicate' | 'refused' | 'failed';

/** What the ingest batcher tells about its work (ingest-batcher.ts). */
export interface IngestObserver {
  /** Reports now waiting for a batch. */
  waiting(count: number): void;
  /** A transaction with this many reports was started. */
  batch(size: number): void;
  /** A report's submitter was answered, `seconds` after the report was handed over. */
  settled(channel: string, outcome: IngestOutcome, seconds: number): void;
}

/** How a job's run ended: done, to be tried again later, or given up. */
export type JobOutcome = 'done' | 'retry' | 'failed';

/** What the job queue and the scheduler tell about their work (queue/queue.ts, queue/scheduler.ts). */
export interface JobObserver {
  jobRun(name: string, outcome: JobOutcome): void;
  /** A schedule's occurrence was enqueued by this process, or its tick failed. */
  scheduleRun(schedule: string, outcome: 'enqueued' | 'failed'): void;
}

const PREFIX = 'tankportal_';

/** Seconds, from a single fast statement to the batcher's reconnect pauses (about 8 s). */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

interface JobRow {
  name: string;
  status: string;
  count: number | string;
  lag: number | string | null;
}

/**
 * The process's metrics in the Prometheus text format (GET /metrics), in a registry of this app's
 * own: tests build many apps in one process, and a module-level registry would mix their counts
 * and refuse the second app's metrics of the same names. What is counted as it happens is pushed
 * by the ingest, the job queue and the HTTP hook; what is a state (queue depths, the pool, the
 * broker) is read when Prometheus scrapes.
 */
export class Metrics implements IngestObserver, JobObserver {
  readonly registry = new Registry();
  private readonly db: Db;
  private readonly ingestReports: Counter<'channel' | 'outcome'>;
  private readonly ingestSeconds: Histogram<'channel'>;
  private readonly ingestBatchSize: Histogram;
  private readonly ingestWaiting: Gauge;
  private readonly jobRuns: Counter<'name' | 'outcome'>;
  private readonly schedulerRuns: Counter<'schedule' | 'outcome'>;
  private readonly httpSeconds: Histogram<'method' | 'route' | 'status_class'>;
  private jobNames: readonly string[] = [];
  /** One jobs query per scrape: both job gauges ask for it at once and share the answer. */
  private jobsQuery: Promise<JobRow[] | null> | undefined;
  private brokerWatched = false;
  private processMetrics = false;

  constructor(db: Db) {
    this.db = db;
    const registers = [this.registry];
    this.ingestReports = new Counter({
      name: `${PREFIX}ingest_reports_total`,
      help: 'Device reports handed to the ingest, by channel (sms, net, iot, lx_iot) and outcome',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    this.ingestSeconds = new Histogram({
      name: `${PREFIX}ingest_report_seconds`,
      help: "Seconds from a report's arrival at the batcher to its commit (or failure), when its sender is answered",
      labelNames: ['channel'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.ingestBatchSize = new Histogram({
      name: `${PREFIX}ingest_batch_size`,
      help: 'Reports per ingest transaction',
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.ingestWaiting = new Gauge({
      name: `${PREFIX}ingest_waiting_reports`,
      help: 'Reports waiting for a batch (all transaction slots busy, or the device has one in flight)',
      registers,
    });
    this.jobRuns = new Counter({
      name: `${PREFIX}job_runs_total`,
      help: 'Job runs by this process, by job name and outcome (done, retry, failed = given up)',
      labelNames: ['name', 'outcome'],
      registers,
    });
    this.schedulerRuns = new Counter({
      name: `${PREFIX}scheduler_runs_total`,
      help: "Recurring jobs' occurrences enqueued by this process (enqueued), or schedules whose tick failed (failed)",
      labelNames: ['schedule', 'outcome'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by method, route pattern and status class',
      labelNames: ['method', 'route', 'status_class'],
      registers,
    });

    const jobsByStatus = new Gauge({
      name: `${PREFIX}jobs`,
      help: 'Jobs in the queue (all processes) by job name and status (pending, running)',
      labelNames: ['name', 'status'],
      registers,
      collect: async () => {
        const rows = await this.queryJobs();
        jobsByStatus.reset();
        if (!rows) return; // the database does not answer: no value rather than a wrong one
        for (const name of this.jobNames)
          for (const status of ['pending', 'running']) jobsByStatus.set({ name, status }, 0);
        for (const row of rows) jobsByStatus.set({ name: row.name, status: row.status }, Number(row.count));
      },
    });
    const jobLag = new Gauge({
      name: `${PREFIX}job_lag_seconds`,
      help: 'Seconds the oldest due pending job of each name has been waiting for a worker (0: none due)',
      labelNames: ['name'],
      registers,
      collect: async () => {
        const rows = await this.queryJobs();
        jobLag.reset();
        if (!rows) return;
        for (const name of this.jobNames) jobLag.set({ name }, 0);
        for (const row of rows)
          if (row.status === 'pending') jobLag.set({ name: row.name }, Math.max(0, Number(row.lag ?? 0)));
      },
    });

    // The pool exists on PostgreSQL only; PGlite is one connection in the process.
    const client = (db as unknown as { $client: unknown }).$client;
    if (databaseKind(db) === 'postgres' && client instanceof pg.Pool) {
      const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) => {
        const gauge: Gauge = new Gauge({
          name: `${PREFIX}db_pool_${name}`,
          help,
          registers,
          collect: () => gauge.set(read(client)),
        });
      };
      poolGauge('connections', 'PostgreSQL connections of the pool (idle and in use)', (p) => p.totalCount);
      poolGauge('idle', 'PostgreSQL connections of the pool that are idle', (p) => p.idleCount);
      poolGauge('waiting', 'Queries waiting for a connection of the pool', (p) => p.waitingCount);
    }
  }

  /** The process's own metrics (CPU, memory, event loop lag, GC): once, and only for a real start. */
  collectProcessMetrics() {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  /** The jobs this process knows: their gauges read 0 rather than vanish while none is queued. */
  watchJobs(names: readonly string[]) {
    this.jobNames = names;
  }

  /**
   * From now on the broker's state is a metric: connected and subscribed (external broker),
   * listening (embedded). Before (tests without a broker) there is none to report.
   */
  watchBroker(status: () => BrokerStatus) {
    if (this.brokerWatched) return;
    this.brokerWatched = true;
    const registers = [this.registry];
    const flag = (name: string, help: string, read: (current: BrokerStatus) => boolean | undefined) => {
      const gauge: Gauge = new Gauge({
        name: `${PREFIX}mqtt_${name}`,
        help,
        registers,
        collect: () => gauge.set(read(status()) ? 1 : 0),
      });
    };
    if ('listening' in status()) {
      flag(
        'listening',
        'The embedded MQTT broker listens (1) or not (0)',
        (s) => 'listening' in s && s.listening,
      );
    } else {
      flag(
        'connected',
        'Connected to the external MQTT broker (1) or not (0)',
        (s) => 'connected' in s && s.connected,
      );
      flag(
        'subscribed',
        'Subscribed to the reports on the current connection to the external broker (1) or not (0)',
        (s) => 'subscribed' in s && s.subscribed,
      );
    }
  }

  waiting(count: number) {
    this.ingestWaiting.set(count);
  }

  batch(size: number) {
    this.ingestBatchSize.observe(size);
  }

  settled(channel: string, outcome: IngestOutcome, seconds: number) {
    this.ingestReports.inc({ channel, outcome });
    this.ingestSeconds.observe({ channel }, seconds);
  }

  jobRun(name: string, outcome: JobOutcome) {
    this.jobRuns.inc({ name, outcome });
  }

  scheduleRun(schedule: string, outcome: 'enqueued' | 'failed') {
    this.schedulerRuns.inc({ schedule, outcome });
  }

  /** An answered request; `route` is the route's pattern (`/api/v2/devices/:id`), never the URL. */
  request(method: string, route: string, statusCode: number, seconds: number) {
    this.httpSeconds.observe({ method, route, status_class: `${Math.floor(statusCode / 100)}xx` }, seconds);
  }

  /** The text of GET /metrics. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private queryJobs(): Promise<JobRow[] | null> {
    this.jobsQuery ??= this.readJobs().finally(() => (this.jobsQuery = undefined));
    return this.jobsQuery;
  }

  /** Unfinished jobs only: the partial index `jobs_due` covers them, done ones are kept for days. */
  private async readJobs(): Promise<JobRow[] | null> {
    try {
      const result = await this.db.execute(sql`
        SELECT name, status, count(*) AS count,
          extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now())) AS lag
        FROM jobs WHERE status IN ('pending', 'running')
        GROUP BY name, status`);
      return result.rows as unknown as JobRow[];
    } catch {
      return null;
    }
  }
}
