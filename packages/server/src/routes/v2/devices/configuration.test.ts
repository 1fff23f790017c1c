import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { parseConfigurationSms } from '@tankportal/shared/protocols/config-sms';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { devices, messages, sensors, smsGateways, users } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';
import { deadUrl, FakeSmsGateway } from '../../../testing/fake-sms-gateway.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../../ingest/mqtt-embedded.ts';

/** A fake Lionel API that records every SMS it is given. */
let gateway: FakeSmsGateway;

let t: TestApp;
let broker: EmbeddedBroker;
const ids: Record<string, number> = {};
const cellNumber = '+491705550001';
const onceIccid = '89882806660000000901';
const lxIccid = '8949100000000000901';
const thingName = 'iot-config-901';
const netIdent = 'NET-CONFIG-901';
const secret = 'config-secret';
let lionelGatewayId: number;
let onceGatewayId: number;

beforeAll(async () => {
  gateway = await FakeSmsGateway.start();
  t = await createTestApp({
    SMS_LIONEL_API_URL: gateway.url,
    SMS_LIONEL_API_TOKEN: 'lionel-api-token',
    SMS_1NCE_API_URL: await deadUrl(),
    SMS_1NCE_API_TOKEN: '1nce-api-token',
  });
  broker = await startEmbeddedBroker(t.app.context, 0, '127.0.0.1');
  t.app.context.deviceChannels.attachMqtt(broker);

  const db = t.database.db;
  const gateways = await db.select().from(smsGateways).orderBy(asc(smsGateways.id));
  lionelGatewayId = gateways.find((row) => row.provider === 'lionel')!.id;
  onceGatewayId = gateways.find((row) => row.provider === '1nce')!.id;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const [demo] = await db.select().from(users).where(eq(users.username, 'demo'));
  const viewer = await buildUser(db, { username: 'config-viewer', role: 'ROLE_USER', parent: 'master' });
  const other = await buildUser(db, { username: 'config-other', parent: 'master' });
  const sms = { type: 'sms', identCode: null } as const;
  ids.sms = (await buildDevice(db, user.id, { ...sms, identType: 'cell_number', cellNumber })).id;
  ids.once = (await buildDevice(db, user.id, { ...sms, identType: 'iccid', iccid: onceIccid })).id;
  ids.net = (await buildDevice(db, user.id, { identCode: netIdent, secretHash: hashToken(secret) })).id;
  ids.fill = (await buildDevice(db, user.id, { capabilities: ['fill_height'] })).id;
  ids.iot = (
    await buildDevice(db, user.id, {
      type: 'iot',
      identType: 'thing_name',
      identCode: null,
      thingName,
      secretHash: hashToken(secret),
      iotConfig: { iotVersion: 'v1', iotSendTime1: '06:00', iotSendInterval: 360 },
    })
  ).id;
  ids.lx = (
    await buildDevice(db, user.id, {
      type: 'lx_iot',
      identType: 'iccid',
      identCode: null,
      iccid: lxIccid,
      secretHash: hashToken(secret),
    })
  ).id;
  ids.other = (await buildDevice(db, other.id)).id;
  await grant(db, ids.sms, viewer.id, ['VIEW_STATUS', 'VIEW_CONFIGURATION']);
  await grant(db, ids.sms, demo.id, ['VIEW_STATUS', 'VIEW_CONFIGURATION', 'CONFIGURATION']);
});
afterAll(async () => {
  await broker?.close();
  await t?.close();
  await gateway?.stop();
});

const as = (username: string) => t.signIn(username);

/** A level sensor every type accepts, in the snake_case the portal sends. */
const sensor = (extra: Record<string, unknown> = {}) => ({
  name: 'Diesel',
  sub_type: 'tank',
  content_type: 'diesel',
  capacity: 8000,
  unit: 'l',
  is_connected: true,
  fill_limit: 95,
  threshold: 25,
  temperature_limit_type: 'below',
  temperature_limit_value: -99,
  measuring_range: 500,
  geometry: 2,
  content_density: 840,
  fill_height: 250,
  fill_height_mm: 2500,
  ground_clearance: 10,
  ...extra,
});

const common = (extra: Record<string, unknown> = {}) => ({
  sensors: [sensor()],
  threshold_sensor: 'all',
  value_interval: 7,
  time_interval: 2 * 86_400,
  threshold_interval: 6 * 3600,
  filling_recognition_interval: 12,
  hardware_version: 'HW-3',
  timezone: 'Europe/Berlin',
  ...extra,
});

