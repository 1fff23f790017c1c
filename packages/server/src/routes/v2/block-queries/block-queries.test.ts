import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { formatMeasurementSms } from '@tankportal/shared/protocols/sms';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { blockQueries, devices, messages, queries, sendPacing, users } from '../../../db/schema.ts';
import { FakeSmsGateway } from '../../../testing/fake-sms-gateway.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../../ingest/mqtt-embedded.ts';
import { hashToken } from '../../../policies/tokens.ts';
import {
  dispatchPendingQueries,
  reserveSlots,
  type DispatchClock,
} from '../../../commands/dispatch-queries.ts';

let gateway: FakeSmsGateway;
let t: TestApp;
let broker: EmbeddedBroker;
const lxIccid = '8949100000000000888';
const ids: Record<string, number> = {};
const cells = ['+491709990001', '+491709990002', '+491709990003'];
let counter = 0;

beforeAll(async () => {
  gateway = await FakeSmsGateway.start();
  t = await createTestApp({
    SMS_LIONEL_API_URL: gateway.url,
    SMS_LIONEL_API_TOKEN: 'lionel-api-token',
    SMS_LIONEL_WEBHOOK_TOKEN: 'lionel-hook',
    QUERY_SMS_PER_SECOND: '1000',
  });
  broker = await startEmbeddedBroker(t.app.context, 0, '127.0.0.1');
  t.app.context.deviceChannels.attachMqtt(broker);
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const [demo] = await db.select().from(users).where(eq(users.username, 'demo'));
  const app = await buildUser(db, { username: 'block-app', role: 'ROLE_APP_USER', parent: 'user' });
  const viewer = await buildUser(db, { username: 'block-viewer', role: 'ROLE_USER', parent: 'master' });
  const sms = { type: 'sms', identType: 'cell_number', identCode: null } as const;
  for (const [index, cellNumber] of cells.entries())
    ids[`sms${index}`] = (await buildDevice(db, user!.id, { ...sms, cellNumber })).id;
  ids.net = (await buildDevice(db, user!.id)).id;
  ids.lx = (
    await buildDevice(db, user!.id, {
      type: 'lx_iot',
      identType: 'iccid',
      identCode: null,
      iccid: lxIccid,
      secretHash: hashToken('lx-secret'),
    })
  ).id;
  ids.noCell = (await buildDevice(db, user!.id, { ...sms })).id;
  const otherCustomer = await buildUser(db, { username: 'block-other', parent: 'master' });
  ids.other = (await buildDevice(db, otherCustomer.id, { ...sms, cellNumber: '+491709990009' })).id;
  await grant(db, ids.sms0!, viewer.id, ['VIEW_STATUS']);
  await grant(db, ids.sms0!, demo!.id, ['VIEW_STATUS', 'QUERY']);
  await grant(db, ids.sms0!, app.id, ['VIEW_STATUS', 'QUERY']);
});
afterAll(async () => {
  await broker?.close();
  await t?.close();
  await gateway?.stop();
});

async function report(cellNumber: string) {
  const text = formatMeasurementSms({
    messageId: String(1000 + ++counter),
    measuredAt: new Date(Date.UTC(2026, 2, 1, 8, counter)),
    sensors: [{ sequence: 1, value: 1234 }],
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/ingest/sms/lionel',
    headers: { 'x-webhook-token': 'lionel-hook' },
    payload: { messageId: `hook-block-${counter}`, from: cellNumber, to: '+4930123', text },
  });
  expect(response.json()).toMatchObject({ status: 'processed' });
}

const blockQueryCount = async () => (await t.database.db.select().from(blockQueries)).length;

