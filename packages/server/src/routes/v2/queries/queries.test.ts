import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { formatMeasurementSms } from '@tankportal/shared/protocols/sms';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { messages, users } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';
import { deadUrl, FakeSmsGateway } from '../../../testing/fake-sms-gateway.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../../ingest/mqtt-embedded.ts';
import { subscribeExternalBroker } from '../../../ingest/mqtt-external.ts';

/** A fake Lionel API that records every SMS it is given. */
let gateway: FakeSmsGateway;

let t: TestApp;
let broker: EmbeddedBroker;
const ids: Record<string, number> = {};
const cellNumber = '+491709998877';
const onceIccid = '89882806660000000777';
const lxIccid = '8949100000000000777';
const secret = 'lx-secret';
let clock = Date.parse('2026-03-01T08:00:00Z');
/** Report times move forward, so every report is the device's newest. */
const nextTime = () => new Date((clock += 60_000));
let counter = 0;

beforeAll(async () => {
  gateway = await FakeSmsGateway.start();
  t = await createTestApp({
    SMS_LIONEL_API_URL: gateway.url,
    SMS_LIONEL_API_TOKEN: 'lionel-api-token',
    SMS_1NCE_API_URL: await deadUrl(),
    SMS_1NCE_API_TOKEN: '1nce-api-token',
    SMS_LIONEL_WEBHOOK_TOKEN: 'lionel-hook',
  });
  broker = await startEmbeddedBroker(t.app.context, 0, '127.0.0.1');
  t.app.context.deviceChannels.attachMqtt(broker);

  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const [demo] = await db.select().from(users).where(eq(users.username, 'demo'));
  const viewer = await buildUser(db, { username: 'query-viewer', role: 'ROLE_USER', parent: 'master' });
  const otherCustomer = await buildUser(db, { username: 'query-other', parent: 'master' });
  const sms = { type: 'sms', identCode: null } as const;
  ids.sms = (await buildDevice(db, user.id, { ...sms, identType: 'cell_number', cellNumber })).id;
  ids.once = (await buildDevice(db, user.id, { ...sms, identType: 'iccid', iccid: onceIccid })).id;
  ids.smsWithoutIdent = (await buildDevice(db, user.id, { ...sms, identType: 'cell_number' })).id;
  ids.lx = (
    await buildDevice(db, user.id, {
      type: 'lx_iot',
      identType: 'iccid',
      identCode: null,
      iccid: lxIccid,
      secretHash: hashToken(secret),
    })
  ).id;
  ids.net = (await buildDevice(db, user.id)).id;
  ids.other = (
    await buildDevice(db, otherCustomer.id, { ...sms, identType: 'cell_number', cellNumber: '+491700000001' })
  ).id;
  // The viewer sees the SMS device without QUERY; the demo account holds QUERY but stays read-only.
  await grant(db, ids.sms, viewer.id, ['VIEW_STATUS']);
  await grant(db, ids.sms, demo.id, ['VIEW_STATUS', 'QUERY']);
});
afterAll(async () => {
  await broker?.close();
  await t?.close();
  await gateway?.stop();
});

const as = (username: string) => t.signIn(username);

async function smsReport() {
  const text = formatMeasurementSms({
    messageId: String(++counter),
    measuredAt: nextTime(),
    sensors: [{ sequence: 1, value: 4321 }],
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/ingest/sms/lionel',
    headers: { 'x-webhook-token': 'lionel-hook' },
    payload: { messageId: `hook-${counter}`, from: cellNumber, to: '+4930123', text },
  });
  expect(response.json()).toMatchObject({ status: 'processed' });
  return text;
}

