import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEMO_DEVICE_SECRET, demoFleet } from '@tankportal/shared/demo-fleet';
import { createTestApp, TestClient, type TestApp } from '../../server/src/testing/test-app.ts';
import { buildDevice } from '../../server/src/testing/factories.ts';
import { users } from '../../server/src/db/schema.ts';
import { hashToken } from '../../server/src/policies/tokens.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../server/src/ingest/mqtt-embedded.ts';
import { freePort } from '../../server/src/testing/free-port.ts';
import { simulate, type SimulationStats } from './simulator.ts';

// The first SMS device and the first LX-IoT device of the demo fleet, as the simulator drives them.
const fleet = demoFleet();
const smsDevice = fleet.find((device) => device.type === 'sms')!;
const lxDevice = fleet.find((device) => device.type === 'lx_iot')!;

let t: TestApp;
let broker: EmbeddedBroker;
let serverUrl: string;
let gatewayPort: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  gatewayPort = await freePort();
  t = await createTestApp({
    SMS_LIONEL_WEBHOOK_TOKEN: 'hook-lionel',
    SMS_1NCE_WEBHOOK_TOKEN: 'hook-1nce',
    SMS_LIONEL_API_URL: `http://127.0.0.1:${gatewayPort}`,
    SMS_LIONEL_API_TOKEN: 'api-lionel',
    SMS_1NCE_API_URL: `http://127.0.0.1:${gatewayPort}`,
    SMS_1NCE_API_TOKEN: 'api-1nce',
  });
  serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  broker = await startEmbeddedBroker(t.app.context, 0, '127.0.0.1');
  t.app.context.deviceChannels.attachMqtt(broker);
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  ids.sms = (
    await buildDevice(t.database.db, user.id, {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber: smsDevice.ident,
    })
  ).id;
  ids.lx = (
    await buildDevice(t.database.db, user.id, {
      type: 'lx_iot',
      identType: 'iccid',
      identCode: null,
      iccid: lxDevice.ident,
      secretHash: hashToken(DEMO_DEVICE_SECRET),
    })
  ).id;
});
afterAll(async () => {
  await broker?.close();
  await t?.close();
});

describe('simulated devices answer manual queries', () => {
  it('an SMS device through the fake gateway, an LX-IoT device on its command topic', async () => {
    const stop = new AbortController();
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const run: Promise<SimulationStats> = simulate({
      server: serverUrl,
      mqttUrl: `mqtt://127.0.0.1:${broker.port}`,
      smsTokens: { lionel: 'hook-lionel', '1nce': 'hook-1nce' },
      types: ['sms', 'lx_iot'],
      // Every SMS device of the fleet, then the first LX-IoT device; only queried ones report.
      devices: fleet.filter((device) => device.type === 'sms').length + 1,
      rate: 0,
      durationSeconds: 0,
      gatewayPort,
      signal: stop.signal,
      onReady: ready,
    });
    try {
      await started;
      const client = new TestClient(t.app);
      await client.login('user');
      for (const deviceId of [ids.sms, ids.lx]) {
        const query = (await client.post('/api/v2/queries', { device_id: deviceId })).json();
        expect(query).toMatchObject({ status: 'sent' });
        await expect
          .poll(async () => (await client.get(`/api/v2/queries/${query.id}`)).json().status, {
            timeout: 10_000,
            interval: 100,
          })
          .toBe('processed');
      }
    } finally {
      stop.abort();
    }
    const stats = await run;
    expect(stats.failed).toBe(0);
    expect(stats.answered).toBeGreaterThanOrEqual(2);
    expect(stats.acknowledged).toBe(stats.answered);
  });
});
