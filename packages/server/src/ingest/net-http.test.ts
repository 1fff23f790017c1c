import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { alarms, devices, measurements, messages, sensors, unassignedDevices, users } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';

let t: TestApp;
let deviceId: number;
const identCode = 'NET-4711';
const secret = 'device-secret-4711';

beforeAll(async () => {
  t = await createTestApp();
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(t.database.db, user.id, { identCode, secretHash: hashToken(secret) })).id;
  await t.database.db
    .update(sensors)
    .set({ temperatureLimitType: 'below', temperatureLimitValue: 0 })
    .where(eq(sensors.deviceId, deviceId));
});
afterAll(() => t.close());

const post = (body: unknown) =>
  t.app.inject({ method: 'POST', url: '/ingest/net/v1', payload: body as object });
const report = (messageId: string, measuredAt: string, value: number, extra: object = {}) => ({
  identCode,
  secret,
  messageId,
  measuredAt,
  sensors: [{ sequence: 1, value, temperature: 8 }],
  ...extra,
});

describe('net HTTP ingest', () => {
  it('stores a report and derives level, status and messages', async () => {
    const response = await post(report('m-1', '2026-01-10T06:00:00Z', 8000, { simCredit: 4.2, battery: 90 }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'processed', stored: 1 });
    const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
    expect(sensor).toMatchObject({ value: 8000, pct: 80, status: 'ok', temperatureValue: 8 });
    expect(sensor.netPct).toBeCloseTo(84.21, 2);
    expect(sensor.netFreeSpace).toBe(1500);
    const [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device).toMatchObject({
      status: 'ok',
      simCreditQty: 4.2,
      batteryCharge: 90,
      thresholdStatus: 'ok',
    });
    expect(device.lastReportedAt?.toISOString()).toBe('2026-01-10T06:00:00.000Z');
    const logged = await t.database.db.select().from(messages).where(eq(messages.deviceId, deviceId));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      type: 'net',
      direction: 'in',
      mode: 'deviceToSystem',
      status: 'processed',
      fromIdent: identCode,
    });
    expect(logged[0].content).not.toContain(secret);
  });

  it('stores a repeated message once', async () => {
    const again = await post(report('m-1', '2026-01-10T06:00:00Z', 8000));
    expect(again.json()).toEqual({ status: 'duplicate', stored: 0 });
    const rows = await t.database.db
      .select()
      .from(measurements)
      .innerJoin(sensors, eq(sensors.id, measurements.sensorId))
      .where(eq(sensors.deviceId, deviceId));
    expect(rows).toHaveLength(1);
  });

  it('opens and closes alarms, crosses the threshold and books consumption, also out of order', async () => {
    await post(
      report('m-3', '2026-01-20T06:00:00Z', 1500, {
        alarms: ['e001'],
        sensors: [{ sequence: 1, value: 1500, temperature: -3 }],
      }),
    );
    let [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device).toMatchObject({ status: 'alarm', thresholdStatus: 'below' });
    const open = await t.database.db.select().from(alarms).where(eq(alarms.deviceId, deviceId));
    expect(open.map((alarm) => alarm.type).sort()).toEqual(['e001', 'temperature']);
    // An older report arrives late: consumption counts it, the current state stays.
    await post(report('m-2', '2026-01-15T06:00:00Z', 5000));
    const [sensor] = await t.database.db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
    expect(sensor.value).toBe(1500);
    await post(report('m-4', '2026-02-02T06:00:00Z', 9000)); // refill
    await post(report('m-5', '2026-02-05T06:00:00Z', 8600));
    [device] = await t.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device).toMatchObject({ status: 'ok', thresholdStatus: 'ok' });
    const stillOpen = await t.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, deviceId)));
    expect(stillOpen.every((alarm) => alarm.closedAt !== null)).toBe(true);

    const client = new TestClient(t.app);
    await client.login('user');
    const consumption = (await client.get(`/api/v2/devices/${deviceId}/consumption`)).json();
    expect(consumption).toEqual([
      { year: 2026, month: 2, data: [{ sensorId: sensor.id, consumption: 400 }] },
      { year: 2026, month: 1, data: [{ sensorId: sensor.id, consumption: 6500 }] },
    ]);
    const process = await client.get(`/api/v2/devices/${deviceId}/process?limit=25000`);
    expect(process.headers['x-process-start']).toBe('2026-01-10T06:00:00.000Z');
    expect(process.json()[0].data.map((point: { value: number }) => point.value)).toEqual([
      8000, 5000, 1500, 9000, 8600,
    ]);
    const lastTwo = (await client.get(`/api/v2/devices/${deviceId}/process?limit=2`)).json();
    expect(lastTwo[0].data.map((point: { value: number }) => point.value)).toEqual([9000, 8600]);
  });

  it('answers a malformed report with 400 and field errors, logs parsing_failed, stores nothing else', async () => {
    const before = await t.database.db.select().from(measurements);
    const response = await post({
      identCode,
      secret,
      messageId: 'm-x',
      measuredAt: 'yesterday',
      sensors: [{ sequence: 9, value: 'full' }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['measuredAt', 'sensors.0.sequence', 'sensors.0.value']),
    );
    const failed = await t.database.db.select().from(messages).where(eq(messages.status, 'parsing_failed'));
    expect(failed).toHaveLength(1);
    expect(failed[0].report).toContain('measuredAt');
    expect(await t.database.db.select().from(measurements)).toHaveLength(before.length);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ingest/net/v1',
          payload: 'not json',
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('refuses a wrong secret and records unknown ident codes as unassigned', async () => {
    expect((await post({ ...report('m-9', '2026-03-01T00:00:00Z', 1), secret: 'guess' })).statusCode).toBe(
      401,
    );
    const unknown = await post({ ...report('m-1', '2026-03-01T00:00:00Z', 1), identCode: 'NET-UNKNOWN-1' });
    expect(unknown.statusCode).toBe(404);
    const [row] = await t.database.db
      .select()
      .from(unassignedDevices)
      .where(eq(unassignedDevices.ident, 'NET-UNKNOWN-1'));
    expect(row).toMatchObject({ kind: 'net' });
    const master = new TestClient(t.app);
    await master.login('master');
    const listed = (await master.get('/api/v2/devices/unassigned/net')).json();
    expect(listed.map((device: { ident: string }) => device.ident)).toContain('NET-UNKNOWN-1');
    const user = new TestClient(t.app);
    await user.login('user');
    expect((await user.get('/api/v2/devices/unassigned/net')).statusCode).toBe(403);
  });

  it('keeps process and consumption of a device from other customers and from users without the permission', async () => {
    const outsider = new TestClient(t.app);
    await outsider.login('demo');
    expect((await outsider.get(`/api/v2/devices/${deviceId}/process`)).statusCode).toBe(404);
    expect((await outsider.get(`/api/v2/devices/${deviceId}/consumption`)).statusCode).toBe(404);
  });
});
