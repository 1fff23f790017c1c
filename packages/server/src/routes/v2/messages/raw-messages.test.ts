import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { messages, users } from '../../../db/schema.ts';
import { FakeSmsGateway } from '../../../testing/fake-sms-gateway.ts';

/** A fake Lionel API that records what it gets. */
let gateway: FakeSmsGateway;
/** What went to the MQTT broker. */
const published: { topic: string; payload: string }[] = [];

let t: TestApp;
const ids: Record<string, number> = {};
const cellNumber = '+491704443322';
const thingName = 'raw-thing-1';
const lxIccid = '8949100000000004444';
const clients = new Map<string, TestClient>();

beforeAll(async () => {
  gateway = await FakeSmsGateway.start();
  t = await createTestApp({ SMS_LIONEL_API_URL: gateway.url, SMS_LIONEL_API_TOKEN: 'lionel-api-token' });
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const [demo] = await db.select().from(users).where(eq(users.username, 'demo'));
  const otherAdmin = await buildUser(db, {
    username: 'raw-other-admin',
    role: 'ROLE_ADMIN',
    parent: 'master',
  });
  const none = { identCode: null } as const;
  ids.sms = (
    await buildDevice(db, user.id, { ...none, type: 'sms', identType: 'cell_number', cellNumber })
  ).id;
  ids.iot = (await buildDevice(db, user.id, { ...none, type: 'iot', identType: 'thing_name', thingName })).id;
  ids.lx = (
    await buildDevice(db, user.id, { ...none, type: 'lx_iot', identType: 'iccid', iccid: lxIccid })
  ).id;
  ids.net = (await buildDevice(db, user.id)).id;
  // Another customer's admin sees the SMS device without EDIT; the demo account holds EDIT but
  // stays read-only.
  await grant(db, ids.sms, otherAdmin.id, ['VIEW_STATUS', 'VIEW_MESSAGING']);
  await grant(db, ids.sms, demo.id, ['VIEW_STATUS', 'EDIT']);
});
afterAll(async () => {
  await t?.close();
  await gateway?.stop();
});
beforeEach(() =>
  t.app.context.deviceChannels.attachMqtt({
    publish: async (topic, payload) => {
      published.push({ topic, payload });
    },
  }),
);

async function as(username: string) {
  let client = clients.get(username);
  if (!client) {
    client = await t.signIn(username);
    clients.set(username, client);
  }
  return client;
}

async function messageCount() {
  const [row] = await t.database.db.select({ value: count() }).from(messages);
  return row.value;
}

const send = async (username: string, body: object) => (await as(username)).post('/api/v2/messages', body);

