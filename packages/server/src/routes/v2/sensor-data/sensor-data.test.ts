import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { measurements, sensors, users } from '../../../db/schema.ts';
import { recordReport } from '../../../commands/record-report.ts';

let t: TestApp;
const ids: Record<string, number> = {};

/** Readings of the tank (10,000 l): an outlier on 5 Feb, March's only reading, April's. */
const READINGS: [string, number][] = [
  ['2025-01-10T12:00:00Z', 1000],
  ['2025-01-20T12:00:00Z', 900],
  ['2025-02-05T12:00:00Z', 300],
  ['2025-02-10T12:00:00Z', 800],
  ['2025-02-20T12:00:00Z', 750],
  ['2025-03-15T12:00:00Z', 700],
  ['2025-04-02T12:00:00Z', 650],
];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const user = await byName('user');
  // Superadmins of their own trees: one granted the process view, one only the status, one nothing.
  const granted = await buildUser(db, { username: 'sa-granted', role: 'ROLE_SUPERADMIN', parent: 'master' });
  const statusOnly = await buildUser(db, {
    username: 'sa-status',
    role: 'ROLE_SUPERADMIN',
    parent: 'master',
  });
  await buildUser(db, { username: 'sa-stranger', role: 'ROLE_SUPERADMIN', parent: 'master' });
  const device = await buildDevice(db, user.id);
  ids.device = device.id;
  await grant(db, device.id, granted.id, ['VIEW_STATUS', 'VIEW_PROCESS', 'VIEW_CONSUMPTION']);
  await grant(db, device.id, statusOnly.id, ['VIEW_STATUS']);
  for (const [at, value] of READINGS)
    await recordReport(db, device.id, { measuredAt: new Date(at), readings: [{ sequence: 1, value }] });
  const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
  ids.sensor = sensor.id;
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const pointId = (at: string) => `${ids.sensor}-${new Date(at).getTime()}`;

async function consumptionByMonth(client: TestClient) {
  const rows = (await client.get(`/api/v2/devices/${ids.device}/consumption`)).json();
  return Object.fromEntries(
    rows.map((row: { year: number; month: number; data: { consumption: number }[] }) => [
      `${row.year}-${row.month}`,
      row.data[0].consumption,
    ]),
  );
}

const hiddenFlags = async () =>
  (await t.database.db.select().from(measurements).where(eq(measurements.sensorId, ids.sensor))).filter(
    (row) => row.hidden,
  ).length;

describe('DELETE /v2/sensor-data/{pointId}', () => {
  it('refuses admins below superadmin, demo accounts and superadmins without VIEW_PROCESS', async () => {
    const id = pointId('2025-02-05T12:00:00Z');
    expect((await (await as('admin')).delete(`/api/v2/sensor-data/${id}`)).statusCode).toBe(403);
    expect((await (await as('user')).delete(`/api/v2/sensor-data/${id}`)).statusCode).toBe(403);
    expect((await (await as('sa-status')).delete(`/api/v2/sensor-data/${id}`)).statusCode).toBe(403);
    expect((await (await as('sa-stranger')).delete(`/api/v2/sensor-data/${id}`)).statusCode).toBe(404);
    expect(await hiddenFlags()).toBe(0);
  });

  it('answers 404 for a malformed id and for an unknown point', async () => {
    const client = await as('master');
    // A path that is no point id names no point (docs/architecture.md, Request path).
    for (const malformed of [
      'not-a-point',
      `0${ids.sensor}-1`,
      '2147483648-1',
      `${ids.sensor}-${'9'.repeat(15)}`,
    ])
      expect((await client.delete(`/api/v2/sensor-data/${malformed}`)).statusCode, malformed).toBe(404);
    expect((await client.delete(`/api/v2/sensor-data/${ids.sensor}-1`)).statusCode).toBe(404);
    expect((await client.delete(`/api/v2/sensor-data/999999-${Date.now()}`)).statusCode).toBe(404);
  });

  it('takes the point out of the process curve and recomputes its months', async () => {
    const client = await as('sa-granted');
    expect(await consumptionByMonth(client)).toEqual({
      '2025-1': 100,
      '2025-2': 650,
      '2025-3': 50,
      '2025-4': 50,
    });
    const process = (await client.get(`/api/v2/devices/${ids.device}/process`)).json();
    const outlier = process[0].data.find((point: { value: number }) => point.value === 300);
    expect(outlier.id).toBe(pointId('2025-02-05T12:00:00Z'));

    const response = await client.delete(`/api/v2/sensor-data/${outlier.id}`);
    expect(response.statusCode).toBe(204);
    const after = (await client.get(`/api/v2/devices/${ids.device}/process`)).json();
    expect(after[0].data.map((point: { value: number }) => point.value)).toEqual([
      1000, 900, 800, 750, 700, 650,
    ]);
    // February: 900 -> 800 -> 750 instead of 900 -> 300 (-> refill) -> 800 -> 750.
    expect(await consumptionByMonth(client)).toEqual({
      '2025-1': 100,
      '2025-2': 150,
      '2025-3': 50,
      '2025-4': 50,
    });
    // Hidden already: there is no such visible point any more.
    expect((await client.delete(`/api/v2/sensor-data/${outlier.id}`)).statusCode).toBe(404);
  });

  it("removes a month whose only reading is hidden and books the step to the next reading's month", async () => {
    const client = await as('master');
    expect((await client.delete(`/api/v2/sensor-data/${pointId('2025-03-15T12:00:00Z')}`)).statusCode).toBe(
      204,
    );
    expect(await consumptionByMonth(client)).toEqual({ '2025-1': 100, '2025-2': 150, '2025-4': 100 });
  });

  it('falls back to the newest visible reading when the newest is hidden', async () => {
    const client = await as('master');
    expect((await client.delete(`/api/v2/sensor-data/${pointId('2025-04-02T12:00:00Z')}`)).statusCode).toBe(
      204,
    );
    expect(await consumptionByMonth(client)).toEqual({ '2025-1': 100, '2025-2': 150 });
    const device = (await client.get(`/api/v2/devices/${ids.device}`)).json();
    expect(device.sensors[0]).toMatchObject({ value: 750, pct: 7.5 });
    expect(device.sensors[0].lastMeasuredAt).toBe('2025-02-20T12:00:00.000Z');
    // The next report steps from the value still in the curve: 750 -> 600 in May.
    await recordReport(t.database.db, ids.device, {
      measuredAt: new Date('2025-05-01T12:00:00Z'),
      readings: [{ sequence: 1, value: 600 }],
    });
    expect(await consumptionByMonth(client)).toEqual({ '2025-1': 100, '2025-2': 150, '2025-5': 150 });
  });
});
