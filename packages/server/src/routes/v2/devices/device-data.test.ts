import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice } from '../../../testing/factories.ts';
import { measurements, sensors, users } from '../../../db/schema.ts';

let t: TestApp;
let deviceId: number;
let sensorId: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  deviceId = (await buildDevice(db, user.id)).id;
  [{ id: sensorId }] = await db.select().from(sensors).where(eq(sensors.deviceId, deviceId));
  await db.insert(measurements).values([
    {
      sensorId,
      measuredAt: new Date('2026-01-10T06:00:00.000Z'),
      value: 5000,
      percent: 50,
      temperature: 4.5,
    },
    // Hidden: in no curve, and not the start of the process either.
    { sensorId, measuredAt: new Date('2026-01-09T06:00:00.000Z'), value: 9999, percent: 99, hidden: true },
    { sensorId, measuredAt: new Date('2026-01-11T06:30:15.123Z'), value: 4900.5, percent: 49 },
    { sensorId, measuredAt: new Date('2026-01-12T06:00:00.007Z'), value: null, percent: null },
  ]);
});
afterAll(() => t.close());

describe('GET /v2/devices/{id}/process', () => {
  it('answers the newest rows per sensor in time order, with ISO times and point ids', async () => {
    const client = new TestClient(t.app);
    await client.login('user');
    const response = await client.get(`/api/v2/devices/${deviceId}/process?limit=2`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-process-start']).toBe('2026-01-10T06:00:00.000Z');
    const [series] = response.json();
    expect(series).toMatchObject({ sensorId, sequence: 1, name: 'Heizöl', type: 'probe', unit: 'l' });
    expect(series.data).toEqual([
      {
        id: `${sensorId}-${Date.parse('2026-01-11T06:30:15.123Z')}`,
        timestamp: '2026-01-11T06:30:15.123Z',
        value: 4900.5,
        percent: 49,
        temperature: null,
      },
      {
        id: `${sensorId}-${Date.parse('2026-01-12T06:00:00.007Z')}`,
        timestamp: '2026-01-12T06:00:00.007Z',
        value: null,
        percent: null,
        temperature: null,
      },
    ]);
    const all = (await client.get(`/api/v2/devices/${deviceId}/process`)).json();
    expect(all[0].data.map((point: { value: number | null }) => point.value)).toEqual([5000, 4900.5, null]);
  });
});