describe('POST /v2/queries to an SMS device', () => {
  it('sends the query SMS through the gateway and is processed by the next report', async () => {
    const client = await as('user');
    const response = await client.post('/api/v2/queries', { device_id: ids.sms });
    expect(response.statusCode).toBe(201);
    const query = response.json();
    expect(response.headers.location).toBe(`/api/v2/queries/${query.id}`);
    expect(query).toMatchObject({ deviceId: ids.sms, status: 'sent', processedAt: null, failure: null });
    expect(gateway.requests.at(-1)).toEqual({
      url: '/messages',
      authorization: 'Bearer lionel-api-token',
      body: { to: cellNumber, text: `TP1;Q;${query.id}` },
    });
    const [logged] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.content, `TP1;Q;${query.id}`));
    expect(logged).toMatchObject({
      deviceId: ids.sms,
      type: 'sms',
      direction: 'out',
      mode: 'systemToDevice',
      // At the gateway: its delivery report moves it on.
      status: 'gateway',
      toIdent: cellNumber,
    });

    // Polled before the device answered: still sent.
    expect((await client.get(response.headers.location as string)).json()).toMatchObject({ status: 'sent' });
    await smsReport();
    const processed = (await client.get(response.headers.location as string)).json();
    expect(processed).toMatchObject({ id: query.id, status: 'processed' });
    expect(Date.parse(processed.processedAt)).toBeGreaterThanOrEqual(Date.parse(processed.sentAt));
  });

  it('is not answered by a repetition of an earlier report', async () => {
    const text = await smsReport();
    const client = await as('user');
    const query = (await client.post('/api/v2/queries', { device_id: ids.sms })).json();
    const repeated = await t.app.inject({
      method: 'POST',
      url: '/ingest/sms/lionel',
      headers: { 'x-webhook-token': 'lionel-hook' },
      payload: { messageId: 'again', from: cellNumber, to: '+4930123', text },
    });
    expect(repeated.json()).toMatchObject({ status: 'duplicate' });
    expect((await client.get(`/api/v2/queries/${query.id}`)).json()).toMatchObject({ status: 'sent' });
  });

  it('fails when the gateway answers with an error, and logs why', async () => {
    gateway.status = 503;
    try {
      const client = await as('user');
      const response = await client.post('/api/v2/queries', { device_id: ids.sms });
      expect(response.statusCode).toBe(201);
      const query = response.json();
      // The answer says at once that it failed and why (the web shows it without polling).
      expect(query).toMatchObject({ status: 'failed', failure: 'refused' });
      // A report afterwards does not turn a failed query into a processed one.
      await smsReport();
      expect((await client.get(`/api/v2/queries/${query.id}`)).json()).toMatchObject({
        status: 'failed',
        failure: 'refused',
      });
      const [logged] = await t.database.db
        .select()
        .from(messages)
        .where(eq(messages.content, `TP1;Q;${query.id}`));
      expect(logged).toMatchObject({ status: 'sending_failed', direction: 'out' });
      expect(logged.report).toContain('503');
    } finally {
      gateway.status = 200;
    }
  });

  it('fails when the gateway is not reachable (1NCE by the ICCID)', async () => {
    const client = await as('user');
    const query = (await client.post('/api/v2/queries', { device_id: ids.once })).json();
    expect(query).toMatchObject({ deviceId: ids.once, status: 'failed', failure: 'refused' });
    const [logged] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.content, `TP1;Q;${query.id}`));
    expect(logged).toMatchObject({ status: 'sending_failed', toIdent: onceIccid, toType: 'iccid' });
    expect(logged.report).toContain('not reachable');
  });
});

describe('POST /v2/queries to an LX-IoT device', () => {
  const connectDevice = () =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: lxIccid,
      username: lxIccid,
      password: secret,
      reconnectPeriod: 0,
    });

  it('publishes the query to the command topic; the report the device sends then processes it', async () => {
    const device = await connectDevice();
    try {
      const commands: unknown[] = [];
      const received = new Promise<void>((resolve) =>
        device.on('message', (topic, payload, packet) => {
          commands.push({ topic, qos: packet.qos, body: JSON.parse(payload.toString()) });
          resolve();
        }),
      );
      await device.subscribeAsync(`devices/lx-iot/${lxIccid}/command`, { qos: 1 });
      const client = await as('user');
      const query = (await client.post('/api/v2/queries', { device_id: ids.lx })).json();
      expect(query).toMatchObject({ status: 'sent' });
      await received;
      expect(commands).toEqual([
        {
          topic: `devices/lx-iot/${lxIccid}/command`,
          qos: 1,
          body: { command: 'query', queryId: query.id },
        },
      ]);
      const [logged] = await t.database.db.select().from(messages).where(eq(messages.toIdent, lxIccid));
      expect(logged).toMatchObject({
        type: 'lx_iot',
        direction: 'out',
        mode: 'systemToDevice',
        status: 'sent',
      });

      await device.publishAsync(
        `devices/lx-iot/${lxIccid}/report`,
        JSON.stringify({
          messageId: `lx-${++counter}`,
          measuredAt: nextTime().toISOString(),
          sensors: [{ sequence: 1, value: 2500 }],
        }),
        { qos: 1 },
      );
      // The PUBACK came after the commit: the query is processed already.
      expect((await client.get(`/api/v2/queries/${query.id}`)).json()).toMatchObject({ status: 'processed' });
    } finally {
      await device.endAsync();
    }
  });

  it('fails when no broker runs', async () => {
    t.app.context.deviceChannels.attachMqtt(null);
    try {
      const client = await as('user');
      const query = (await client.post('/api/v2/queries', { device_id: ids.lx })).json();
      expect(query).toMatchObject({ status: 'failed', failure: 'not_configured' });
      expect((await client.get(`/api/v2/queries/${query.id}`)).json()).toMatchObject({
        failure: 'not_configured',
      });
    } finally {
      t.app.context.deviceChannels.attachMqtt(broker);
    }
  });
});