const iotBody = (extra: Record<string, unknown> = {}) =>
  common({
    iot_version: 'v1',
    iot_send_time1: '07:30',
    iot_send_time2: '19:45',
    iot_send_interval: 480,
    iot_gps_interval: 10,
    iot_alarm1_type: 1,
    iot_alarm1_text: 'Leckage1',
    iot_alarm2_type: 0,
    iot_temp_enabled: true,
    iot_temp_min: -20,
    iot_temp_max: 60,
    iot_v230_fail_enabled: true,
    iot_v230_fail_text: 'Netzausfall',
    ...extra,
  });

const put = (client: TestClient, id: number, body: unknown) =>
  client.put(`/api/v2/devices/${id}/configuration`, body);

async function deviceRow(id: number) {
  const [row] = await t.database.db.select().from(devices).where(eq(devices.id, id));
  return row;
}
const sensorRows = (id: number) =>
  t.database.db.select().from(sensors).where(eq(sensors.deviceId, id)).orderBy(asc(sensors.sequence));
const outgoing = (id: number) =>
  t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.deviceId, id), eq(messages.direction, 'out')))
    .orderBy(asc(messages.id));

describe('PUT /v2/devices/{id}/configuration: SMS devices', () => {
  it('saves the configuration and sends it as configuration SMS through the Lionel gateway', async () => {
    const before = gateway.requests.length;
    const client = await as('user');
    const response = await put(
      client,
      ids.sms,
      common({ sms_header: 'Tank;Nord', force_sms: true, outbound_gateway_id: lionelGatewayId }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-sms-sent']).toBe('1');
    expect(response.headers).toMatchObject({
      'x-configuration-delivery': 'sent',
      'x-configuration-delivery-channel': 'sms',
    });
    expect(response.headers['x-configuration-delivery-failure']).toBeUndefined();
    expect(response.json()).toMatchObject({
      id: ids.sms,
      thresholdSensor: 'all',
      valueInterval: 7,
      timeInterval: 172_800,
      thresholdInterval: 21_600,
      fillingRecognitionInterval: 12,
      hardwareVersion: 'HW-3',
      smsHeader: 'Tank;Nord',
      forceSms: true,
      outboundGatewayId: lionelGatewayId,
      iotConfig: { timezone: 'Europe/Berlin' },
      sensors: [{ sequence: 1, name: 'Diesel', type: 'probe', capacity: 8000, fillLimit: 95, threshold: 25 }],
    });

    expect(gateway.requests.slice(before)).toHaveLength(1);
    const [sms] = gateway.requests.slice(before);
    expect(sms).toMatchObject({ url: '/messages', authorization: 'Bearer lionel-api-token' });
    expect(sms.body.to).toBe(cellNumber);
    const read = parseConfigurationSms(sms.body.text);
    expect(read).toMatchObject({
      part: 1,
      total: 1,
      configuration: {
        thresholdSensor: 'all',
        valueInterval: 7,
        timeInterval: 172_800,
        thresholdInterval: 21_600,
        fillingRecognitionInterval: 12,
        timezone: 'Europe/Berlin',
        smsHeader: 'Tank;Nord',
        forceSms: true,
        sensorCount: 1,
        sensors: [{ sequence: 1, subType: 'tank', capacity: 8000, fillLimit: 95, threshold: 25 }],
      },
    });

    const logged = (await outgoing(ids.sms)).at(-1);
    expect(logged).toMatchObject({
      type: 'sms',
      direction: 'out',
      mode: 'systemToDevice',
      status: 'gateway',
      content: sms.body.text,
      toIdent: cellNumber,
      toType: 'cell_number',
      gatewayId: lionelGatewayId,
    });
  });

  it('splits a long configuration into several SMS and counts them in x-sms-sent', async () => {
    const before = gateway.requests.length;
    const client = await as('user');
    const four = [1, 2, 3, 4].map((n) => sensor({ name: `Tank ${n}`, capacity: 9_999_999 }));
    const response = await put(client, ids.sms, common({ sensors: four, sms_header: 'x'.repeat(32) }));
    expect(response.statusCode).toBe(200);
    const texts = gateway.requests.slice(before).map((sms) => sms.body.text);
    expect(texts.length).toBeGreaterThan(1);
    expect(response.headers['x-sms-sent']).toBe(String(texts.length));
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(160);
    expect(texts.flatMap((text) => parseConfigurationSms(text).configuration.sensors ?? [])).toHaveLength(4);
  });

  it('keeps sensors by sequence: updates existing ones, adds new ones, removes those beyond the list', async () => {
    const client = await as('user');
    const [first] = await sensorRows(ids.sms);
    const three = [
      sensor({ name: 'A' }),
      sensor({ name: 'B', sub_type: 'counter', unit: 'kwh' }),
      sensor({ name: 'C' }),
    ];
    expect((await put(client, ids.sms, common({ sensors: three }))).statusCode).toBe(200);
    const rows = await sensorRows(ids.sms);
    expect(rows.map((row) => [row.sequence, row.name, row.type, row.subType])).toEqual([
      [1, 'A', 'probe', 'tank'],
      [2, 'B', 'counter', 'counter'],
      [3, 'C', 'probe', 'tank'],
    ]);
    expect(rows[0].id).toBe(first.id);

    const response = await put(client, ids.sms, common({ sensors: [sensor({ name: 'Only' })] }));
    expect(response.json().sensors).toMatchObject([{ sequence: 1, name: 'Only', id: first.id }]);
    expect(await sensorRows(ids.sms)).toHaveLength(1);
    // The device's changes name the save, sensor by sensor.
    const [saved] = (await client.get(`/api/v2/devices/${ids.sms}/changes`)).json();
    expect(saved).toMatchObject({
      user: { username: 'user' },
      action: 'update_configuration',
      changes: {
        'sensors.1.name': { old: 'A', new: 'Only' },
        'sensors.3.name': { old: 'C', new: null },
      },
    });
  });

  it('saves the configuration when the gateway fails: 200, x-sms-sent 0, the message sending_failed', async () => {
    gateway.status = 503;
    try {
      const client = await as('user');
      const response = await put(client, ids.sms, common({ value_interval: 33 }));
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-sms-sent']).toBe('0');
      // Saved, but the answer says it has not reached the device, and why.
      expect(response.headers).toMatchObject({
        'x-configuration-delivery': 'failed',
        'x-configuration-delivery-channel': 'sms',
        'x-configuration-delivery-failure': 'refused',
      });
      expect((await deviceRow(ids.sms)).valueInterval).toBe(33);
      const logged = (await outgoing(ids.sms)).at(-1)!;
      expect(logged).toMatchObject({ type: 'sms', status: 'sending_failed', sentAt: null });
      expect(logged.report).toContain('503');
    } finally {
      gateway.status = 200;
    }
  });

  it('1NCE: addressed by ICCID; a gateway that is not reachable is logged, the configuration saved', async () => {
    const client = await as('user');
    const response = await put(client, ids.once, common({ iccid: onceIccid, value_interval: 9 }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-sms-sent']).toBe('0');
    expect(response.json()).toMatchObject({ valueInterval: 9 });
    const logged = (await outgoing(ids.once)).at(-1)!;
    expect(logged).toMatchObject({ status: 'sending_failed', toIdent: onceIccid, toType: 'iccid' });
    expect(logged.report).toContain('not reachable');
  });

  it('checks the gateways and the ICCID against the database', async () => {
    const client = await as('user');
    const foreign = await put(client, ids.sms, common({ outbound_gateway_id: onceGatewayId }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fieldErrors).toEqual([
      { path: 'outboundGatewayId', code: 'invalid', args: { reason: 'provider' } },
    ]);
    const unknown = await put(client, ids.sms, common({ inbound_gateway_id: 999_999 }));
    expect(unknown.json().fieldErrors).toEqual([{ path: 'inboundGatewayId', code: 'invalid', args: {} }]);
    const taken = await put(client, ids.once, common({ iccid: lxIccid }));
    expect(taken.statusCode).toBe(400);
    expect(taken.json().fieldErrors).toEqual([
      { path: 'iccid', code: 'conflict', args: { deviceId: ids.lx } },
    ]);
    expect((await deviceRow(ids.once)).iccid).toBe(onceIccid);
  });
});

describe('PUT /v2/devices/{id}/configuration: IoT and LX-IoT over MQTT', () => {
  const connect = (clientId: string) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId,
      username: clientId,
      password: secret,
      reconnectPeriod: 0,
    });

  async function receiveCommand(clientId: string, topic: string, send: () => Promise<unknown>) {
    const device = await connect(clientId);
    try {
      const received = new Promise<{ topic: string; qos: number; body: Record<string, unknown> }>((resolve) =>
        device.on('message', (at, payload, packet) =>
          resolve({ topic: at, qos: packet.qos, body: JSON.parse(payload.toString()) }),
        ),
      );
      await device.subscribeAsync(topic, { qos: 1 });
      await send();
      return await received;
    } finally {
      await device.endAsync();
    }
  }

  it('publishes the configuration command to an IoT device and stores the IoT settings', async () => {
    const client = await as('user');
    let response: Awaited<ReturnType<typeof put>> | undefined;
    const command = await receiveCommand(thingName, `devices/iot/${thingName}/command`, async () => {
      response = await put(client, ids.iot, iotBody());
    });
    expect(response!.statusCode).toBe(200);
    expect(response!.headers['x-sms-sent']).toBe('0');
    expect(response!.json().iotConfig).toMatchObject({
      iotVersion: 'v1',
      iotSendTime1: '07:30',
      iotSendTime2: '19:45',
      iotSendInterval: 480,
      iotAlarm1Text: 'Leckage1',
      timezone: 'Europe/Berlin',
    });
    expect(command.topic).toBe(`devices/iot/${thingName}/command`);
    expect(command.qos).toBe(1);
    expect(command.body).toMatchObject({
      command: 'configuration',
      version: 1,
      configuration: {
        valueInterval: 7,
        timeInterval: 172_800,
        iotSendTime1: '07:30',
        iotSendTime2: '19:45',
        iotSendInterval: 480,
        iotGpsInterval: 10,
        iotTempMin: -20,
        iotV230FailText: 'Netzausfall',
        sensors: [{ sequence: 1, subType: 'tank', measuringRange: 500 }],
      },
    });
    const logged = (await outgoing(ids.iot)).at(-1)!;
    expect(logged).toMatchObject({
      type: 'iot',
      mode: 'systemToDevice',
      status: 'sent',
      toIdent: thingName,
      toType: 'thing_name',
    });
    expect(JSON.parse(logged.content)).toEqual(command.body);
  });

  it('saves an IoT and an LX-IoT configuration with a counter that has none of the level data (decision 019)', async () => {
    const client = await as('user');
    // What the form sends for a water meter: no capacity, limits, range, geometry, density or heights.
    const counter = { name: 'Wasserzähler', sub_type: 'counter', unit: 'cbm', is_connected: true };
    const iot = await put(client, ids.iot, iotBody({ sensors: [sensor(), counter] }));
    expect(iot.statusCode, iot.body).toBe(200);
    expect(iot.headers).toMatchObject({
      'x-configuration-delivery': 'sent',
      'x-configuration-delivery-channel': 'mqtt',
    });
    expect(iot.json().sensors).toMatchObject([
      { sequence: 1, subType: 'tank' },
      { sequence: 2, subType: 'counter', measuringRange: null, capacity: null },
    ]);
    const lx = await put(client, ids.lx, common({ iccid: lxIccid, sensors: [counter] }));
    expect(lx.statusCode, lx.body).toBe(200);
    expect(lx.json().sensors).toMatchObject([{ subType: 'counter', geometry: null, fillHeightMm: null }]);
    // Back to the tank the other tests expect.
    expect((await put(client, ids.iot, iotBody())).statusCode).toBe(200);
    expect((await put(client, ids.lx, common({ iccid: lxIccid }))).statusCode).toBe(200);
  });

  it('publishes to an LX-IoT device; without a broker the message is sending_failed and the change saved', async () => {
    const client = await as('user');
    const command = await receiveCommand(lxIccid, `devices/lx-iot/${lxIccid}/command`, () =>
      put(client, ids.lx, common({ iccid: lxIccid })),
    );
    expect(command.body).toMatchObject({ command: 'configuration', configuration: { valueInterval: 7 } });
    expect((await outgoing(ids.lx)).at(-1)).toMatchObject({
      type: 'lx_iot',
      status: 'sent',
      toIdent: lxIccid,
    });

    t.app.context.deviceChannels.attachMqtt(null);
    try {
      const response = await put(client, ids.lx, common({ iccid: lxIccid, value_interval: 44 }));
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({
        'x-configuration-delivery': 'failed',
        'x-configuration-delivery-channel': 'mqtt',
        'x-configuration-delivery-failure': 'not_configured',
      });
      expect(response.json().valueInterval).toBe(44);
      expect((await outgoing(ids.lx)).at(-1)).toMatchObject({ type: 'lx_iot', status: 'sending_failed' });
    } finally {
      t.app.context.deviceChannels.attachMqtt(broker);
    }
  });
});

describe('PUT /v2/devices/{id}/configuration: a server without an SMS gateway', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp();
  });
  afterAll(() => bare?.close());

  it('saves the configuration and answers that it was not sent: no gateway is configured', async () => {
    const [user] = await bare.database.db.select().from(users).where(eq(users.username, 'user'));
    const device = await buildDevice(bare.database.db, user.id, {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber,
    });
    const client = await bare.signIn('user');
    const response = await client.put(`/api/v2/devices/${device.id}/configuration`, common());
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'x-sms-sent': '0',
      'x-configuration-delivery': 'failed',
      'x-configuration-delivery-channel': 'sms',
      'x-configuration-delivery-failure': 'not_configured',
    });
    const [logged] = await bare.database.db.select().from(messages).where(eq(messages.deviceId, device.id));
    expect(logged).toMatchObject({ status: 'sending_failed' });
  });
});

