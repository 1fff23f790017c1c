import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { deviceWithHistory } from '../../../testing/level-history.ts';
import { buildUser, grant } from '../../../testing/factories.ts';
import ExcelJS from 'exceljs';
import { portalDate, portalDateTime } from '@tankportal/shared/alarm-texts';
import { deviceAces, devices, healthIssues, sensorForecasts, sensors } from '../../../db/schema.ts';
import { refreshForecasts } from '../../../intelligence/refresh-forecasts.ts';
import { germanDay } from '../../../time/zone.ts';

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

    // The northern device's battery is weak: a doubt of the whole device, on each of its rows.
    const weakSince = new Date(Date.now() - 2 * DAY_MS);
    await db.insert(healthIssues).values({
      deviceId: north.device.id,
      kind: 'low_battery',
      detail: { charge: 12 },
      openedAt: weakSince,
    });
    await db.update(devices).set({ name: '=Nord' }).where(eq(devices.id, north.device.id));

    const user = await t.signIn('user');
    const all = (await user.get('/api/v2/dispatch?within_days=365')).json();
    expect(all.withinDays).toBe(365);
    // Without a delivery day, the horizon's last one.
    expect(all.deliveryOn).toBe(germanDay(new Date(Date.now() + 365 * DAY_MS)));
    expect(all.rows.map((row: { deviceId: number }) => row.deviceId)).toEqual([
      north.device.id,
      south.device.id,
    ]);
    const [first] = all.rows;
    const [sensor] = await db.select().from(sensors).where(eq(sensors.id, first.sensorId));
    // Fill limit 95 % of 10,000 l, less what is in the tank, whole litres.
    expect(first.orderQuantity).toBe(Math.floor(9_500 - sensor!.value!));
    // By the horizon's last day it has run empty: a delivery then takes the whole 95 %.
    expect(first.orderQuantityOnDelivery).toBe(9_500);
    expect(first).toMatchObject({
      address: { postalCode: '18055', city: 'Rostock' },
      unit: 'l',
      fillLimit: 95,
      threshold: 20,
      forecastDoubts: [],
      health: [
        { kind: 'low_battery', sequence: null, since: weakSince.toISOString(), detail: { charge: 12 } },
      ],
    });
    expect(all.rows[1].health).toEqual([]);

    // A delivery half-way to the southern tank's empty date finds about half of today's level gone.
    const today = germanDay(new Date());
    const halfWay = germanDay(inDays(50));
    const planned = (await user.get(`/api/v2/dispatch?within_days=365&delivery_on=${halfWay}`)).json();
    expect(planned.deliveryOn).toBe(halfWay);
    const southRow = planned.rows[1];
    const used = southRow.orderQuantityOnDelivery - (9_500 - southRow.level);
    expect(used).toBeGreaterThan(0.4 * southRow.level);
    expect(used).toBeLessThan(0.6 * southRow.level);
    const deliveryErrors = async (day: string) =>
      (await user.get(`/api/v2/dispatch?within_days=30&delivery_on=${day}`)).json().fieldErrors;
    expect(await deliveryErrors(germanDay(inDays(-1)))).toEqual([
      { path: 'deliveryOn', code: 'min', args: { min: today } },
    ]);
    expect(await deliveryErrors(germanDay(inDays(366)))).toEqual([
      { path: 'deliveryOn', code: 'max', args: { max: germanDay(inDays(365)) } },
    ]);
    expect(await deliveryErrors('2026-02-30')).toEqual([
      expect.objectContaining({ path: 'deliveryOn', code: 'invalid' }),
    ]);

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
    expect(lines).toHaveLength(3);
    const header = lines[0]!.replace(/^\uFEFF/, '').split(';');
    const cells = lines[1]!.split(';');
    const cell = (name: string) => cells[header.indexOf(name)];
    expect(cell('PLZ')).toBe('18055');
    expect(cell('Gerätename')).toBe("'=Nord");
    expect(cell('Liefermenge heute')).toBe(String(first.orderQuantity));
    expect(cell(`Liefermenge am ${portalDate(inDays(365), 'de', 'Europe/Berlin')}`)).toBe('9500');
    // The reorder level is a level (the threshold in %), the day it is reached a date.
    expect(cell('Meldebestand (%)')).toBe('20');
    expect(cell('Meldebestand erreicht am')).toMatch(/^(\d{2}\.\d{2}\.\d{4} \d{2}:\d{2})?$/);
    expect(cell('Sensorzustand')).toBe(
      `Batterie schwach seit ${portalDateTime(weakSince, 'de', 'Europe/Berlin')}`,
    );
    const xlsx = await user.get('/api/v2/dispatch/export?within_days=365&format=xlsx&locale=en');
    expect(xlsx.headers['content-disposition']).toContain('dispatch-365.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const names = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(names).toContain('Reorder level (%)');
    expect(names).toContain('Sensor health');
    // Text that starts like a formula stays text.
    expect(sheet.getRow(2).getCell(names.indexOf('Device name') + 1).value).toBe("'=Nord");
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
