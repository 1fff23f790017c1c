import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { readConfig } from '../config/env.ts';
import { jobs, jobSchedules, users } from '../db/schema.ts';
import type { BrokerStatus } from '../health/readiness.ts';
import { hashToken } from '../policies/tokens.ts';
import { buildDevice } from '../testing/factories.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

const TOKEN = 'scrape-secret-1234';

let t: TestApp;
let deviceId: number;
const identCode = 'NET-METRICS-1';
const secret = 'device-secret-metrics';

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(t.database.db, user.id, { identCode, secretHash: hashToken(secret) })).id;
});
afterAll(() => t?.close());

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Family {
  type: string;
  help: string;
  samples: Sample[];
}

/**
 * The Prometheus text format as far as prom-client writes it: `# HELP` and `# TYPE` lines, then
 * samples `name{label="value",…} number`. A sample belongs to the family it follows (a histogram's
 * `_bucket`, `_sum` and `_count`).
 */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment) {
      const [, kind, name, rest] = comment;
      current = families.get(name!) ?? { type: '', help: '', samples: [] };
      families.set(name!, current);
      if (kind === 'TYPE') current.type = rest!;
      else current.help = rest!;
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample || !current) throw new Error(`not a line of the exposition format: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    // Go's ParseFloat, which Prometheus reads values with, takes NaN and Inf in any case.
    const raw = sample[3]!;
    const value = /^nan$/i.test(raw)
      ? NaN
      : /^[+-]?inf$/i.test(raw)
        ? Number(raw.replace(/inf/i, 'Infinity'))
        : Number(raw);
    if (!/^nan$/i.test(raw)) expect(Number.isNaN(value), line).toBe(false);
    current.samples.push({ name: sample[1]!, labels, value });
  }
  return families;
}

/** The value of the one sample named so whose labels include `labels`; undefined if none. */
function valueOf(families: Map<string, Family>, family: string, sample: string, labels = {}) {
  const found = families
    .get(family)
    ?.samples.filter((s) => s.name === sample && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  expect(found?.length ?? 0, `${sample} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found?.[0]?.value;
}

async function scrape() {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  return parseExposition(response.body);
}

