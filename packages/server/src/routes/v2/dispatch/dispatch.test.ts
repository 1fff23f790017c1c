import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { deviceWithHistory } from '../../../testing/level-history.ts';
import { buildUser, grant } from '../../../testing/factories.ts';
import { deviceAces, devices, sensorForecasts, sensors } from '../../../db/schema.ts';
import { refreshForecasts } from '../../../intelligence/refresh-forecasts.ts';

const DAY_MS = 86_400_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

describe('GET /v2/dispatch', () => {
  it('lists the tanks due within the horizon with the quantity up to the fill limit, by postal code', async () => {
    const db = t.database.db;
    const north = await deviceWithHistory(db, 'user', 5, 400);
    const south = await deviceWithHistory(db, 'user', 7, 400);
    await db
      .update(devices)
      .set({ postalCode: '80331', city: 'München' })
      .where(eq(devices.id, south.device.id));
    await db
      .update(devices)
      .set({ postalCode: '18055', city: 'Rostock' })
      .where(eq(devices.id, north.device.id));
    await refreshForecasts(db, { now: new Date(Math.max(north.now.getTime(), south.now.getTime())) });
    // The list is about the forecasts, not the model: the southern tank is due in 100 days.
    const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);
    await db
      .update(sensorForecasts)
      .set({ emptyAt: inDays(100), emptyAtLow: inDays(90), emptyAtHigh: inDays(110), perDay: 20 })
      .where(eq(sensorForecasts.sensorId, south.sensor.id));
    expect(
      await db.select().from(sensorForecasts).where(eq(sensorForecasts.sensorId, north.sensor.id)),
    ).toEqual([expect.objectContaining({ emptyAt: expect.any(Date) })]);

    const user = await t.signIn('user');
    const all = (await user.get('/api/v2/dispatch?within_days=365')).json();
    expect(all.withinDays).toBe(365);
    expect(all.rows.map((row: { deviceId: number }) => row.deviceId)).toEqual([
      north.device.id,
      south.device.id,
    ]);
    const [first] = all.rows;
    const [sensor] = await db.select().from(sensors).where(eq(sensors.id, first.sensorId));
    // Fill limit 95 % of 10,000 l, less what is in the tank, whole litres.
    expect(first.orderQuantity).toBe(Math.floor(9_500 - sensor!.value!));
    expect(first).toMatchObject({
      address: { postalCode: '18055', city: 'Rostock' },
      unit: 'l',
      fillLimit: 95,
    });

    // The horizon: only what is due by then.
    const days = Math.floor((Date.parse(first.emptyAt) - Date.now()) / DAY_MS);
    const soon = (await user.get(`/api/v2/dispatch?within_days=${Math.max(1, days - 1)}`)).json();
    expect(soon.rows.map((row: { sensorId: number }) => row.sensorId)).not.toContain(first.sensorId);
    expect((await user.get('/api/v2/dispatch')).json().withinDays).toBe(14);
    for (const bad of ['0', '366', 'x', '1.5'])
      expect((await user.get(`/api/v2/dispatch?within_days=${bad}`)).statusCode).toBe(400);

    // The export: the same rows, as a sheet.
    const csv = await user.get('/api/v2/dispatch/export?within_days=365&format=csv&locale=de');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('disposition-365.csv');
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Liefermenge');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('18055');
    const xlsx = await user.get('/api/v2/dispatch/export?within_days=365&format=xlsx&locale=en');
    expect(xlsx.headers['content-disposition']).toContain('dispatch-365.xlsx');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('shows only devices the user may see with VIEW_STATUS; demo exports nothing', async () => {
    const db = t.database.db;
    const own = await deviceWithHistory(db, 'admin', 11, 300);
    await refreshForecasts(db, { now: own.now });
    const stranger = await buildUser(db, { parent: 'admin' });
    const client = await t.signIn(stranger.username);
    expect((await client.get('/api/v2/dispatch?within_days=365')).json().rows).toEqual([]);
    const ace = await grant(db, own.device.id, stranger.id, ['VIEW_PROCESS']);
    expect((await client.get('/api/v2/dispatch?within_days=365')).json().rows).toEqual([]);
    await db
      .update(deviceAces)
      .set({ permissions: ['VIEW_STATUS'] })
      .where(eq(deviceAces.id, ace!.id));
    const granted = (await client.get('/api/v2/dispatch?within_days=365')).json().rows;
    expect(granted.map((row: { deviceId: number }) => row.deviceId)).toEqual([own.device.id]);
    const demo = await t.signIn('demo');
    expect((await demo.get('/api/v2/dispatch/export?within_days=30')).statusCode).toBe(403);
  });
});
