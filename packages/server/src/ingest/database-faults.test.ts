import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';
import { ensureBaseData } from '../seed/base-data.ts';
import { buildDevice } from '../testing/factories.ts';
import { freePort } from '../testing/free-port.ts';
import { mosquittoInstalled, TestMosquitto } from '../testing/mosquitto.ts';
import {
  postNetReport,
  expectEveryAcknowledgedReportStoredOnce,
  missingOf,
  publishReports,
  storedReports,
  type Published,
} from '../testing/mqtt-devices.ts';
import { READY_BODY, startPortal, stopProcess } from '../testing/server-process.ts';
import { postgresInstalled, TestPostgres } from '../testing/test-postgres.ts';

/**
 * The database goes away under load: three server processes on one PostgreSQL database and one
 * Mosquitto, IoT devices reporting over MQTT and net devices over HTTP, while every connection of
 * the servers is cut (`pg_terminate_backend`, as a failover or a proxy's idle cut does), and, on a
 * PostgreSQL server of the test's own, while that server crashes and starts again. No process may
 * end, no acknowledged report may be lost or stored twice, and the service is back within seconds
 * of the database; while the crashed server is down every process's `/readyz` answers 503 naming
 * the database, and 200 again once it is back. PostgreSQL only (PGlite is in the process: nothing
 * can cut it).
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const MQTT_DEVICES = Array.from({ length: 20 }, (_, i) => `db-fault-iot-${i + 1}`);
const HTTP_DEVICES = Array.from({ length: 10 }, (_, i) => ({
  identCode: `DB-FAULT-NET-${i + 1}`,
  secret: `s-${i + 1}`,
}));
const MQTT_REPORTS_PER_DEVICE = 100;
const HTTP_REPORTS_PER_DEVICE = 40;
const DEVICE_PASSWORD = 'device-secret';
const PROCESSES = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function adminQuery(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

interface ReadyAnswer {
  status: number;
  retryAfter: string | null;
  body: { status: string; checks: Record<string, { ok: boolean; reason?: string }> };
}

/** A database of its own on the PostgreSQL server at `adminUrl`, the devices, Mosquitto, three servers. */
class Installation {
  readonly servers: { port: number; process: ChildProcess }[] = [];
  broker: TestMosquitto | null = null;
  readonly databaseName = `tp_test_${randomBytes(6).toString('hex')}`;
  readonly databaseUrl: string;
  private readonly adminUrl: string;

  constructor(adminUrl: string) {
    this.adminUrl = adminUrl;
    const url = new URL(adminUrl);
    url.pathname = `/${this.databaseName}`;
    this.databaseUrl = url.toString();
  }

  async start() {
    await adminQuery(this.adminUrl, `CREATE DATABASE ${this.databaseName}`);
    const database = await openDatabase({ url: this.databaseUrl });
    try {
      await ensureBaseData(database.db);
      const [owner] = await database.db
        .insert(users)
        .values({ username: 'db-fault-owner', role: 'ROLE_USER', passwordHash: 'x' })
        .returning();
      for (const thingName of MQTT_DEVICES)
        await buildDevice(database.db, owner.id, {
          type: 'iot',
          identType: 'thing_name',
          identCode: null,
          thingName,
        });
      for (const { identCode, secret } of HTTP_DEVICES)
        await buildDevice(database.db, owner.id, { identCode, secretHash: hashToken(secret) });
    } finally {
      await database.close();
    }
    this.broker = await TestMosquitto.start(MQTT_DEVICES, DEVICE_PASSWORD);
    for (let index = 0; index < PROCESSES; index++) {
      const port = await freePort();
      const env = {
        DATABASE_URL: this.databaseUrl,
        DEMO_DATA: '0',
        LOG_LEVEL: 'error',
        MQTT_URL: this.broker.url(),
      };
      this.servers.push({ port, process: await startPortal(port, env) });
    }
  }

  async stop() {
    for (const { process: child } of this.servers) if (child.exitCode === null) await stopProcess(child);
    await this.broker?.dispose();
    await adminQuery(this.adminUrl, `DROP DATABASE IF EXISTS ${this.databaseName} WITH (FORCE)`).catch(
      () => {},
    );
  }

