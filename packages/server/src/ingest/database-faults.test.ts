import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';
import { ensureBaseData } from '../seed/base-data.ts';
import { buildDevice } from '../testing/factories.ts';
import { freePort, mosquittoInstalled, TestMosquitto } from '../testing/mosquitto.ts';
import {
  expectEveryAcknowledgedReportStoredOnce,
  missingOf,
  publishReports,
  storedReports,
  type Published,
} from '../testing/mqtt-devices.ts';
import { startPortal, stopProcess } from '../testing/server-process.ts';

/**
 * The database goes away under load: three server processes on one PostgreSQL database and one
 * Mosquitto, IoT devices reporting over MQTT and net devices over HTTP, while every connection of
 * the servers is cut (`pg_terminate_backend`, as a failover, a restart or a proxy's idle cut does).
 * No process may end, no acknowledged report may be lost or stored twice, and the service is back
 * within seconds. PostgreSQL only (PGlite is in the process: nothing can cut it).
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const MQTT_DEVICES = Array.from({ length: 20 }, (_, i) => `db-fault-iot-${i + 1}`);
const HTTP_DEVICES = Array.from({ length: 10 }, (_, i) => ({
  identCode: `DB-FAULT-NET-${i + 1}`,
  secret: `s-${i + 1}`,
}));
const DEVICE_PASSWORD = 'device-secret';
const PROCESSES = 3;

let databaseUrl = '';
let databaseName = '';
let broker: TestMosquitto;
let servers: { port: number; process: ChildProcess }[] = [];
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

/** Cuts every connection to the servers' database (but the one that asks). */
const cutConnections = async () =>
  (
    await adminQuery(
      adminUrl!,
      'SELECT count(pg_terminate_backend(pid))::int AS cut FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [databaseName],
    )
  ).rows[0].cut as number;

