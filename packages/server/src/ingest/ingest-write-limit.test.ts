import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { measurements, messages, sensors, unassignedDevices, users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';
import mqtt from 'mqtt';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-embedded.ts';
import { IngestWriteLimit } from './ingest-write-limit.ts';

// What unauthenticated senders can make the server write.
let t: TestApp;
let deviceId: number;
const identCode = 'NET-LIMIT-1';
const secret = 'device-secret-limit';
const PER_IP = 5;
const PER_SENDER = 3;

beforeAll(async () => {
  t = await createTestApp({
    INGEST_REJECTS_PER_MINUTE_PER_IP: String(PER_IP),
    INGEST_REJECTS_PER_MINUTE_PER_SENDER: String(PER_SENDER),
    TRUST_PROXY: '1',
    SMS_LIONEL_WEBHOOK_TOKEN: 'lionel-token',
  });
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(t.database.db, user.id, { identCode, secretHash: hashToken(secret) })).id;
});
afterAll(() => t.close());

/** A POST to the net ingest from a client address (behind the proxy, TRUST_PROXY=1). */
const post = (body: unknown, address: string) =>
  t.app.inject({
    method: 'POST',
    url: '/ingest/net/v1',
    payload: body as object,
    headers: { 'x-forwarded-for': address },
  });
const report = (messageId: string, value: number, minute = 0) => ({
  identCode,
  secret,
  messageId,
  measuredAt: new Date(Date.UTC(2026, 3, 1, 6, minute)).toISOString(),
  sensors: [{ sequence: 1, value }],
});
const unassignedNet = () =>
  t.database.db.select().from(unassignedDevices).where(eq(unassignedDevices.kind, 'net'));
const parsingFailed = () =>
  t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'));

describe('net HTTP ingest: writes of unknown senders and malformed bodies', () => {
  it('records unknown ident codes of one address up to its limit, then answers 429 and writes nothing', async () => {
    const before = (await unassignedNet()).length;
    for (let n = 1; n <= PER_IP; n++) {
      const response = await post({ ...report('u-1', 1), identCode: `NET-SPRAY-${n}` }, '203.0.113.7');
      expect(response.statusCode).toBe(404);
    }
    const refused = await post({ ...report('u-1', 1), identCode: 'NET-SPRAY-X' }, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    const listed = await unassignedNet();
    expect(listed).toHaveLength(before + PER_IP);
    expect(listed.map((row) => row.ident)).not.toContain('NET-SPRAY-X');

    // Another address has its own count.
    expect((await post({ ...report('u-1', 1), identCode: 'NET-OTHER' }, '198.51.100.4')).statusCode).toBe(
      404,
    );
  });

  it('keeps taking valid reports of known devices from an address over its limit', async () => {
    expect((await post({ identCode: 'NET-SPRAY-Y' }, '203.0.113.7')).statusCode).toBe(429);
    // A fleet behind one NAT address: 40 reports, all stored.
    for (let n = 0; n < 40; n++) {
      const response = await post(report(`nat-${n}`, 1000 + n, n), '203.0.113.7');
      expect(response.statusCode).toBe(200);
    }
    const stored = await t.database.db
      .select()
      .from(measurements)
      .innerJoin(sensors, eq(sensors.id, measurements.sensorId))
      .where(eq(sensors.deviceId, deviceId));
    expect(stored).toHaveLength(40);
  });

  it('logs bodies without a sender up to the address limit, then answers 429 and logs nothing', async () => {
    const before = (await parsingFailed()).length;
    for (let n = 0; n < PER_IP; n++)
      expect((await post({ identCode: '', junk: n }, '192.0.2.55')).statusCode).toBe(400);
    const refused = await post({ identCode: '', junk: 'more' }, '192.0.2.55');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(await parsingFailed()).toHaveLength(before + PER_IP);
  });

  it('keeps one unassigned entry per ident code, updated by each report, and limits it per ident', async () => {
    const ident = 'NET-REPEATING';
    const times: number[] = [];
    for (let n = 0; n < PER_SENDER; n++) {
      // From changing addresses: the ident's own limit still holds.
      expect((await post({ ...report('r-1', 1), identCode: ident }, `192.0.2.${100 + n}`)).statusCode).toBe(
        404,
      );
      const rows = await t.database.db
        .select()
        .from(unassignedDevices)
        .where(eq(unassignedDevices.ident, ident));
      expect(rows).toHaveLength(1);
      expect(rows[0].host).toBe(`192.0.2.${100 + n}`);
      times.push(rows[0].lastReportedAt.getTime());
    }
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect((await post({ ...report('r-1', 1), identCode: ident }, '192.0.2.200')).statusCode).toBe(429);
    const [row] = await t.database.db
      .select()
      .from(unassignedDevices)
      .where(eq(unassignedDevices.ident, ident));
    expect(row.host).toBe(`192.0.2.${100 + PER_SENDER - 1}`);
  });

  it('limits the parsing_failed messages of a known device by its ident, not by its address', async () => {
    const before = (await parsingFailed()).length;
    for (let n = 0; n < PER_SENDER; n++)
      expect((await post({ ...report(`bad-${n}`, 1), measuredAt: 'soon' }, `10.9.0.${n}`)).statusCode).toBe(
        400,
      );
    expect((await post({ ...report('bad-x', 1), measuredAt: 'soon' }, '10.9.0.99')).statusCode).toBe(429);
    expect(await parsingFailed()).toHaveLength(before + PER_SENDER);
    // Its valid reports still go through.
    expect((await post(report('good-after-bad', 5), '10.9.0.99')).statusCode).toBe(200);
  });

  it('stores a short excerpt of a huge malformed body and its first reasons', async () => {
    const hugeBatch = {
      identCode: 'NET-EXCERPT',
      secret: 'x',
      reports: Array.from({ length: 100 }, (_, n) => ({
        messageId: `m-${n}`,
        measuredAt: 'never',
        sensors: 'x'.repeat(1000),
      })),
    };
    // A device must exist for the batch to be parsed: this one gives its secret.
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    await buildDevice(t.database.db, user.id, { identCode: 'NET-EXCERPT', secretHash: hashToken('x') });
    const response = await post(hugeBatch, '10.8.0.1');
    expect(response.statusCode).toBe(400);
    const [logged] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.status, 'parsing_failed'), eq(messages.fromIdent, 'NET-EXCERPT')));
    expect(JSON.stringify(hugeBatch).length).toBeGreaterThan(100_000);
    expect(logged.content.length).toBeLessThan(2_200);
    expect(logged.content).toMatch(/^\{"identCode":"NET-EXCERPT","reports":\[/);
    expect(logged.content).toMatch(/truncated, \d+ characters\)$/);
    const reasons = logged.report!.split('; ');
    expect(reasons).toHaveLength(21);
    expect(reasons.at(-1)).toBe(`… and ${response.json().fieldErrors.length - 20} more`);
  });
});