describe('GET /metrics', () => {
  it('answers the right bearer token only, as plain text nobody keeps, without a session', async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.headers['set-cookie']).toBeUndefined();
    expect(ok.headers['x-csrf-token']).toBeUndefined();

    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.body).not.toContain('tankportal_');
    }
    // A scraper asks every few seconds: no login limit or other limit answers 429.
    for (let i = 0; i < 30; i++) await scrape();
  });

  it('is 404 without METRICS_TOKEN, not the web app, and each app counts on its own', async () => {
    // A built web app, whose fallback answers every other GET with index.html.
    const webDist = mkdtempSync(path.join(tmpdir(), 'tp-metrics-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Tank Portal</title>');
    const other = await buildApp(t.database.db, readConfig({ LOG_LEVEL: 'silent' }), {
      logger: false,
      webDist,
    });
    try {
      await other.ready();
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const response = await other.inject({ method: 'GET', url: '/metrics', headers });
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toContain('application/json');
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.body).not.toContain('tankportal_');
      }
      expect((await other.inject({ method: 'GET', url: '/somewhere' })).statusCode).toBe(200);

      // The first app's report is not counted in the second's registry, nor the process's metrics.
      await postReport('separate-1', '2026-01-09T06:00:00Z');
      const own = parseExposition((await other.context.metrics.exposition()).body);
      expect(own.get('tankportal_ingest_reports_total')?.samples).toEqual([]);
      expect(own.has('tankportal_process_cpu_seconds_total')).toBe(false);
      other.context.metrics.collectProcessMetrics();
      other.context.metrics.collectProcessMetrics(); // once, however often asked
      const withProcess = parseExposition((await other.context.metrics.exposition()).body);
      expect(withProcess.get('tankportal_process_cpu_seconds_total')?.type).toBe('counter');

      // The embedded broker: listening.
      let listening = true;
      other.context.metrics.watchBroker(() => ({ listening }));
      let broker = parseExposition((await other.context.metrics.exposition()).body);
      expect(valueOf(broker, 'tankportal_mqtt_listening', 'tankportal_mqtt_listening')).toBe(1);
      expect(broker.has('tankportal_mqtt_connected')).toBe(false);
      listening = false;
      broker = parseExposition((await other.context.metrics.exposition()).body);
      expect(valueOf(broker, 'tankportal_mqtt_listening', 'tankportal_mqtt_listening')).toBe(0);
    } finally {
      await other.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });

  it('counts reports, jobs, schedules and requests, and reads the queue, the pool and the broker', async () => {
    const db = t.database.db;
    // A net HTTP report, stored; the same again, a duplicate.
    expect((await postReport('m-1', '2026-01-10T06:00:00Z')).json()).toEqual({
      status: 'processed',
      stored: 1,
    });
    expect((await postReport('m-1', '2026-01-10T06:00:00Z')).json()).toEqual({
      status: 'duplicate',
      stored: 0,
    });

    // The hourly purge, last enqueued three hours ago: one catch-up occurrence, due in the past.
    await db
      .insert(jobSchedules)
      .values({ name: 'purge-jobs', lastDueAt: new Date(Date.now() - 3 * 3600_000) });
    expect(await t.app.context.jobs.tick()).toBe(1);
    const [queued] = await db.select().from(jobs).where(eq(jobs.name, 'purge-jobs'));
    expect(queued).toMatchObject({ status: 'pending', claimedBy: null });
    const lagAtLeast = (Date.now() - queued!.runAt.getTime()) / 1000 - 1;

    // A device's page: its route's pattern is measured, not its URL.
    const client = await t.signIn('user');
    expect((await client.get(`/api/v2/devices/${deviceId}`)).statusCode).toBe(200);
    expect((await client.get('/api/v2/devices/999999')).statusCode).toBe(404);

    const before = await scrape();
    for (const family of [
      'tankportal_ingest_reports_total',
      'tankportal_ingest_report_seconds',
      'tankportal_ingest_batch_size',
      'tankportal_ingest_waiting_reports',
      'tankportal_jobs',
      'tankportal_job_lag_seconds',
      'tankportal_job_runs_total',
      'tankportal_scheduler_runs_total',
      'tankportal_http_request_duration_seconds',
    ])
      expect(before.get(family)?.help, family).toBeTruthy();
    expect(before.get('tankportal_ingest_reports_total')?.type).toBe('counter');
    expect(before.get('tankportal_ingest_report_seconds')?.type).toBe('histogram');
    expect(before.get('tankportal_jobs')?.type).toBe('gauge');

    const reports = (outcome: string) =>
      valueOf(before, 'tankportal_ingest_reports_total', 'tankportal_ingest_reports_total', {
        channel: 'net',
        outcome,
      });
    expect(reports('stored')).toBeGreaterThanOrEqual(1);
    expect(reports('duplicate')).toBeGreaterThanOrEqual(1);
    const settled = valueOf(
      before,
      'tankportal_ingest_report_seconds',
      'tankportal_ingest_report_seconds_count',
      {
        channel: 'net',
      },
    );
    expect(settled).toBeGreaterThanOrEqual(3);
    expect(
      valueOf(before, 'tankportal_ingest_report_seconds', 'tankportal_ingest_report_seconds_sum', {
        channel: 'net',
      }),
    ).toBeGreaterThan(0);
    expect(
      valueOf(before, 'tankportal_ingest_batch_size', 'tankportal_ingest_batch_size_count'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(before, 'tankportal_ingest_batch_size', 'tankportal_ingest_batch_size_bucket', { le: '1' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(before, 'tankportal_ingest_waiting_reports', 'tankportal_ingest_waiting_reports')).toBe(0);

    expect(
      valueOf(before, 'tankportal_jobs', 'tankportal_jobs', { name: 'purge-jobs', status: 'pending' }),
    ).toBe(1);
    // Every job the process knows has its series, 0 while none is queued.
    expect(
      valueOf(before, 'tankportal_jobs', 'tankportal_jobs', {
        name: 'deliver-notification',
        status: 'pending',
      }),
    ).toBe(0);
    expect(
      valueOf(before, 'tankportal_job_lag_seconds', 'tankportal_job_lag_seconds', { name: 'purge-jobs' }),
    ).toBeGreaterThanOrEqual(lagAtLeast);
    expect(
      valueOf(before, 'tankportal_job_lag_seconds', 'tankportal_job_lag_seconds', {
        name: 'deliver-notification',
      }),
    ).toBe(0);
    expect(
      valueOf(before, 'tankportal_scheduler_runs_total', 'tankportal_scheduler_runs_total', {
        schedule: 'purge-jobs',
        outcome: 'enqueued',
      }),
    ).toBe(1);

    const routes = new Set(
      before.get('tankportal_http_request_duration_seconds')!.samples.map((sample) => sample.labels.route),
    );
    expect(routes).toContain('/api/v2/devices/:id');
    expect(routes).toContain('/ingest/net/v1');
    for (const route of routes) expect(route).not.toMatch(/\/\d+|^\/(metrics|livez|readyz)$/);
    const deviceRequests = (statusClass: string) =>
      valueOf(
        before,
        'tankportal_http_request_duration_seconds',
        'tankportal_http_request_duration_seconds_count',
        {
          method: 'GET',
          route: '/api/v2/devices/:id',
          status_class: statusClass,
        },
      );
    expect(deviceRequests('2xx')).toBe(1);
    expect(deviceRequests('4xx')).toBe(1);

    // The job runs: counted by name and outcome, the row names the process that claimed it.
    expect(await t.app.context.jobs.runDueJobs()).toBe(1);
    const [ran] = await db.select().from(jobs).where(eq(jobs.id, queued!.id));
    expect(ran).toMatchObject({ status: 'done', claimedBy: `${hostname()}:${process.pid}` });

    // The broker as the external subscriber reports it.
    let status: BrokerStatus = { connected: true, subscribed: false };
    t.app.context.metrics.watchBroker(() => status);

    const after = await scrape();
    expect(
      valueOf(after, 'tankportal_job_runs_total', 'tankportal_job_runs_total', {
        name: 'purge-jobs',
        outcome: 'done',
      }),
    ).toBe(1);
    expect(
      valueOf(after, 'tankportal_jobs', 'tankportal_jobs', { name: 'purge-jobs', status: 'pending' }),
    ).toBe(0);
    expect(
      valueOf(after, 'tankportal_job_lag_seconds', 'tankportal_job_lag_seconds', { name: 'purge-jobs' }),
    ).toBe(0);
    expect(valueOf(after, 'tankportal_mqtt_connected', 'tankportal_mqtt_connected')).toBe(1);
    expect(valueOf(after, 'tankportal_mqtt_subscribed', 'tankportal_mqtt_subscribed')).toBe(0);
    expect(after.has('tankportal_mqtt_listening')).toBe(false);
    status = { connected: true, subscribed: true };
    expect(valueOf(await scrape(), 'tankportal_mqtt_subscribed', 'tankportal_mqtt_subscribed')).toBe(1);

    // The PostgreSQL pool, read at the scrape; PGlite has none.
    if (t.database.kind === 'postgres') {
      const total = valueOf(after, 'tankportal_db_pool_connections', 'tankportal_db_pool_connections');
      expect(total).toBeGreaterThanOrEqual(1);
      const idle = valueOf(after, 'tankportal_db_pool_idle', 'tankportal_db_pool_idle');
      expect(idle).toBeGreaterThanOrEqual(0);
      expect(idle).toBeLessThanOrEqual(total!);
      expect(valueOf(after, 'tankportal_db_pool_waiting', 'tankportal_db_pool_waiting')).toBe(0);
    } else {
      expect([...after.keys()].filter((name) => name.startsWith('tankportal_db_pool_'))).toEqual([]);
    }
  });
});

/** A net HTTP report; the same message id and time again is a duplicate. */
function postReport(messageId: string, measuredAt: string) {
  return t.app.inject({
    method: 'POST',
    url: '/ingest/net/v1',
    payload: {
      identCode,
      secret,
      messageId,
      measuredAt,
      sensors: [{ sequence: 1, value: 8000, temperature: 8 }],
    },
  });
}