describe('POST /v2/messages raw IoT and LX-IoT telegrams (master)', () => {
  it('publishes the content on the IoT device command topic and logs it', async () => {
    const response = await send('master', { type: 'iot', device_id: ids.iot, content: 'GPS=1' });
    expect(response.statusCode, response.body).toBe(201);
    const message = response.json();
    expect(message).toEqual({
      id: expect.any(Number),
      type: 'iot',
      status: 'sent',
      content: 'GPS=1',
      report: null,
      createdAt: expect.any(String),
    });
    expect(published.at(-1)).toEqual({ topic: `devices/iot/${thingName}/command`, payload: 'GPS=1' });
    const [logged] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
    expect(logged).toMatchObject({
      deviceId: ids.iot,
      type: 'iot',
      direction: 'out',
      mode: 'systemToDevice',
      status: 'sent',
      toIdent: thingName,
      toType: 'thing_name',
    });
  });

  it('publishes JSON to an LX-IoT device and refuses content that is no JSON', async () => {
    const json = '{"command":"reboot"}';
    const response = await send('master', { type: 'lx_iot', device_id: ids.lx, content: json });
    expect(response.statusCode, response.body).toBe(201);
    expect(published.at(-1)).toEqual({ topic: `devices/lx-iot/${lxIccid}/command`, payload: json });

    const before = await messageCount();
    const broken = await send('master', { type: 'lx_iot', device_id: ids.lx, content: '{"command":' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().fieldErrors).toEqual([
      { path: 'content', code: 'invalid', args: { reason: 'json' } },
    ]);
    expect(await messageCount()).toBe(before);
  });

  it('refuses a device of another type', async () => {
    const before = published.length;
    const response = await send('master', { type: 'lx_iot', device_id: ids.iot, content: '{}' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual([
      { path: 'deviceId', code: 'invalid', args: { reason: 'type' } },
    ]);
    expect(published.length).toBe(before);
  });

  it('logs sending_failed when no broker runs', async () => {
    t.app.context.deviceChannels.attachMqtt(null);
    const response = await send('master', { type: 'iot', device_id: ids.iot, content: 'X' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: 'sending_failed', report: 'no MQTT broker is running' });
  });

  it('is the master only; a missing device is 404', async () => {
    const before = await messageCount();
    for (const username of ['admin', 'user', 'demo']) {
      const response = await send(username, { type: 'iot', device_id: ids.iot, content: 'X' });
      expect(response.statusCode, username).toBe(403);
    }
    expect((await send('master', { type: 'iot', device_id: 999_999, content: 'X' })).statusCode).toBe(404);
    expect(await messageCount()).toBe(before);
    expect(published).not.toContainEqual(expect.objectContaining({ payload: 'X' }));
  });
});

describe('POST /v2/messages SMS (admin with EDIT)', () => {
  it('sends the SMS through the device gateway and logs it', async () => {
    const content = 'Bitte melden';
    const response = await send('admin', { type: 'sms', device_id: ids.sms, content });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ type: 'sms', status: 'gateway', content });
    expect(gateway.requests.at(-1)?.body).toEqual({ to: cellNumber, text: content });
    const [logged] = await t.database.db.select().from(messages).where(eq(messages.id, response.json().id));
    expect(logged).toMatchObject({
      type: 'sms',
      direction: 'out',
      mode: 'systemToDevice',
      toIdent: cellNumber,
    });
    expect(logged.gatewayId).toEqual(expect.any(Number));
  });

  it('answers why an SMS was not sent when the gateway API is not configured, and logs it so', async () => {
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    // An ICCID goes through 1NCE, whose API this server has no settings for.
    const unreachable = await buildDevice(t.database.db, user.id, {
      identCode: null,
      type: 'sms',
      identType: 'iccid',
      iccid: '8949100000000005555',
    });
    const before = gateway.requests.length;
    const response = await send('admin', { type: 'sms', device_id: unreachable.id, content: 'Hallo' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      status: 'sending_failed',
      report: 'the 1nce gateway API is not configured',
    });
    expect(gateway.requests.length).toBe(before);
    const [logged] = await t.database.db.select().from(messages).where(eq(messages.id, response.json().id));
    expect(logged).toMatchObject({ status: 'sending_failed', sentAt: null });
  });

  it('allows 1 to 160 characters', async () => {
    expect(
      (await send('admin', { type: 'sms', device_id: ids.sms, content: 'x'.repeat(160) })).statusCode,
    ).toBe(201);
    const before = await messageCount();
    const long = await send('admin', { type: 'sms', device_id: ids.sms, content: 'x'.repeat(161) });
    expect(long.json().fieldErrors).toEqual([{ path: 'content', code: 'max_length', args: { max: 160 } }]);
    const empty = await send('admin', { type: 'sms', device_id: ids.sms, content: ' ' });
    expect(empty.json().fieldErrors).toEqual([{ path: 'content', code: 'required', args: {} }]);
    const noType = await send('admin', { device_id: ids.sms, content: 'x' });
    expect(noType.json().fieldErrors).toEqual([{ path: 'type', code: 'required', args: {} }]);
    expect(await messageCount()).toBe(before);
  });

  it('refuses below admin, without EDIT, another type, and invisible devices', async () => {
    const before = { messages: await messageCount(), sms: gateway.requests.length };
    for (const username of ['user', 'demo'])
      expect(
        (await send(username, { type: 'sms', device_id: ids.sms, content: 'x' })).statusCode,
        username,
      ).toBe(403);
    expect(
      (await send('raw-other-admin', { type: 'sms', device_id: ids.sms, content: 'x' })).statusCode,
    ).toBe(403);
    expect(
      (await send('raw-other-admin', { type: 'sms', device_id: ids.net, content: 'x' })).statusCode,
    ).toBe(404);
    expect((await send('admin', { type: 'sms', device_id: ids.net, content: 'x' })).statusCode).toBe(400);
    expect({ messages: await messageCount(), sms: gateway.requests.length }).toEqual(before);
  });

  it('refuses an SMS device without a number, sending and logging nothing', async () => {
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const silent = await buildDevice(t.database.db, user.id, {
      identCode: null,
      type: 'sms',
      identType: 'cell_number',
      cellNumber: null,
    });
    const before = { messages: await messageCount(), sms: gateway.requests.length };
    const response = await send('admin', { type: 'sms', device_id: silent.id, content: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual([
      { path: 'deviceId', code: 'invalid', args: { reason: 'no_ident' } },
    ]);
    expect({ messages: await messageCount(), sms: gateway.requests.length }).toEqual(before);
  });
});