describe('PUT /v2/devices/{id}/configuration: net devices', () => {
  let counter = 0;
  // A report is sent again with its message id and time (both recognise it).
  const report = (messageId = `cfg-${++counter}`, minute = counter) =>
    t.app.inject({
      method: 'POST',
      url: '/ingest/net/v1',
      payload: {
        identCode: netIdent,
        secret,
        messageId,
        measuredAt: new Date(Date.UTC(2026, 2, 1, 8, minute)).toISOString(),
        sensors: [{ sequence: 1, value: 4000 }],
      },
    });

  it('delivers the configuration with the answer to the next report, once', async () => {
    const client = await as('user');
    const response = await put(client, ids.net, common({ host: 'ingest.example.com', port: 8443 }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-sms-sent']).toBe('0');
    expect(response.headers).toMatchObject({
      'x-configuration-delivery': 'pending',
      'x-configuration-delivery-channel': 'net',
    });
    expect(response.json()).toMatchObject({ host: 'ingest.example.com', port: 8443 });
    expect((await outgoing(ids.net)).at(-1)).toMatchObject({ type: 'net', status: 'created', sentAt: null });

    const first = await report('net-1', 0);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      status: 'processed',
      stored: 1,
      configuration: {
        valueInterval: 7,
        timeInterval: 172_800,
        host: 'ingest.example.com',
        port: 8443,
        sensors: [{ sequence: 1, capacity: 8000 }],
      },
    });
    const logged = (await outgoing(ids.net)).at(-1)!;
    expect(logged).toMatchObject({ type: 'net', direction: 'out', mode: 'systemToDevice', status: 'sent' });
    expect(logged.sentAt).not.toBeNull();

    // Delivered: the next report's answer carries none; a repetition of the report gets it again.
    expect(await (await report()).json()).toEqual({ status: 'processed', stored: 1 });
    expect((await report('net-1', 0)).json()).toMatchObject({
      status: 'duplicate',
      configuration: { host: 'ingest.example.com' },
    });
  });

  it('sends only the newest of two configurations saved before a report', async () => {
    const client = await as('user');
    await put(client, ids.net, common({ value_interval: 1 }));
    await put(client, ids.net, common({ value_interval: 2 }));
    const answer = (await report()).json();
    expect(answer.configuration.valueInterval).toBe(2);
    const statuses = (await outgoing(ids.net)).slice(-2).map((message) => message.status);
    expect(statuses).toEqual(['finalized', 'sent']);
  });
});