describe.skipIf(!adminUrl || !mosquittoInstalled)('database connections cut under load', () => {
  beforeAll(async () => {
    databaseName = `tp_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl!, `CREATE DATABASE ${databaseName}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    const database = await openDatabase({ url: databaseUrl });
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
    broker = await TestMosquitto.start(MQTT_DEVICES, DEVICE_PASSWORD);
    servers = await Promise.all(
      Array.from({ length: PROCESSES }, async (_, index) => {
        const port = await freePort();
        const process_ = await startPortal(port, {
          DATABASE_URL: databaseUrl,
          DEMO_DATA: '0',
          LOG_LEVEL: 'error',
          MQTT_URL: broker.url(),
          MQTT_CLIENT_ID: `tankportal-db-faults-${process.pid}-${index}`,
        });
        return { port, process: process_ };
      }),
    );
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) if (server.process.exitCode === null) await stopProcess(server.process);
    await broker?.dispose();
    if (databaseName)
      await adminQuery(adminUrl!, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => {});
  });

  /**
   * Net devices posting `perDevice` reports each to the servers in turn. A device repeats a report
   * until it gets a 2xx (as the protocol asks); a 5xx other than 503 is counted, a refused
   * connection too. Resolves with the reports answered 2xx.
   */
  async function postReports(perDevice: number, pauseMs: number) {
    const acknowledged: Published[] = [];
    const answers = new Map<number, number>();
    let turn = 0;
    const base = Date.parse('2026-05-01T00:00:00Z');
    await Promise.all(
      HTTP_DEVICES.map(async ({ identCode, secret }) => {
        for (let n = 0; n < perDevice; n++) {
          const measuredAt = new Date(base + n * 60_000).toISOString();
          const body = JSON.stringify({
            identCode,
            secret,
            messageId: `m-${n}`,
            measuredAt,
            sensors: [{ sequence: 1, value: 7000 - n }],
          });
          for (;;) {
            const { port } = servers[turn++ % servers.length];
            const status = await fetch(`http://127.0.0.1:${port}/ingest/net/v1`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
            }).then(
              (response) => response.status,
              () => 0,
            );
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

  /** Reports stored per device and time, by ident (thing name or net ident code). */
  async function countStored(idents: string[], byIdentCode: boolean) {
    const database = await openDatabase({ url: databaseUrl, onConnectionError: () => {} });
    try {
      if (!byIdentCode) return await storedReports(database.db, idents);
      const { rows } = await database.db.execute<{ ident: string; at: string; rows: number }>(sql`
        SELECT d.ident_code AS ident, to_char(m.measured_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
               count(*)::int AS rows
        FROM measurements m JOIN sensors s ON s.id = m.sensor_id JOIN devices d ON d.id = s.device_id
        WHERE d.ident_code IN ${idents} GROUP BY 1, 2`);
      const [{ processed }] = (
        await database.db.execute<{ processed: number }>(sql`
          SELECT count(*)::int AS processed FROM messages m JOIN devices d ON d.id = m.device_id
          WHERE d.ident_code IN ${idents} AND m.status = 'processed'`)
      ).rows;
      return { byReport: new Map(rows.map((row) => [`${row.ident}|${row.at}`, row.rows])), processed };
    } finally {
      await database.close();
    }
  }

  /** Counts again until every acknowledged report is in (the broker redelivers what is unacknowledged). */
  async function settled(acknowledged: Published[], idents: string[], byIdentCode: boolean) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const stored = await countStored(idents, byIdentCode);
      if (missingOf(acknowledged, stored.byReport).length === 0 || Date.now() > deadline) return stored;
      await sleep(500);
    }
  }

  it('no process ends, every acknowledged report is stored once, and the API is back within 5 s', async () => {
    const mqttReporting = publishReports(broker, MQTT_DEVICES, DEVICE_PASSWORD, {
      perDevice: 100,
      window: 1,
      pauseMs: 40,
    });
    const httpReporting = postReports(40, 60);
    // Three cuts while both kinds of devices report.
    const cuts: number[] = [];
    for (const at of [1_000, 1_500, 1_500]) {
      await sleep(at);
      cuts.push(await cutConnections());
    }
    const lastCut = Date.now();
    // Back: every process answers an API call that reads the database.
    const recovered = await Promise.all(
      servers.map(async ({ port }) => {
        while (Date.now() - lastCut < 10_000) {
          const response = await fetch(`http://127.0.0.1:${port}/api/v2/whitelabels/current`).catch(
            () => null,
          );
          if (response?.status === 200) return Date.now() - lastCut;
          await sleep(50);
        }
        return Infinity;
      }),
    );
    expect(servers.map(({ process: child }) => child.exitCode ?? child.signalCode)).toEqual([
      null,
      null,
      null,
    ]);
    const mqttAcknowledged = await mqttReporting;
    const { acknowledged: httpAcknowledged, answers } = await httpReporting;

    expect(cuts.every((cut) => cut > 0)).toBe(true);
    expect(servers.map(({ process: child }) => child.exitCode ?? child.signalCode)).toEqual([
      null,
      null,
      null,
    ]);
    expect(Math.max(...recovered)).toBeLessThan(5_000);
    // A device is told to repeat (503) or answered: never a 500.
    expect([...answers.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(mqttAcknowledged).toHaveLength(MQTT_DEVICES.length * 100);
    expect(httpAcknowledged).toHaveLength(HTTP_DEVICES.length * 40);
    expectEveryAcknowledgedReportStoredOnce(
      mqttAcknowledged,
      await settled(mqttAcknowledged, MQTT_DEVICES, false),
    );
    const httpIdents = HTTP_DEVICES.map(({ identCode }) => identCode);
    expectEveryAcknowledgedReportStoredOnce(
      httpAcknowledged,
      await settled(httpAcknowledged, httpIdents, true),
    );
    console.info(
      `database faults: cut ${cuts.join(', ')} connections; back after ${recovered.join(', ')} ms; HTTP answers ${JSON.stringify(Object.fromEntries(answers))}`,
    );
  }, 120_000);
});
