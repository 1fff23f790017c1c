import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice } from '../../../testing/factories.ts';
import { devices, users } from '../../../db/schema.ts';
import { newToken } from '../../../policies/tokens.ts';
import { recordReport } from '../../../commands/record-report.ts';

let t: TestApp;
let deviceId: number;
const token = newToken();

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const device = await buildDevice(db, user.id, {
    name: 'Hofladen Nord',
    street: 'Geheimweg',
    streetNumber: '7',
    postalCode: '34117',
    city: 'Kassel',
    comment: 'Schlüssel beim Nachbarn',
    publicUrlAccessEnabled: true,
    publicUrlToken: token,
  });
  deviceId = device.id;
  await recordReport(db, device.id, {
    measuredAt: new Date('2026-01-05T08:00:00Z'),
    readings: [{ sequence: 1, value: 4_000, temperature: 6.5 }],
    alarmCodes: ['power_failure'],
  });
});
afterAll(() => t.close());

const anonymous = () => new TestClient(t.app);

describe('GET /v2/public/devices/{token}', () => {
  it('shows levels and open alarms to anyone with the link, and nothing else', async () => {
    const response = await anonymous().get(`/api/v2/public/devices/${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(
      ['active', 'address', 'alarms', 'lastReportedAt', 'name', 'sensors', 'status', 'type'].sort(),
    );
    expect(body).toMatchObject({
      name: 'Hofladen Nord',
      type: 'net',
      address: { postalCode: '34117', city: 'Kassel', countryCode: 'DE' },
      status: 'alarm',
      active: true,
      lastReportedAt: '2026-01-05T08:00:00.000Z',
      alarms: [{ type: 'power_failure', severity: 'fatal' }],
    });
    expect(Object.keys(body.address).sort()).toEqual(['city', 'countryCode', 'postalCode']);
    // What tells two alarms apart (sensor, value, confirmation), not the alarm's id.
    expect(Object.keys(body.alarms[0]).sort()).toEqual(
      ['confirmationStatus', 'openedAt', 'scope', 'sequence', 'severity', 'type', 'value'].sort(),
    );
    expect(body.sensors).toHaveLength(1);
    expect(body.sensors[0]).toMatchObject({
      sequence: 1,
      name: 'Heizöl',
      value: 4_000,
      pct: 40,
      unit: 'l',
      temperatureValue: 6.5,
    });
    expect(body.sensors[0]).not.toHaveProperty('id');
    expect(body.sensors[0]).not.toHaveProperty('threshold');
    // Nothing that identifies the owner, the device or its configuration leaks.
    for (const secret of ['Geheimweg', 'Schlüssel', 'user', 'NET-', token])
      expect(response.body).not.toContain(secret);
  });

  it("links the page from the device's detail as /public/{token}", async () => {
    const client = new TestClient(t.app);
    await client.login('user');
    const detail = (await client.get(`/api/v2/devices/${deviceId}`)).json();
    expect(detail.publicUrl).toBe(`/public/${token}`);
  });

  it('answers 404 (never 401) for an unknown token or a switched-off page', async () => {
    expect((await anonymous().get(`/api/v2/public/devices/${newToken()}`)).statusCode).toBe(404);
    expect((await anonymous().get('/api/v2/public/devices/x')).statusCode).toBe(404);
    await t.database.db
      .update(devices)
      .set({ publicUrlAccessEnabled: false })
      .where(eq(devices.id, deviceId));
    const off = await anonymous().get(`/api/v2/public/devices/${token}`);
    expect(off.statusCode).toBe(404);
    const client = new TestClient(t.app);
    await client.login('user');
    expect((await client.get(`/api/v2/devices/${deviceId}`)).json().publicUrl).toBeNull();
    expect((await client.get(`/api/v2/public/devices/${token}`)).statusCode).toBe(404);
  });
});
