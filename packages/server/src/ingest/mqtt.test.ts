import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { devices, measurements, messages, sensors, unassignedDevices, users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';
import { reportV1 } from '@tankportal/shared/protocols/report';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-embedded.ts';
import { subscribeExternalBroker } from './mqtt-external.ts';

let t: TestApp;
// Of this process: the external-broker tests below share a broker with the other test runs.
const thingName = `thing-0815-${process.pid}`;
const iccid = '8949000000000000815';
const secret = 'mqtt-device-secret';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  await buildDevice(db, user.id, {
    type: 'iot',
    identType: 'thing_name',
    identCode: null,
    thingName,
    secretHash: hashToken(secret),
  });
  await buildDevice(db, user.id, {
    type: 'lx_iot',
    identType: 'iccid',
    identCode: null,
    iccid,
    secretHash: hashToken(secret),
  });
});
afterAll(() => t.close());

const report = (messageId: string, value: number, measuredAt = '2026-05-01T10:00:00Z') =>
  JSON.stringify({ messageId, measuredAt, sensors: [{ sequence: 1, value }] });

async function valueOf(column: 'thingName' | 'iccid', ident: string) {
  const [device] = await t.database.db.select().from(devices).where(eq(devices[column], ident));
  const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, device.id));
  const rows = await t.database.db.select().from(measurements).where(eq(measurements.sensorId, sensor.id));
  return { device, sensor, rows };
}

describe('embedded MQTT broker', () => {
  let broker: EmbeddedBroker;
  beforeAll(async () => {
    broker = await startEmbeddedBroker(t.app.context, 0, '127.0.0.1');
  });
  afterAll(() => broker.close());

  const connect = (clientId: string, password = secret) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId,
      password,
      username: clientId,
      reconnectPeriod: 0,
      clean: false,
    });

  it('stores an IoT report before acknowledging it, once even when sent twice', async () => {
    const device = await connect(thingName);
    await device.publishAsync(`devices/iot/${thingName}/report`, report('a-1', 4200), { qos: 1 });
    // The PUBACK came: the report is committed.
    let stored = await valueOf('thingName', thingName);
    expect(stored.rows).toHaveLength(1);
    expect(stored.sensor).toMatchObject({ value: 4200, pct: 42 });
    await device.publishAsync(`devices/iot/${thingName}/report`, report('a-1', 4200), { qos: 1 });
    stored = await valueOf('thingName', thingName);
    expect(stored.rows).toHaveLength(1);
    const logged = await t.database.db.select().from(messages).where(eq(messages.deviceId, stored.device.id));
    expect(logged).toMatchObject([{ type: 'iot', status: 'processed', fromIdent: thingName }]);
    await device.endAsync();
  });

  it('stores LX-IoT reports under the ICCID', async () => {
    const device = await connect(iccid);
    await device.publishAsync(`devices/lx-iot/${iccid}/report`, report('b-1', 2500), { qos: 1 });
    expect((await valueOf('iccid', iccid)).sensor.value).toBe(2500);
    await device.endAsync();
  });

  it('logs a malformed payload as parsing_failed and stores nothing', async () => {
    const device = await connect(thingName);
    await device.publishAsync(`devices/iot/${thingName}/report`, '{"messageId": 1, "sensors": "x"}', {
      qos: 1,
    });
    await device.publishAsync(`devices/iot/${thingName}/report`, 'not json at all', { qos: 1 });
    const failed = await t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'));
    expect(failed.filter((message) => message.fromIdent === thingName)).toHaveLength(2);
    expect((await valueOf('thingName', thingName)).rows).toHaveLength(1);
    await device.endAsync();
  });

  it('acknowledges a report the database cannot take once, and stores the reports of other devices', async () => {
    const thing = await connect(thingName);
    const lx = await connect(iccid);
    const failedOf = async (messageId: string) =>
      (await t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'))).filter(
        (message) => message.fromIdent === thingName && message.content.includes(messageId),
      );
    // Refused by the validation: a NUL in the message id, a year-0000 time, a value of 1e308.
    const refused = [
      JSON.stringify({
        messageId: 'v\u0000',
        measuredAt: '2026-05-03T10:00:00Z',
        sensors: [{ sequence: 1, value: 1 }],
      }),
      report('v-2', 1, '0000-01-01T00:00:00Z'),
      report('v-3', 1e308, '2026-05-03T10:00:00Z'),
    ];
    // And one the validation lets through and the database refuses (as anything the validation
    // misses would be): it fails alone, not the reports sharing its transaction.
    const original = reportV1.safeParse.bind(reportV1);
    const parse = vi
      .spyOn(reportV1, 'safeParse')
      .mockImplementation((body) =>
        (body as { messageId?: string }).messageId === 'w\u0000'
          ? ({ success: true, data: body } as ReturnType<typeof reportV1.safeParse>)
          : original(body),
      );
    try {
      // Each publish resolves on its PUBACK; before, the bad ones failed the shared transaction and
      // were never acknowledged (delivered again and again), and the others' with them.
      await Promise.all([
        ...refused.map((payload) =>
          thing.publishAsync(`devices/iot/${thingName}/report`, payload, { qos: 1 }),
        ),
        thing.publishAsync(
          `devices/iot/${thingName}/report`,
          JSON.stringify({
            messageId: 'w\u0000',
            measuredAt: '2026-05-03T11:00:00Z',
            sensors: [{ sequence: 1, value: 1 }],
          }),
          { qos: 1 },
        ),
        lx.publishAsync(`devices/lx-iot/${iccid}/report`, report('w-1', 2600, '2026-05-03T10:00:00Z'), {
          qos: 1,
        }),
        lx.publishAsync(`devices/lx-iot/${iccid}/report`, report('w-2', 2700, '2026-05-03T11:00:00Z'), {
          qos: 1,
        }),
      ]);
    } finally {
      parse.mockRestore();
    }
    expect((await valueOf('iccid', iccid)).sensor.value).toBe(2700);
    expect((await valueOf('thingName', thingName)).rows).toHaveLength(1);
    // Logged once each, and not delivered again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const messageId of ['v\\u0000', 'v-2', 'v-3', 'w\\u0000'])
      expect(await failedOf(messageId)).toHaveLength(1);
    const [databaseRefused] = await failedOf('w\\u0000');
    expect(databaseRefused.report).toContain('refused by the database');
    await Promise.all([thing.endAsync(), lx.endAsync()]);
  });

  it('lists an unknown thing as unassigned', async () => {
    const device = await connect('thing-unknown-7', 'anything');
    await device.publishAsync('devices/iot/thing-unknown-7/report', report('c-1', 1), { qos: 1 });
    const [row] = await t.database.db
      .select()
      .from(unassignedDevices)
      .where(eq(unassignedDevices.ident, 'thing-unknown-7'));
    expect(row).toMatchObject({ kind: 'iot' });
    await device.endAsync();
  });

  it('refuses a wrong secret, and a publish on another device topic', async () => {
    await expect(connect(thingName, 'wrong')).rejects.toThrow();
    const impostor = await connect('thing-unknown-8', 'x');
    const closed = new Promise((resolve) => impostor.once('close', () => resolve(null)));
    impostor.publish(`devices/iot/${thingName}/report`, report('d-1', 9999), { qos: 1 });
    await closed;
    expect((await valueOf('thingName', thingName)).sensor.value).toBe(4200);
    impostor.end(true);
  });
});