describe('PUT /v2/devices/{id}/configuration: validation', () => {
  const cases: [string, string, Record<string, unknown>, { path: string; code: string; args?: object }][] = [
    [
      'sms',
      'smsHeader too long',
      common({ sms_header: 'x'.repeat(33) }),
      { path: 'smsHeader', code: 'max_length' },
    ],
    [
      'sms',
      'capacity above 9999999',
      common({ sensors: [sensor({ capacity: 10_000_000 })] }),
      { path: 'sensors.0.capacity', code: 'max', args: { max: 9_999_999 } },
    ],
    [
      'sms',
      'fill limit not an integer',
      common({ sensors: [sensor({ fill_limit: 95.5 })] }),
      { path: 'sensors.0.fillLimit', code: 'invalid', args: { reason: 'notAnInteger' } },
    ],
    [
      'sms',
      'value interval missing',
      common({ value_interval: null }),
      { path: 'valueInterval', code: 'required' },
    ],
    [
      'sms',
      'time interval of 100 hours',
      common({ time_interval: 360_000 }),
      { path: 'timeInterval', code: 'invalid', args: { reason: 'interval' } },
    ],
    [
      'sms',
      'threshold missing on a connected sensor',
      common({ sensors: [sensor({ threshold: null })] }),
      { path: 'sensors.0.threshold', code: 'required' },
    ],
    [
      'sms',
      'five sensors',
      common({ sensors: [1, 2, 3, 4, 5].map(() => sensor()) }),
      { path: 'sensors', code: 'max_length', args: { max: 4 } },
    ],
    ['once', 'iccid missing', common(), { path: 'iccid', code: 'required' }],
    ['net', 'port 65537', common({ port: 65_537 }), { path: 'port', code: 'max', args: { max: 65_536 } }],
    ['net', 'host too long', common({ host: 'h'.repeat(256) }), { path: 'host', code: 'max_length' }],
    [
      'net',
      'temperature limit below -273',
      common({ sensors: [sensor({ temperature_limit_value: -274 })] }),
      { path: 'sensors.0.temperatureLimitValue', code: 'min', args: { min: -273 } },
    ],
    [
      'net',
      'm3 is no tank unit',
      common({ sensors: [sensor({ unit: 'm3' })] }),
      { path: 'sensors.0.unit', code: 'invalid' },
    ],
    [
      'fill',
      'fill height missing (capability)',
      common({ sensors: [sensor({ fill_height: null })] }),
      { path: 'sensors.0.fillHeight', code: 'required' },
    ],
    [
      'iot',
      'first send time missing',
      iotBody({ iot_send_time1: null }),
      { path: 'iotSendTime1', code: 'required' },
    ],
    [
      'iot',
      'send time off the 5-minute step',
      iotBody({ iot_send_time1: '07:31' }),
      { path: 'iotSendTime1', code: 'invalid', args: { step: 5 } },
    ],
    [
      'iot',
      'alarm text with an umlaut',
      iotBody({ iot_alarm1_text: 'Füllstand' }),
      { path: 'iotAlarm1Text', code: 'invalid', args: { reason: 'alphanumeric' } },
    ],
    [
      'iot',
      'alarm text of 16 characters',
      iotBody({ iot_alarm2_text: 'a'.repeat(16) }),
      { path: 'iotAlarm2Text', code: 'max_length', args: { max: 15 } },
    ],
    ['iot', 'temperature min -101', iotBody({ iot_temp_min: -101 }), { path: 'iotTempMin', code: 'min' }],
    ['iot', 'temperature max 201', iotBody({ iot_temp_max: 201 }), { path: 'iotTempMax', code: 'max' }],
    [
      'iot',
      'send interval 300',
      iotBody({ iot_send_interval: 300 }),
      { path: 'iotSendInterval', code: 'invalid' },
    ],
    [
      'iot',
      'measuring range missing',
      iotBody({ sensors: [sensor({ measuring_range: null })] }),
      { path: 'sensors.0.measuringRange', code: 'required' },
    ],
    [
      'iot',
      'measuring range 2001',
      iotBody({ sensors: [sensor({ measuring_range: 2001 })] }),
      { path: 'sensors.0.measuringRange', code: 'max', args: { max: 2000 } },
    ],
    [
      'lx',
      'fill height mm missing',
      common({ iccid: lxIccid, sensors: [sensor({ fill_height_mm: null })] }),
      { path: 'sensors.0.fillHeightMm', code: 'required' },
    ],
    [
      'lx',
      'geometry 10',
      common({ iccid: lxIccid, sensors: [sensor({ geometry: 10 })] }),
      { path: 'sensors.0.geometry', code: 'max', args: { max: 9 } },
    ],
    [
      'lx',
      'content density above 100000',
      common({ iccid: lxIccid, sensors: [sensor({ content_density: 100_001 })] }),
      { path: 'sensors.0.contentDensity', code: 'max' },
    ],
  ];

  it.each(cases)('%s: %s answers 400 and changes nothing', async (device, _what, body, expected) => {
    const client = await as('user');
    const before = await deviceRow(ids[device]);
    const beforeSensors = await sensorRows(ids[device]);
    const sent = gateway.requests.length;
    const response = await put(client, ids[device], body);
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toContainEqual(expect.objectContaining(expected));
    expect(await deviceRow(ids[device])).toEqual(before);
    expect(await sensorRows(ids[device])).toEqual(beforeSensors);
    expect(gateway.requests.length).toBe(sent);
  });

  it('accepts the bounds themselves', async () => {
    const client = await as('user');
    const edge = sensor({
      capacity: 9_999_999,
      fill_limit: 100,
      threshold: 0,
      temperature_limit_value: -273,
    });
    const response = await put(
      client,
      ids.net,
      common({ sensors: [edge], value_interval: 99, time_interval: 99 * 86_400, port: 65_536 }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ valueInterval: 99, timeInterval: 8_553_600, port: 65_536 });
  });
});

