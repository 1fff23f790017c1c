import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { measurements, sensors, users } from '../db/schema.ts';
import { ensureBaseData } from '../seed/base-data.ts';
import { buildDevice } from '../testing/factories.ts';
import { freePort } from '../testing/free-port.ts';
import { mosquittoInstalled, TestMosquitto } from '../testing/mosquitto.ts';
import {
  expectEveryAcknowledgedReportStoredOnce,
  missingOf,
  publishReports,
  storedReports,
  type Pace,
  type Published,
} from '../testing/mqtt-devices.ts';
import { startPortal, stopProcess } from '../testing/server-process.ts';
import { createTestApp } from '../testing/test-app.ts';
import { migratedDataDir } from '../testing/test-database.ts';
import { subscribeExternalBroker } from './mqtt-external.ts';

/**
 * The external broker path under faults: a real Mosquitto with the documented
 * configuration, the server as a child process subscribed to it, and devices publishing QoS 1.
 * Each scenario counts the PUBACKs the devices got and the rows stored: no acknowledged report
 * may be missing, none stored twice. On PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */

const DEVICES_PER_SCENARIO = 20;
const DEVICE_PASSWORD = 'device-secret';
const scenarios = ['broker-sigterm', 'broker-sigkill', 'server-sigkill', 'burst'] as const;
type Scenario = (typeof scenarios)[number];
const identsOf = (scenario: Scenario) =>
  Array.from({ length: DEVICES_PER_SCENARIO }, (_, i) => `fault-${scenario}-${i + 1}`);

let broker: TestMosquitto;
let serverEnv: NodeJS.ProcessEnv;
let openStore: () => ReturnType<typeof openDatabase>;
let cleanUp = async () => {};
let serverPort: number;