  /** Cuts every connection to the servers' database (but the one that asks); answers how many. */
  async cutConnections(): Promise<number> {
    const { rows } = await adminQuery(
      this.adminUrl,
      'SELECT count(pg_terminate_backend(pid))::int AS cut FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [this.databaseName],
    );
    return rows[0].cut as number;
  }

  /**
   * Net devices posting `perDevice` reports each to the servers in turn. A device repeats a report
   * until it gets a 2xx (as the protocol asks). Resolves with the reports answered 2xx and the
   * count of every answer (0: no connection).
   */
  async postReports(perDevice: number, pauseMs: number) {
    const acknowledged: Published[] = [];
    const answers = new Map<number, number>();
    let turn = 0;
    const base = Date.parse('2026-05-01T00:00:00Z');
    await Promise.all(
      HTTP_DEVICES.map(async ({ identCode, secret }) => {
        for (let n = 0; n < perDevice; n++) {
          const measuredAt = new Date(base + n * 60_000).toISOString();
          const sensors = [{ sequence: 1, value: 7000 - n }];
          const body = JSON.stringify({ identCode, secret, messageId: `m-${n}`, measuredAt, sensors });
          for (;;) {
            const { port } = this.servers[turn++ % this.servers.length];
            const status = await postNetReport(port, body);
            answers.set(status, (answers.get(status) ?? 0) + 1);
            if (status >= 200 && status < 300) break;
            await sleep(100);
          }
          acknowledged.push({ thingName: identCode, measuredAt });
          await sleep(pauseMs);
        }
      }),
    );
    return { acknowledged, answers };
  }