describe('SMS webhooks: unknown senders and unreadable SMS', () => {
  const lionel = (text: string, from: string) =>
    t.app.inject({
      method: 'POST',
      url: '/ingest/sms/lionel',
      headers: { 'x-webhook-token': 'lionel-token' },
      payload: { messageId: `g-${Math.random()}`, from, to: '+4930123', text },
    });
  const unknownOf = (ident: string) =>
    t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.status, 'unknown'), eq(messages.fromIdent, ident)));

  it('keeps one message per unknown number, showing its latest SMS, updated up to the sender limit', async () => {
    for (let n = 1; n <= PER_SENDER + 2; n++) {
      const response = await lionel(`Hallo ${n}`, '+4915550001');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'unknown_sender' });
    }
    const rows = await unknownOf('+4915550001');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'sms', fromType: 'cell_number', content: `Hallo ${PER_SENDER}` });
    // Another unknown number has its own message.
    await lionel('Servus', '+4915550002');
    expect(await unknownOf('+4915550002')).toHaveLength(1);
  });

  it('logs an unreadable SMS with a NUL byte as parsing_failed (422), up to the sender limit', async () => {
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    await buildDevice(t.database.db, user.id, {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber: '+4915550009',
    });
    for (let n = 0; n < PER_SENDER + 1; n++) {
      const response = await lionel(`TP1;${n};kaputt\u0000;S1=1`, '+4915550009');
      expect(response.statusCode).toBe(422);
    }
    const failed = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.status, 'parsing_failed'), eq(messages.fromIdent, '+4915550009')));
    expect(failed).toHaveLength(PER_SENDER);
    expect(failed[0].content).toBe('TP1;0;kaputt\uFFFD;S1=1');
  });
});

describe('embedded MQTT broker: unknown clients', () => {
  let broker: EmbeddedBroker;
  beforeAll(async () => {
    broker = await startEmbeddedBroker(t.app.context, 0, '127.0.0.1');
  });
  afterAll(() => broker.close());
  const connect = (clientId: string) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId,
      username: clientId,
      password: 'x',
      reconnectPeriod: 0,
    });

  it('lets so many unknown client ids per minute connect from one address, then refuses', async () => {
    const clients = [];
    for (let n = 0; n < PER_IP; n++) clients.push(await connect(`thing-new-${n}`));
    await expect(connect('thing-new-x')).rejects.toThrow(/unavailable/i);
    for (const client of clients) await client.endAsync();
  });

  it('acknowledges the reports of an unknown thing but updates its one entry only up to the limit', async () => {
    // The address used up its unknown connects above; a fresh limit for this database's ingest.
    t.app.context.ingestWriteLimit = new IngestWriteLimit({
      ingestRejectsPerMinutePerIp: PER_IP,
      ingestRejectsPerMinutePerSender: PER_SENDER,
    });
    const client = await connect('thing-spam');
    const entry = async () =>
      (
        await t.database.db.select().from(unassignedDevices).where(eq(unassignedDevices.ident, 'thing-spam'))
      )[0];
    const times: number[] = [];
    for (let n = 0; n < PER_SENDER + 2; n++) {
      await client.publishAsync('devices/iot/thing-spam/report', `{"messageId":"${n}"}`, { qos: 1 });
      times.push((await entry()).lastReportedAt.getTime());
    }
    expect(new Set(times.slice(0, PER_SENDER)).size).toBe(PER_SENDER);
    expect(times.slice(PER_SENDER)).toEqual([times[PER_SENDER - 1], times[PER_SENDER - 1]]);
    const rows = await t.database.db
      .select()
      .from(unassignedDevices)
      .where(eq(unassignedDevices.ident, 'thing-spam'));
    expect(rows).toHaveLength(1);
    await client.endAsync();
  });
});