describe('who may query what', () => {
  it('answers 404 for a device of another customer, and for its queries', async () => {
    const client = await as('user');
    expect((await client.post('/api/v2/queries', { device_id: ids.other })).statusCode).toBe(404);
    expect((await client.post('/api/v2/queries', { device_id: 999_999 })).statusCode).toBe(404);
    const query = (await client.post('/api/v2/queries', { device_id: ids.sms })).json();
    const stranger = await as('query-other');
    expect((await stranger.get(`/api/v2/queries/${query.id}`)).statusCode).toBe(404);
    expect((await client.get('/api/v2/queries/2147483647')).statusCode).toBe(404);
  });

  it('answers 403 without the QUERY permission and for a demo account, sending nothing', async () => {
    const before = gateway.requests.length;
    const viewer = await as('query-viewer');
    expect((await viewer.post('/api/v2/queries', { device_id: ids.sms })).statusCode).toBe(403);
    const demo = await as('demo');
    expect((await demo.post('/api/v2/queries', { device_id: ids.sms })).statusCode).toBe(403);
    expect(gateway.requests.length).toBe(before);
  });

  it('lets a viewer without QUERY follow a query of the device it sees', async () => {
    const query = (await (await as('user')).post('/api/v2/queries', { device_id: ids.sms })).json();
    const viewer = await as('query-viewer');
    expect((await viewer.get(`/api/v2/queries/${query.id}`)).json()).toMatchObject({ id: query.id });
  });

  it('answers 400 for a device type without queries, a device without ident, and a bad body', async () => {
    const client = await as('user');
    for (const deviceId of [ids.net, ids.smsWithoutIdent]) {
      const response = await client.post('/api/v2/queries', { device_id: deviceId });
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual([
        { path: 'deviceId', code: 'invalid', args: { reason: 'not_queryable' } },
      ]);
    }
    const missing = await client.post('/api/v2/queries', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toMatchObject([{ path: 'deviceId', code: 'required' }]);
    expect((await client.post('/api/v2/queries', { device_id: 'x' })).statusCode).toBe(400);
  });
});

describe.runIf(process.env.TEST_MQTT_URL)('LX-IoT query through an external broker (TEST_MQTT_URL)', () => {
  it('reaches a subscriber on the broker and is processed by the report that comes back', async () => {
    const url = process.env.TEST_MQTT_URL!;
    const run = `${process.pid}${Date.now() % 1_000_000}`;
    const iccid = `894910${run}`.slice(0, 20);
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const deviceId = (
      await buildDevice(t.database.db, user.id, {
        type: 'lx_iot',
        identType: 'iccid',
        identCode: null,
        iccid,
      })
    ).id;
    const server = await subscribeExternalBroker(t.app.context, {
      url,
      clientId: `tankportal-query-test-${run}`,
      shareGroup: `query-test-${run}`,
    });
    t.app.context.deviceChannels.attachMqtt(server);
    const device = await mqtt.connectAsync(url, { clientId: `${iccid}-${run}`, reconnectPeriod: 0 });
    try {
      // The device answers a query at once, as the simulator's devices do.
      device.on('message', (_topic, payload) => {
        const command = JSON.parse(payload.toString()) as { command: string };
        if (command.command !== 'query') return;
        void device.publishAsync(
          `devices/lx-iot/${iccid}/report`,
          JSON.stringify({
            messageId: `ext-${run}`,
            measuredAt: nextTime().toISOString(),
            sensors: [{ sequence: 1, value: 3300 }],
          }),
          { qos: 1 },
        );
      });
      await device.subscribeAsync(`devices/lx-iot/${iccid}/command`, { qos: 1 });
      const client = await as('user');
      const query = (await client.post('/api/v2/queries', { device_id: deviceId })).json();
      expect(query).toMatchObject({ status: 'sent' });
      await expect
        .poll(async () => (await client.get(`/api/v2/queries/${query.id}`)).json().status, {
          timeout: 10_000,
        })
        .toBe('processed');
    } finally {
      t.app.context.deviceChannels.attachMqtt(broker);
      await device.endAsync();
      await server.client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
    }
  });
});