  /** Counts until every acknowledged report is in (the broker redelivers what is unacknowledged). */
  async settled(acknowledged: Published[], idents: string[], identColumn: 'thing_name' | 'ident_code') {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const database = await openDatabase({ url: this.databaseUrl, onConnectionError: () => {} });
      const stored = await storedReports(database.db, idents, identColumn).finally(() => database.close());
      if (missingOf(acknowledged, stored.byReport).length === 0 || Date.now() > deadline) return stored;
      await sleep(500);
    }
  }

  /** Milliseconds after `since` until each process answers an API call that reads the database. */
  recovered(since: number): Promise<number[]> {
    return Promise.all(
      this.servers.map(async ({ port }) => {
        while (Date.now() - since < 10_000) {
          const response = await fetch(`http://127.0.0.1:${port}/api/v2/whitelabels/current`).catch(
            () => null,
          );
          if (response?.status === 200) return Date.now() - since;
          await sleep(50);
        }
        return Infinity;
      }),
    );
  }

  /**
   * Asks every process's `/readyz` (every 100 ms, 20 s at most) until its answer fits; answers the
   * fitting answer of each.
   */
  readiness(fits: (answer: ReadyAnswer) => boolean): Promise<ReadyAnswer[]> {
    return Promise.all(
      this.servers.map(async ({ port }) => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const response = await fetch(`http://127.0.0.1:${port}/readyz`);
          const answer: ReadyAnswer = {
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            body: await response.json(),
          };
          if (fits(answer)) return answer;
          if (Date.now() > deadline)
            throw new Error(`/readyz on ${port} did not fit in time; the last: ${JSON.stringify(answer)}`);
          await sleep(100);
        }
      }),
    );
  }

  /**
   * Devices report over MQTT and HTTP while `fault` happens (it resolves with the moment the
   * database is there again); then what the devices and an operator would notice is checked.
   */
  async reportThrough(fault: () => Promise<number>) {
    const mqttReporting = publishReports(this.broker!, MQTT_DEVICES, DEVICE_PASSWORD, {
      perDevice: MQTT_REPORTS_PER_DEVICE,
      window: 1,
      pauseMs: 40,
    });
    const httpReporting = this.postReports(HTTP_REPORTS_PER_DEVICE, 60);
    const recovered = await this.recovered(await fault());
    expect(this.servers.map(({ process: child }) => child.exitCode ?? child.signalCode)).toEqual(
      this.servers.map(() => null),
    );
    expect(Math.max(...recovered)).toBeLessThan(5_000);
    const mqttAcknowledged = await mqttReporting;
    const { acknowledged: httpAcknowledged, answers } = await httpReporting;
    // A device is told to repeat (503) or answered: never a 500.
    expect([...answers.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(mqttAcknowledged).toHaveLength(MQTT_DEVICES.length * MQTT_REPORTS_PER_DEVICE);
    expect(httpAcknowledged).toHaveLength(HTTP_DEVICES.length * HTTP_REPORTS_PER_DEVICE);
    expectEveryAcknowledgedReportStoredOnce(
      mqttAcknowledged,
      await this.settled(mqttAcknowledged, MQTT_DEVICES, 'thing_name'),
    );
    const httpIdents = HTTP_DEVICES.map(({ identCode }) => identCode);
    expectEveryAcknowledgedReportStoredOnce(
      httpAcknowledged,
      await this.settled(httpAcknowledged, httpIdents, 'ident_code'),
    );
    return { recovered, answers: Object.fromEntries(answers) };
  }
}

describe.skipIf(!adminUrl || !mosquittoInstalled)('database connections cut under load', () => {
  let installation: Installation;
  beforeAll(async () => {
    installation = new Installation(adminUrl!);
    await installation.start();
  }, 120_000);
  afterAll(() => installation?.stop());

  it('no process ends, every acknowledged report is stored once, and the API is back within 5 s', async () => {
    const cuts: number[] = [];
    const { recovered, answers } = await installation.reportThrough(async () => {
      // Three cuts while both kinds of devices report.
      for (const pause of [1_000, 1_500, 1_500]) {
        await sleep(pause);
        cuts.push(await installation.cutConnections());
      }
      return Date.now();
    });
    expect(cuts.every((cut) => cut > 0)).toBe(true);
    console.info(
      `connections cut ${cuts.join(', ')}; API back after ${recovered.join(', ')} ms; HTTP answers ${JSON.stringify(answers)}`,
    );
  }, 120_000);
});

describe.skipIf(!adminUrl || !mosquittoInstalled || !postgresInstalled)(
  'PostgreSQL crashing under load',
  () => {
    let server: TestPostgres | null = null;
    let installation: Installation | null = null;
    beforeAll(async () => {
      server = await TestPostgres.start();
      installation = new Installation(server.url());
      await installation.start();
    }, 120_000);
    afterAll(async () => {
      await installation?.stop();
      await server?.dispose();
    });

    it('no process ends, every acknowledged report is stored once, readiness follows the database, and the API is back within 5 s of it', async () => {
      let downMs = 0;
      let unready: ReadyAnswer[] = [];
      let readyAgain: Promise<ReadyAnswer[]> | undefined;
      const { recovered, answers } = await installation!.reportThrough(async () => {
        await sleep(1_500);
        const down = Date.now();
        // Stopped without a checkpoint and started again a second later: recovery, as after a crash.
        await server!.stop('immediate');
        // Meanwhile every process tells a load balancer that its database is away.
        [unready] = await Promise.all([
          installation!.readiness((answer) => answer.status === 503),
          sleep(1_000),
        ]);
        await server!.restart('immediate', 0);
        downMs = Date.now() - down;
        // ... and that it is ready again once the database is back.
        readyAgain = installation!.readiness((answer) => answer.status === 200);
        // Awaited below, once the reports are in: a failure meanwhile is no unhandled rejection.
        readyAgain.catch(() => {});
        return Date.now();
      });
      for (const answer of unready) {
        expect(answer.retryAfter).toMatch(/^\d+$/);
        expect(answer.body).toEqual({
          status: 'not ready',
          checks: {
            database: { ok: false, reason: expect.any(String) },
            migrations: { ok: false, reason: 'not checked: the database does not answer' },
            mqtt: { ok: true },
            shutdown: { ok: true },
          },
        });
      }
      for (const answer of await readyAgain!) expect(answer.body).toEqual(READY_BODY);
      console.info(
        `PostgreSQL down ${downMs} ms (readiness: ${unready.map((answer) => answer.body.checks.database.reason).join(', ')}); API back after ${recovered.join(', ')} ms; HTTP answers ${JSON.stringify(answers)}`,
      );
    }, 120_000);
  },
);
