import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { migratedDataDir, withAdmin } from '../testing/test-database.ts';
import { freePort } from '../testing/free-port.ts';
import { mosquittoInstalled, TestMosquitto } from '../testing/mosquitto.ts';
import { READY_BODY, startPortal, stopProcess } from '../testing/server-process.ts';

/**
 * Readiness of the whole server process: a stop signal and an external broker that goes away. Each
 * server runs on a database of its own (a PGlite directory, or a PostgreSQL database with
 * TEST_DATABASE_URL).
 */

const cleanUps: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
});

/** Where a server keeps its data: DATABASE_URL or DATA_DIR for the server's env. */
async function freshDatabase(): Promise<NodeJS.ProcessEnv> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `tp_test_${randomBytes(6).toString('hex')}`;
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    cleanUps.push(() =>
      withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
    );
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { DATABASE_URL: url.toString() };
  }
  const { dataDir, remove } = await migratedDataDir('tp-health-');
  cleanUps.push(async () => remove());
  return { DATA_DIR: dataDir };
}

interface Probe {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: { status: string; checks?: Record<string, { ok: boolean; reason?: string }> };
}

async function probe(port: number, path: '/livez' | '/readyz'): Promise<Probe> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    body: await response.json(),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a stop signal', () => {
  it('turns readiness to 503 first, serves on for the drain time, then exits 0', async () => {
    const port = await freePort();
    const server = await startPortal(port, {
      ...(await freshDatabase()),
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_SECONDS: '2',
    });
    cleanUps.push(() => stopProcess(server, 'SIGKILL'));
    const ready = await probe(port, '/readyz');
    expect(ready).toMatchObject({ status: 200, retryAfter: null });
    expect(ready.contentType).toContain('application/json');
    // The embedded broker counts while it listens.
    expect(ready.body).toEqual(READY_BODY);

    const exit = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    const signalledAt = Date.now();
    server.kill('SIGTERM');
    const draining = await waitFor(
      () => probe(port, '/readyz'),
      (answer) => answer.status === 503,
    );
    expect(draining.contentType).toContain('application/json');
    expect(draining.retryAfter).toMatch(/^\d+$/);
    expect(draining.body).toMatchObject({
      status: 'not ready',
      checks: { database: { ok: true }, shutdown: { ok: false, reason: 'shutting down' } },
    });
    // Still serving during the drain: alive, and the API answers.
    expect(await probe(port, '/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const api = await fetch(`http://127.0.0.1:${port}/api/v2/whitelabels/current`);
    expect(api.status).toBe(200);

    expect(await exit).toBe(0);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(2_000);
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL database that is dropped', () => {
  it('makes readiness 503 naming the database, while the process stays alive', async () => {
    const port = await freePort();
    const location = await freshDatabase();
    const server = await startPortal(port, { ...location, DEMO_DATA: '0', LOG_LEVEL: 'error' });
    cleanUps.push(() => stopProcess(server, 'SIGKILL'));
    expect((await probe(port, '/readyz')).status).toBe(200);

    const name = new URL(location.DATABASE_URL!).pathname.slice(1);
    await withAdmin(process.env.TEST_DATABASE_URL!, (client) =>
      client.query(`DROP DATABASE ${name} WITH (FORCE)`),
    );
    const gone = await waitFor(
      () => probe(port, '/readyz'),
      (answer) => answer.status === 503,
    );
    expect(gone.contentType).toContain('application/json');
    expect(gone.body).toEqual({
      status: 'not ready',
      checks: {
        database: { ok: false, reason: 'the database refused the query' },
        migrations: { ok: false, reason: 'not checked: the database does not answer' },
        mqtt: { ok: true },
        shutdown: { ok: true },
      },
    });
    expect(await probe(port, '/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
    await stopProcess(server);
    expect(server.exitCode).toBe(0);
  }, 120_000);
});

describe.skipIf(!mosquittoInstalled)('an external broker', () => {
  let broker: TestMosquitto;
  let server: ChildProcess;
  let port: number;
  beforeAll(async () => {
    broker = await TestMosquitto.start([], 'unused');
    cleanUps.push(() => broker.dispose());
    port = await freePort();
    // No MQTT_CLIENT_ID: the process makes up its own.
    server = await startPortal(port, {
      ...(await freshDatabase()),
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      MQTT_URL: broker.url(),
    });
    cleanUps.push(() => stopProcess(server, 'SIGKILL'));
  }, 120_000);

  it('makes readiness 503 naming mqtt while it is away, and 200 again once it is back', async () => {
    // Subscribed once the start is over.
    const ready = await waitFor(
      () => probe(port, '/readyz'),
      (answer) => answer.status === 200,
    );
    expect(ready.body.checks?.mqtt).toEqual({ ok: true });

    // The broker stays away for 4 s; the server tries again every second meanwhile.
    const restart = broker.restart('SIGTERM', 4_000);
    const away = await waitFor(
      () => probe(port, '/readyz'),
      (answer) => answer.status === 503,
    );
    expect(away.contentType).toContain('application/json');
    expect(away.retryAfter).toMatch(/^\d+$/);
    expect(away.body).toEqual({
      status: 'not ready',
      checks: {
        database: { ok: true },
        migrations: { ok: true },
        mqtt: { ok: false, reason: 'not connected to the broker' },
        shutdown: { ok: true },
      },
    });
    expect(await probe(port, '/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
    await restart;

    const back = await waitFor(
      () => probe(port, '/readyz'),
      (answer) => answer.status === 200,
    );
    expect(back.body.checks?.mqtt).toEqual({ ok: true });
    await stopProcess(server);
    expect(server.exitCode).toBe(0);
  }, 60_000);
});

/** Asks until the answer fits (every 100 ms, 20 s at most), and returns that answer. */
async function waitFor<T>(ask: () => Promise<T>, fits: (answer: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await ask();
    if (fits(answer)) return answer;
    if (Date.now() > deadline)
      throw new Error(`no fitting answer in time; the last: ${JSON.stringify(answer)}`);
    await sleep(100);
  }
}
