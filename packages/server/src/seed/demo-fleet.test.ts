import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  configurationContextOf,
  configurationFromDevice,
  deviceConfigurationBody,
} from '@tankportal/shared/schemas/device-configuration';
import { devices, sensors } from '../db/schema.ts';
import { createTestApp, TestClient, type TestApp } from '../testing/test-app.ts';
import { ensureDemoFleet } from './demo-fleet.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await ensureDemoFleet(t.database.db, new Date('2026-11-22T00:00:00Z'));
}, 120_000);
afterAll(() => t.close());

describe('demo fleet', () => {
  it('has about 60 devices of every type, some located, some in alarm, one inactive', async () => {
    const { rows } = await t.database.db.execute<{
      type: string;
      n: number;
      located: number;
      alarm: number;
      inactive: number;
    }>(sql`
      SELECT type, count(*)::int AS n, count(location_lat)::int AS located,
             count(*) FILTER (WHERE status = 'alarm')::int AS alarm, count(*) FILTER (WHERE NOT active)::int AS inactive
      FROM devices GROUP BY type ORDER BY type`);
    expect(rows.map((row) => row.type)).toEqual(['iot', 'lx_iot', 'net', 'sms']);
    expect(rows.reduce((sum, row) => sum + row.n, 0)).toBe(60);
    expect(rows.reduce((sum, row) => sum + row.located, 0)).toBeGreaterThan(30);
    expect(rows.reduce((sum, row) => sum + row.alarm, 0)).toBeGreaterThan(0);
    expect(rows.reduce((sum, row) => sum + row.inactive, 0)).toBe(1);
    expect(await ensureDemoFleet(t.database.db)).toBe(0);
  });

  it('gives every device two years of curves and consumption a user can read', async () => {
    const client = new TestClient(t.app);
    await client.login('user');
    const list = await client.get('/api/v2/devices?per_page=100');
    expect(Number(list.headers['x-total-count'])).toBeGreaterThan(5);
    const device = list.json()[0];
    expect(device.sensors[0].pct).toBeGreaterThan(0);
    const process = await client.get(`/api/v2/devices/${device.id}/process?limit=25000`);
    expect(new Date(process.headers['x-process-start'] as string).getTime()).toBeLessThan(
      new Date('2025-01-01').getTime(),
    );
    expect(process.json()[0].data.length).toBeGreaterThan(700);
    const consumption = (await client.get(`/api/v2/devices/${device.id}/consumption`)).json();
    expect(consumption.length).toBeGreaterThanOrEqual(24);
    // Heating oil: January uses more than July.
    const month = (year: number, m: number) =>
      consumption.find((row: { year: number; month: number }) => row.year === year && row.month === m)
        ?.data[0].consumption ?? 0;
    if (device.sensors[0].contentType === 'heating_oil_el')
      expect(month(2026, 1)).toBeGreaterThan(month(2026, 7));
  });
});

describe('demo fleet public status pages', () => {
  it('switches the page on for a few devices, each with its own unguessable token', async () => {
    const { rows } = await t.database.db.execute<{ id: number; token: string }>(sql`
      SELECT id, public_url_token AS token FROM devices WHERE public_url_access_enabled ORDER BY id`);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rows.map((row) => row.token)).size).toBe(rows.length);
    // At least 128 random bits, base64url: 22 characters or more.
    for (const row of rows) expect(row.token).toMatch(/^[\w-]{22,}$/);
    const page = await t.app.inject({ method: 'GET', url: `/api/v2/public/devices/${rows[0].token}` });
    expect(page.statusCode).toBe(200);
    expect(page.json().sensors.length).toBeGreaterThan(0);
  });
});

describe('demo notifications', () => {
  it('lets each demo customer find itself as mail recipient of its devices', async () => {
    const client = new TestClient(t.app);
    await client.login('heizung-meier');
    const contacts = await client.request('GET', '/api/v2/contacts');
    expect(contacts.json()).toMatchObject([{ email: 'heizung-meier@example.com', language: 'de' }]);
    const owned = (await client.request('GET', '/api/v2/devices?per_page=100')).json() as { id: number }[];
    expect(owned.length).toBeGreaterThan(0);
    expect(contacts.json()[0].deviceCount).toBe(owned.length);
    const recipients = await client.request('GET', `/api/v2/devices/${owned[0].id}/notification-recipients`);
    expect(recipients.json()).toMatchObject([
      {
        contact: { email: 'heizung-meier@example.com' },
        events: [
          { name: 'alarm', channels: ['mail'], notifyOnceIn: 43_200 },
          { name: 'threshold', channels: ['mail'], notifyOnceIn: 43_200 },
          { name: 'forward', channels: [] },
          { name: 'sim_credit_low', channels: [] },
          { name: 'forecast', channels: [] },
          { name: 'sensor_health', channels: [] },
          { name: 'order', channels: [] },
        ],
      },
    ]);
  });
});

describe('demo fleet configuration', () => {
  const iotAndLx = () =>
    t.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(inArray(devices.type, ['iot', 'lx_iot']));

  it('gives IoT and LX-IoT devices every required value: changing only a threshold saves', async () => {
    const client = await t.signIn('master');
    const ids = (await iotAndLx()).map(({ id }) => id);
    expect(ids.length).toBe(20);
    for (const id of ids) {
      const detail = (await client.get(`/api/v2/devices/${id}`)).json();
      const current = configurationFromDevice(detail);
      // The stored configuration passes the rules the form applies.
      const check = deviceConfigurationBody(configurationContextOf(detail, true)).safeParse(current);
      expect(check.error?.issues ?? [], `device ${id}`).toEqual([]);
      const sensorsChanged = current.sensors!.map((sensor, index) =>
        index === 0 && sensor.subType !== 'counter' ? { ...sensor, threshold: 30 } : sensor,
      );
      const saved = await client.put(`/api/v2/devices/${id}/configuration`, {
        ...current,
        sensors: sensorsChanged,
      });
      expect(saved.statusCode, `device ${id}: ${saved.body}`).toBe(200);
    }
  });

  it('completes an older demo installation on the next start, keeping what was entered', async () => {
    const db = t.database.db;
    const [iot] = await db.select().from(devices).where(eq(devices.type, 'iot')).limit(1);
    await db
      .update(devices)
      .set({ iotConfig: { iotSendTime1: '07:15' } })
      .where(eq(devices.id, iot.id));
    await db.update(sensors).set({ measuringRange: null }).where(eq(sensors.deviceId, iot.id));
    const [lx] = await db.select().from(devices).where(eq(devices.type, 'lx_iot')).limit(1);
    await db
      .update(sensors)
      .set({ geometry: null, contentDensity: 900, fillHeightMm: null })
      .where(and(eq(sensors.deviceId, lx.id), eq(sensors.sequence, 1)));

    expect(await ensureDemoFleet(db)).toBe(0);
    const [after] = await db.select().from(devices).where(eq(devices.id, iot.id));
    expect(after.iotConfig).toMatchObject({ iotSendTime1: '07:15', iotSendInterval: 360 });
    const [probe] = await db.select().from(sensors).where(eq(sensors.deviceId, iot.id));
    expect(probe.measuringRange).toBe(500);
    const [tank] = await db
      .select()
      .from(sensors)
      .where(and(eq(sensors.deviceId, lx.id), eq(sensors.sequence, 1)));
    expect(tank).toMatchObject({ geometry: 2, contentDensity: 900, fillHeightMm: 2000 });
  });
});