describe('POST /v2/block-queries', () => {
  it('queues a query per device, hands them to the gateway paced, and follows each to processed', async () => {
    const client = await t.signIn('user');
    const deviceIds = [ids.sms0, ids.sms1, ids.sms2, ids.sms0];
    const response = await client.post('/api/v2/block-queries', { deviceIds });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(response.headers.location).toBe(`/api/v2/block-queries/${created.id}`);
    // A device named twice is asked once; nothing is sent before the dispatcher runs.
    expect(
      created.queries.map((query: { deviceId: number; status: string }) => [query.deviceId, query.status]),
    ).toEqual([
      [ids.sms0, 'pending'],
      [ids.sms1, 'pending'],
      [ids.sms2, 'pending'],
    ]);
    const before = gateway.requests.length;
    await t.app.context.jobs.runDueJobs();
    const sent = gateway.requests.slice(before).map((request) => (request.body as { to: string }).to);
    expect(sent).toEqual(cells);
    const polled = (await client.get(response.headers.location as string)).json();
    expect(polled.queries.map((query: { status: string }) => query.status)).toEqual(['sent', 'sent', 'sent']);
    // Logged as outgoing messages of each device, on behalf of the user, like a manual query.
    const [logged] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.content, `TP1;Q;${created.queries[1].queryId}`));
    expect(logged).toMatchObject({
      deviceId: ids.sms1,
      direction: 'out',
      status: 'gateway',
      toIdent: cells[1],
    });

    await report(cells[0]!);
    await report(cells[2]!);
    const after = (await client.get(response.headers.location as string)).json();
    expect(after.queries.map((query: { status: string }) => query.status)).toEqual([
      'processed',
      'sent',
      'processed',
    ]);
  });

  it('reaches an LX-IoT device through the broker in the same block query; its report answers it', async () => {
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: lxIccid,
      username: lxIccid,
      password: 'lx-secret',
      reconnectPeriod: 0,
    });
    try {
      // The device answers a query at once, as the simulator's devices do.
      device.on('message', (_topic, payload) => {
        if ((JSON.parse(payload.toString()) as { command: string }).command !== 'query') return;
        void device.publishAsync(
          `devices/lx-iot/${lxIccid}/report`,
          JSON.stringify({
            messageId: `lx-block-${++counter}`,
            measuredAt: new Date().toISOString(),
            sensors: [{ sequence: 1, value: 2200 }],
          }),
          { qos: 1 },
        );
      });
      await device.subscribeAsync(`devices/lx-iot/${lxIccid}/command`, { qos: 1 });
      const client = await t.signIn('user');
      const response = await client.post('/api/v2/block-queries', { deviceIds: [ids.lx, ids.sms2] });
      expect(response.statusCode).toBe(201);
      await t.app.context.jobs.runDueJobs();
      await expect
        .poll(async () => (await client.get(response.headers.location as string)).json().queries, {
          timeout: 10_000,
        })
        .toEqual([
          expect.objectContaining({ deviceId: ids.lx, status: 'processed' }),
          expect.objectContaining({ deviceId: ids.sms2, status: 'sent' }),
        ]);
    } finally {
      await device.endAsync();
    }
  });

  it('fails a query the gateway refuses with the reason, and the others go on', async () => {
    gateway.status = 422;
    try {
      const client = await t.signIn('user');
      const response = await client.post('/api/v2/block-queries', { deviceIds: [ids.sms1] });
      await t.app.context.jobs.runDueJobs();
      const polled = (await client.get(response.headers.location as string)).json();
      expect(polled.queries).toEqual([
        { deviceId: ids.sms1, queryId: expect.any(Number), status: 'failed', failure: 'refused' },
      ]);
    } finally {
      gateway.status = 200;
    }
  });

  it('refuses demo and app accounts, devices without QUERY, other customers and unqueryable devices', async () => {
    const before = await blockQueryCount();
    expect(
      (await (await t.signIn('demo')).post('/api/v2/block-queries', { deviceIds: [ids.sms0] })).statusCode,
    ).toBe(403);
    expect(
      (await (await t.signIn('block-app')).post('/api/v2/block-queries', { deviceIds: [ids.sms0] }))
        .statusCode,
    ).toBe(403);
    const viewer = await t.signIn('block-viewer');
    expect((await viewer.post('/api/v2/block-queries', { deviceIds: [ids.sms0] })).statusCode).toBe(403);
    const user = await t.signIn('user');
    expect((await user.post('/api/v2/block-queries', { deviceIds: [ids.sms0, ids.other] })).statusCode).toBe(
      404,
    );
    expect((await user.post('/api/v2/block-queries', { deviceIds: [ids.sms0, 999_999] })).statusCode).toBe(
      404,
    );
    const unqueryable = await user.post('/api/v2/block-queries', {
      deviceIds: [ids.sms0, ids.net, ids.noCell],
    });
    expect(unqueryable.statusCode).toBe(400);
    expect(unqueryable.json().fieldErrors).toEqual([
      { path: 'deviceIds.1', code: 'invalid', args: { reason: 'not_queryable' } },
      { path: 'deviceIds.2', code: 'invalid', args: { reason: 'not_queryable' } },
    ]);
    for (const body of [
      {},
      { deviceIds: [] },
      { deviceIds: ['1'] },
      { deviceIds: [0] },
      { deviceIds: [2 ** 40] },
      { deviceIds: 'x' },
    ])
      expect((await user.post('/api/v2/block-queries', body)).statusCode).toBe(400);
    expect(
      (await user.post('/api/v2/block-queries', { deviceIds: Array(20_001).fill(ids.sms0) })).statusCode,
    ).toBe(400);
    expect(await blockQueryCount()).toBe(before);
  });

  it('shows a block query only to whoever sent it', async () => {
    const user = await t.signIn('user');
    const created = (await user.post('/api/v2/block-queries', { deviceIds: [ids.sms0] })).json();
    expect((await (await t.signIn('master')).get(`/api/v2/block-queries/${created.id}`)).statusCode).toBe(
      404,
    );
    for (const id of ['999999', '0x1', '01', '-1', '1.0'])
      expect((await user.get(`/api/v2/block-queries/${id}`)).statusCode).toBe(404);
    await t.app.context.jobs.runDueJobs();
  });
});