describe('PUT /v2/devices/{id}/configuration: who may', () => {
  async function expectUnchanged(id: number, attempt: () => Promise<{ statusCode: number }>, status: number) {
    const before = await deviceRow(id);
    const beforeSensors = await sensorRows(id);
    const sent = gateway.requests.length;
    const messagesBefore = (await outgoing(id)).length;
    expect((await attempt()).statusCode).toBe(status);
    expect(await deviceRow(id)).toEqual(before);
    expect(await sensorRows(id)).toEqual(beforeSensors);
    expect(gateway.requests.length).toBe(sent);
    expect(await outgoing(id)).toHaveLength(messagesBefore);
  }

  it('answers 404 for a device of another customer and an unknown id', async () => {
    const client = await as('user');
    await expectUnchanged(ids.other, () => put(client, ids.other, common()), 404);
    expect((await put(client, 999_999, common())).statusCode).toBe(404);
  });

  it('answers 403 without CONFIGURATION and for a demo account', async () => {
    const viewer = await as('config-viewer');
    await expectUnchanged(ids.sms, () => put(viewer, ids.sms, common({ value_interval: 50 })), 403);
    const demo = await as('demo');
    await expectUnchanged(ids.sms, () => put(demo, ids.sms, common({ value_interval: 50 })), 403);
  });

  it('answers 403 when a non-master changes a master-only value; the same value passes', async () => {
    const client = await as('user');
    const current = await deviceRow(ids.sms);
    await expectUnchanged(
      ids.sms,
      () => put(client, ids.sms, common({ watchdog_enabled: !current.watchdogEnabled })),
      403,
    );
    await expectUnchanged(ids.iot, () => put(client, ids.iot, iotBody({ thing_name: 'stolen-name' })), 403);
    await expectUnchanged(ids.iot, () => put(client, ids.iot, iotBody({ iot_send_interval: 0 })), 403);
    await expectUnchanged(
      ids.iot,
      () => put(client, ids.iot, iotBody({ iot_ftp_update_enabled: true })),
      403,
    );
    const same = await put(client, ids.sms, common({ watchdog_enabled: current.watchdogEnabled }));
    expect(same.statusCode).toBe(200);
  });

  it('lets a master change master-only fields; a non-master never clears the SIM creditor it cannot see', async () => {
    const master = await as('master');
    const response = await put(
      master,
      ids.sms,
      common({ watchdog_enabled: true, sim_creditor_id: 'customerSim' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ watchdogEnabled: true, simCreditorId: 'customerSim' });
    const user = await as('user');
    // The user's view shows no SIM creditor (null); sending that back leaves it.
    const mine = await put(user, ids.sms, common({ watchdog_enabled: true, sim_creditor_id: null }));
    expect(mine.statusCode).toBe(200);
    expect((await deviceRow(ids.sms)).simCreditorId).toBe('customerSim');
    const renamed = await put(
      master,
      ids.iot,
      iotBody({ thing_name: 'iot-config-902', iot_send_interval: 0 }),
    );
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ thingName: 'iot-config-902', iotConfig: { iotSendInterval: 0 } });
  });
});