describe.runIf(process.env.TEST_MQTT_URL)('external MQTT broker (TEST_MQTT_URL)', () => {
  it('stores reports that arrive through the shared subscription', async () => {
    const url = process.env.TEST_MQTT_URL!;
    // A group of its own: other sessions on the same broker must not take these reports.
    const run = `${process.pid}-${Date.now()}`;
    const subscriber = await subscribeExternalBroker(t.app.context, {
      url,
      clientId: `tankportal-test-${run}`,
      shareGroup: `test-${run}`,
    });
    try {
      const device = await mqtt.connectAsync(url, {
        clientId: `${thingName}-${process.pid}`,
        reconnectPeriod: 0,
      });
      await device.publishAsync(
        `devices/iot/${thingName}/report`,
        report('e-1', 3100, '2026-05-02T10:00:00Z'),
        { qos: 1 },
      );
      await device.endAsync();
      await expect
        .poll(async () => (await valueOf('thingName', thingName)).sensor.value, { timeout: 10_000 })
        .toBe(3100);
    } finally {
      // Session expiry 0 on disconnect: the broker forgets this test's persistent session.
      await subscriber.client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
    }
  });
  it('acknowledges a report the database cannot take once, and stores the next ones', async () => {
    const url = process.env.TEST_MQTT_URL!;
    const run = `${process.pid}-${Date.now()}-poison`;
    const subscriber = await subscribeExternalBroker(t.app.context, {
      url,
      clientId: `tankportal-test-${run}`,
      shareGroup: `test-${run}`,
    });
    const original = reportV1.safeParse.bind(reportV1);
    // Let one report past the validation, as anything it misses would come: the database refuses it.
    const parse = vi
      .spyOn(reportV1, 'safeParse')
      .mockImplementation((body) =>
        (body as { messageId?: string }).messageId === 'x\u0000'
          ? ({ success: true, data: body } as ReturnType<typeof reportV1.safeParse>)
          : original(body),
      );
    try {
      const device = await mqtt.connectAsync(url, { clientId: `${thingName}-${run}`, reconnectPeriod: 0 });
      const topic = `devices/iot/${thingName}/report`;
      const payload = (messageId: string, value: number, measuredAt: string) =>
        JSON.stringify({ messageId, measuredAt, sensors: [{ sequence: 1, value }] });
      await device.publishAsync(topic, payload('x\u0000', 1, '2026-05-04T10:00:00Z'), { qos: 1 });
      await device.publishAsync(topic, payload('x-1', 0, '0000-01-01T00:00:00Z'), { qos: 1 });
      await device.publishAsync(topic, payload('x-2', 3300, '2026-05-04T11:00:00Z'), { qos: 1 });
      await device.endAsync();
      await expect
        .poll(async () => (await valueOf('thingName', thingName)).sensor.value, { timeout: 10_000 })
        .toBe(3300);
      // Acknowledged: logged once each, not delivered again and again.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const failed = (
        await t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'))
      ).filter((message) => message.fromIdent === thingName);
      expect(failed.filter((message) => message.content.includes('x\\u0000'))).toHaveLength(1);
      expect(failed.filter((message) => message.content.includes('"x-1"'))).toHaveLength(1);
    } finally {
      parse.mockRestore();
      await subscriber.client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
    }
  });
});