describe('the block query selection: GET /v2/devices/ids?type&permission&not_reported_since', () => {
  it('answers the SMS and LX-IoT devices the actor may query that have not reported for that long', async () => {
    const db = t.database.db;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await db
      .update(devices)
      .set({ lastReportedAt: hoursAgo(30) })
      .where(eq(devices.id, ids.sms0!));
    await db
      .update(devices)
      .set({ lastReportedAt: hoursAgo(2) })
      .where(eq(devices.id, ids.sms1!));
    await db.update(devices).set({ lastReportedAt: null }).where(eq(devices.id, ids.sms2!));
    const selection = '/api/v2/devices/ids?type=sms,lx_iot&permission=QUERY&sort=id:asc';
    const user = await t.signIn('user');
    const dayAgo = (await user.get(`${selection}&not_reported_since=86400`)).json();
    // Never reported counts as not reported; the net device is no choice at all.
    expect(dayAgo).toEqual(expect.arrayContaining([ids.sms0, ids.sms2]));
    expect(dayAgo).not.toContain(ids.sms1);
    expect(dayAgo).not.toContain(ids.net);
    expect((await user.get(`${selection}&not_reported_since=3600`)).json()).toEqual(
      expect.arrayContaining([ids.sms0, ids.sms1, ids.sms2]),
    );
    // Seen without QUERY: not offered. Another customer's device: never.
    expect(
      (await (await t.signIn('block-viewer')).get(`${selection}&not_reported_since=3600`)).json(),
    ).toEqual([]);
    expect((await user.get(`${selection}&not_reported_since=3600`)).json()).not.toContain(ids.other);
    for (const bad of ['-1', '1e3', 'x', '99999999999'])
      expect((await user.get(`${selection}&not_reported_since=${bad}`)).statusCode).toBe(400);
  });
});

describe('pacing', () => {
  it('reserves consecutive slots per lane, shared by every dispatcher, never in the past', async () => {
    const db = t.database.db;
    await db.delete(sendPacing);
    const now = Date.parse('2027-01-10T10:00:00Z');
    expect(await reserveSlots(db, 'sms:test', 3, 200, now)).toBe(now);
    // A second dispatcher (another process) queues behind the first's three slots.
    expect(await reserveSlots(db, 'sms:test', 2, 200, now)).toBe(now + 600);
    // Another gateway has its own lane.
    expect(await reserveSlots(db, 'sms:other', 1, 200, now)).toBe(now);
    // After a quiet hour, slots start at the new now, not where the lane stopped.
    expect(await reserveSlots(db, 'sms:test', 1, 200, now + 3_600_000)).toBe(now + 3_600_000);
  });

  it('hands 12 queries to one gateway at 5 per second: the last slot 2.2 s after the first', async () => {
    const db = t.database.db;
    await db.delete(sendPacing);
    const [user] = await db.select().from(users).where(eq(users.username, 'user'));
    await db
      .insert(queries)
      .values(
        Array.from({ length: 12 }, (_, index) => ({ deviceId: ids[`sms${index % 3}`]!, userId: user!.id })),
      );
    let now = Date.parse('2027-01-10T10:00:00Z');
    const slots: number[] = [];
    const clock: DispatchClock = {
      now: () => now,
      sleepUntil: async (at) => {
        slots.push(at);
        now = Math.max(now, at);
      },
    };
    const deps = { ...t.app.context, config: { ...t.config, querySmsPerSecond: 5 } };
    expect(await dispatchPendingQueries({ ...deps, mailer: undefined as never }, clock)).toBe('drained');
    expect(slots.map((slot) => slot - slots[0]!)).toEqual(
      Array.from({ length: 12 }, (_, index) => index * 200),
    );
  });
});