beforeAll(async () => {
  if (!mosquittoInstalled) return;
  const adminUrl = process.env.TEST_DATABASE_URL;
  let location: { url?: string; dataDir?: string };
  if (adminUrl) {
    const name = `tp_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    location = { url: url.toString() };
    cleanUp = () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    const { dataDir, remove } = await migratedDataDir('tp-mqtt-faults-');
    location = { dataDir };
    cleanUp = async () => remove();
  }
  openStore = () => openDatabase({ ...location, onConnectionError: () => {} });
  // The devices of every scenario, known to the portal before it starts.
  const database = await openStore();
  try {
    await ensureBaseData(database.db);
    const [owner] = await database.db
      .insert(users)
      .values({ username: 'fault-owner', role: 'ROLE_USER', passwordHash: 'x' })
      .returning();
    for (const scenario of scenarios)
      for (const thingName of identsOf(scenario))
        await buildDevice(database.db, owner.id, {
          type: 'iot',
          identType: 'thing_name',
          identCode: null,
          thingName,
        });
  } finally {
    await database.close();
  }
  broker = await TestMosquitto.start(scenarios.flatMap(identsOf), DEVICE_PASSWORD);
  serverPort = await freePort();
  serverEnv = {
    DATABASE_URL: location.url ?? '',
    DATA_DIR: location.dataDir ?? '',
    DEMO_DATA: '0',
    LOG_LEVEL: 'error',
    MQTT_URL: broker.url(),
    MQTT_CLIENT_ID: `tankportal-faults-${process.pid}`,
  };
}, 120_000);

afterAll(async () => {
  await broker?.dispose();
  await cleanUp();
});

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const startServer = () => startPortal(serverPort, serverEnv);

const reportFrom = (thingNames: string[], pace: Pace) =>
  publishReports(broker, thingNames, DEVICE_PASSWORD, pace);

async function countStored(thingNames: string[]) {
  const database = await openStore();
  try {
    return await storedReports(database.db, thingNames);
  } finally {
    await database.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops the server once the broker has delivered what it holds for it, and counts (PGlite is read
 * once the server has let go of it). A report still queued at the broker for the server's session
 * is not lost: the server is started again for it, a few times at most.
 */
async function stopAndCount(server: ChildProcess, thingNames: string[], acknowledged: Published[]) {
  for (let attempt = 1; ; attempt++) {
    await sleep(1_500);
    await stopProcess(server);
    const stored = await countStored(thingNames);
    if (missingOf(acknowledged, stored.byReport).length === 0 || attempt === 4) return stored;
    server = await startServer();
  }
}

describe.skipIf(!mosquittoInstalled)('external MQTT broker (Mosquitto) under faults', () => {
  let server: ChildProcess | null = null;
  afterAll(async () => {
    if (server) await stopProcess(server);
  });

  // 20 devices × 150 reports, one every 40 ms each (about 500/s over 6 s), the fault after 2 s.
  const paced = { perDevice: 150, window: 1, pauseMs: 40 };

  // A broker crash loses what Mosquitto acknowledged and had not saved (it saves once a second) nor
  // handed on: the server's batch in flight. On PostgreSQL a batch commits in milliseconds and the
  // crash has lost nothing in any run; the embedded database's batches take longer, and a crash lost
  // 39 and 137 of 3,000 reports in two runs of 2026-11-29. So the crash is tested on PostgreSQL
  // (docs/decisions/008-external-mqtt-broker.md); the embedded database gets the clean restart.
  const brokerSignals = process.env.TEST_DATABASE_URL
    ? (['SIGTERM', 'SIGKILL'] as const)
    : (['SIGTERM'] as const);
  for (const signal of brokerSignals)
    it(`stores every acknowledged report once although the broker is restarted (${signal}) while devices report`, async () => {
      const thingNames = identsOf(signal === 'SIGTERM' ? 'broker-sigterm' : 'broker-sigkill');
      server = await startServer();
      const reporting = reportFrom(thingNames, paced);
      await sleep(2_000);
      await broker.restart(signal);
      const acknowledged = await reporting;
      const stored = await stopAndCount(server, thingNames, acknowledged);
      server = null;
      expect(acknowledged).toHaveLength(3_000);
      expectEveryAcknowledgedReportStoredOnce(acknowledged, stored);
    }, 120_000);

  it('stores every acknowledged report once although the server is killed (SIGKILL) and restarted', async () => {
    const thingNames = identsOf('server-sigkill');
    server = await startServer();
    const reporting = reportFrom(thingNames, paced);
    await sleep(2_000);
    await stopProcess(server, 'SIGKILL');
    // Meanwhile the broker keeps the reports for the server's persistent session.
    server = await startServer();
    const acknowledged = await reporting;
    const stored = await stopAndCount(server, thingNames, acknowledged);
    server = null;
    expect(acknowledged).toHaveLength(3_000);
    expectEveryAcknowledgedReportStoredOnce(acknowledged, stored);
  }, 120_000);

  it('stores every one of a burst of 5,000 reports the broker acknowledged', async () => {
    const thingNames = identsOf('burst');
    server = await startServer();
    const acknowledged = await reportFrom(thingNames, { perDevice: 250, window: 50, pauseMs: 0 });
    const stored = await stopAndCount(server, thingNames, acknowledged);
    server = null;
    expect(acknowledged).toHaveLength(5_000);
    expectEveryAcknowledgedReportStoredOnce(acknowledged, stored);
  }, 120_000);
});

describe.skipIf(!mosquittoInstalled)('external MQTT broker: reconnecting', () => {
  it('logs the lost connection and the reconnect, subscribes again and stores the reports sent after a broker restart', async () => {
    const t = await createTestApp();
    const thingName = 'reconnect-thing';
    const mosquitto = await TestMosquitto.start([thingName], DEVICE_PASSWORD);
    const logged: string[] = [];
    const log = (message: string) => logged.push(message);
    try {
      const [owner] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
      const device = await buildDevice(t.database.db, owner.id, {
        type: 'iot',
        identType: 'thing_name',
        identCode: null,
        thingName,
      });
      // A shared subscription: the kind Mosquitto forgets over a restart although it answers
      // "session present".
      const subscriber = await subscribeExternalBroker(t.app.context, {
        url: mosquitto.url(),
        clientId: `tankportal-reconnect-${process.pid}`,
        shareGroup: 'tankportal',
        logger: { info: log, warn: log, error: log },
      });
      await mosquitto.restart('SIGTERM');
      await expect.poll(() => subscriber.client.connected, { timeout: 10_000 }).toBe(true);
      const publisher = await mqtt.connectAsync(
        mosquitto.url({ username: thingName, password: DEVICE_PASSWORD }),
        {
          clientId: thingName,
        },
      );
      // Subscribed again within a second of the reconnect; reports from then on reach the portal.
      await sleep(1_000);
      await publisher.publishAsync(
        `devices/iot/${thingName}/report`,
        JSON.stringify({
          messageId: '1',
          measuredAt: '2026-04-01T10:00:00Z',
          sensors: [{ sequence: 1, value: 4321 }],
        }),
        { qos: 1 },
      );
      await publisher.endAsync();
      await expect
        .poll(
          async () =>
            (
              await t.database.db
                .select({ value: measurements.value })
                .from(measurements)
                .innerJoin(sensors, eq(sensors.id, measurements.sensorId))
                .where(eq(sensors.deviceId, device.id))
            ).map((row) => row.value),
          { timeout: 10_000 },
        )
        .toEqual([4321]);
      await subscriber.client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
      expect(logged).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^MQTT: connection to 127\.0\.0\.1:\d+ closed$/),
          expect.stringMatching(/^MQTT: reconnected to 127\.0\.0\.1:\d+/),
        ]),
      );
      expect(logged.filter((line) => line.startsWith('MQTT: subscribed to $share/tankportal/'))).toHaveLength(
        2,
      );
    } finally {
      await mosquitto.dispose();
      await t.close();
    }
  }, 60_000);
});

describe.skipIf(!mosquittoInstalled)('external MQTT broker: a share group member that stops', () => {
  it('leaves the group, so that the processes that stay get every report', async () => {
    const t = await createTestApp();
    const thingName = 'share-thing';
    const mosquitto = await TestMosquitto.start([thingName], DEVICE_PASSWORD);
    try {
      const [owner] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
      const device = await buildDevice(t.database.db, owner.id, {
        type: 'iot',
        identType: 'thing_name',
        identCode: null,
        thingName,
      });
      const member = (name: string) =>
        subscribeExternalBroker(t.app.context, {
          url: mosquitto.url(),
          clientId: `tankportal-share-${name}-${process.pid}`,
          shareGroup: 'tankportal',
        });
      const staying = await member('staying');
      const leaving = await member('leaving');
      await sleep(500);
      // Stopped for good (retired): its persistent session would otherwise keep taking a share.
      await leaving.close();
      const publisher = await mqtt.connectAsync(
        mosquitto.url({ username: thingName, password: DEVICE_PASSWORD }),
        { clientId: thingName },
      );
      const base = Date.parse('2026-06-01T00:00:00Z');
      for (let n = 0; n < 20; n++)
        await publisher.publishAsync(
          `devices/iot/${thingName}/report`,
          JSON.stringify({
            messageId: String(n),
            measuredAt: new Date(base + n * 60_000).toISOString(),
            sensors: [{ sequence: 1, value: 3000 + n }],
          }),
          { qos: 1 },
        );
      await publisher.endAsync();
      const stored = () =>
        t.database.db
          .select({ value: measurements.value })
          .from(measurements)
          .innerJoin(sensors, eq(sensors.id, measurements.sensorId))
          .where(eq(sensors.deviceId, device.id));
      await expect.poll(async () => (await stored()).length, { timeout: 10_000 }).toBe(20);
      await staying.client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
    } finally {
      await mosquitto.dispose();
      await t.close();
    }
  }, 60_000);
});
