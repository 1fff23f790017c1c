import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processClientId, readConfig } from '../config/env.ts';
import { mosquittoInstalled, TestMosquitto } from '../testing/mosquitto.ts';
import type { IngestContext } from './ingest-context.ts';
import { subscribeExternalBroker, type ExternalSubscriber } from './mqtt-external.ts';
import { SESSION_TAKEN_OVER, SessionTakeoverWatch } from './mqtt-session-takeover.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

describe('the MQTT client id', () => {
  it('is the host name and port unless MQTT_CLIENT_ID sets it', () => {
    const made = readConfig({ PORT: '3000' }).mqttClientId;
    expect(made).toMatch(/^tankportal-[A-Za-z0-9-]+-3000$/);
    expect(processClientId(3000)).toBe(made);
    expect(readConfig({ MQTT_CLIENT_ID: 'tankportal-east-1' }).mqttClientId).toBe('tankportal-east-1');
  });

  it('differs between two processes of one machine and stays the same after a restart', () => {
    const script = `import { readConfig } from './packages/server/src/config/env.ts';
      process.stdout.write(readConfig({ MQTT_URL: 'mqtt://broker:1883', PORT: process.argv[1] }).mqttClientId);`;
    const { MQTT_CLIENT_ID: _, ...env } = process.env;
    const idOfNewProcess = (port: number) =>
      execFileSync(process.execPath, ['--input-type=module', '-e', script, String(port)], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      });
    const [first, second, restarted] = [idOfNewProcess(3000), idOfNewProcess(3001), idOfNewProcess(3000)];
    expect(first).not.toBe(second);
    expect(restarted).toBe(first);
  });
});

describe('a session taken over', () => {
  function watch() {
    let now = 0;
    const warnings: string[] = [];
    const takeover = new SessionTakeoverWatch(
      'tankportal-a',
      'broker:1883',
      (m) => warnings.push(m),
      () => now,
    );
    return { takeover, warnings, advance: (ms: number) => (now += ms) };
  }

  it('is named when the broker says so (MQTT 5 reason 0x8E), once per 30 s', () => {
    const { takeover, warnings, advance } = watch();
    takeover.disconnected(0x8b); // server shutting down: not a takeover
    takeover.disconnected(undefined);
    expect(warnings).toEqual([]);
    takeover.disconnected(SESSION_TAKEN_OVER);
    takeover.connectionLost();
    advance(1_000);
    takeover.disconnected(SESSION_TAKEN_OVER);
    takeover.connectionLost();
    advance(1_000);
    takeover.connectionLost();
    expect(warnings).toEqual([
      'MQTT: another client connected to broker:1883 with this server\'s client id "tankportal-a" and took over its session; each server process needs its own MQTT_CLIENT_ID',
    ]);
    advance(30_000);
    takeover.disconnected(SESSION_TAKEN_OVER);
    expect(warnings).toHaveLength(2);
  });

  it('is suspected after 3 lost connections within 30 s, when the broker gives no reason', () => {
    const { takeover, warnings, advance } = watch();
    // Two, or three spread over more than 30 s: a flaky network or broker restarts.
    takeover.connectionLost();
    advance(20_000);
    takeover.connectionLost();
    advance(15_000);
    takeover.connectionLost();
    expect(warnings).toEqual([]);
    advance(1_000);
    takeover.connectionLost();
    expect(warnings).toEqual([
      'MQTT: broker:1883 ended this server\'s connection 3 times within 30 s; likely another client uses the same client id "tankportal-a" and takes over the session: each server process needs its own MQTT_CLIENT_ID',
    ]);
  });
});

describe.skipIf(!mosquittoInstalled)('two subscribers with one client id at Mosquitto', () => {
  let broker: TestMosquitto;
  beforeAll(async () => {
    broker = await TestMosquitto.start([], 'unused');
  });
  afterAll(() => broker?.dispose());

  it('both log that another client with their client id takes over the session', async () => {
    const clientId = `tankportal-twin-${process.pid}`;
    const logs = [[], []] as string[][];
    const subscribers: ExternalSubscriber[] = [];
    // No report is published: the ingest is never asked.
    const context = {} as IngestContext;
    try {
      for (const log of logs) {
        const logger = {
          info: () => {},
          warn: (m: string) => log.push(m),
          error: (m: string) => log.push(m),
        };
        subscribers.push(await subscribeExternalBroker(context, { url: broker.url(), clientId, logger }));
      }
      // The second connect pushed the first off, the first's reconnect a second later the second,
      // and so on. Mosquitto 2.0 closes the old connection without a DISCONNECT (no reason 0x8E):
      // the connections lost one after the other give it away.
      const named = (line: string) =>
        line.includes(`client id "${clientId}"`) &&
        line.includes('takes over the session: each server process needs its own MQTT_CLIENT_ID');
      await expect
        .poll(() => logs.map((log) => log.filter(named).length), { timeout: 15_000 })
        .toEqual([1, 1]);
    } finally {
      for (const subscriber of subscribers) await subscriber.close();
    }
  });
});
