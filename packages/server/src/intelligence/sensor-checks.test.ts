import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice, grant } from '../testing/factories.ts';
import { buildContact, buildRecipient } from '../testing/contacts-factories.ts';
import { deviceWithHistory } from '../testing/level-history.ts';
import {
  alarms,
  deliveries,
  devices,
  healthIssues,
  measurements,
  messages,
  sensorForecasts,
  sensors,
  users,
} from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import { runSensorChecks } from './sensor-checks.ts';
import { refreshForecasts } from './refresh-forecasts.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

async function userId(db: Db, username: string) {
  return (await db.select().from(users).where(eq(users.username, username)))[0]!.id;
}

/** A heating-oil tank (10,000 l) of `username` that reported `volumes` every `stepHours` up to `end`. */
async function tankWith(db: Db, username: string, volumes: number[], end: Date, stepHours = 24) {
  const device = await buildDevice(db, await userId(db, username));
  const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
  const rows = volumes.map((value, i) => ({
    sensorId: sensor!.id,
    measuredAt: new Date(end.getTime() - (volumes.length - 1 - i) * stepHours * HOUR_MS),
    value,
  }));
  await db.insert(measurements).values(rows);
  await report(db, sensor!.id, device.id, rows.at(-1)!.measuredAt, rows.at(-1)!.value);
  return { device, sensor: sensor! };
}

async function report(db: Db, sensorId: number, deviceId: number, at: Date, value: number) {
  await db.update(sensors).set({ value, lastMeasuredAt: at }).where(eq(sensors.id, sensorId));
  await db.update(devices).set({ lastReportedAt: at }).where(eq(devices.id, deviceId));
}

async function openIssues(db: Db, deviceId: number) {
  return db
    .select({ kind: healthIssues.kind })
    .from(healthIssues)
    .where(and(eq(healthIssues.deviceId, deviceId), isNull(healthIssues.closedAt)));
}

async function mailsOf(db: Db, deviceId: number) {
  return db
    .select({ content: messages.content })
    .from(messages)
    .where(and(eq(messages.deviceId, deviceId), eq(messages.type, 'mail')));
}

describe('deliveries', () => {
  it('are recorded for each refill, listed per device and take the ticket quantity', async () => {
    const db = t.database.db;
    const { device, refills, now } = await deviceWithHistory(db, 'user', 5, 400);
    const checked = await runSensorChecks(db, { now });
    expect(checked.sensors).toBeGreaterThanOrEqual(1);
    const stored = await db.select().from(deliveries).where(eq(deliveries.deviceId, device.id));
    // Every true refill of the series is found once, between the readings around it (across a gap
    // in the readings that may be days).
    expect(stored).toHaveLength(refills.length);
    for (const refill of refills)
      expect(stored.some((d) => d.startedAt <= refill && refill <= d.deliveredAt)).toBe(true);
    // A second round finds nothing new to check and stores nothing twice.
    expect((await runSensorChecks(db, { now })).sensors).toBe(0);
    expect(await db.select().from(deliveries).where(eq(deliveries.deviceId, device.id))).toHaveLength(
      refills.length,
    );

    const user = await t.signIn('user');
    const listed = (await user.get(`/api/v2/devices/${device.id}/deliveries`)).json();
    expect(listed).toHaveLength(refills.length);
    const [newest] = listed;
    expect(Date.parse(newest.deliveredAt)).toBe(Math.max(...stored.map((d) => d.deliveredAt.getTime())));
    expect(newest.quantity).toBeCloseTo(newest.levelAfter - newest.levelBefore, 6);
    expect(newest).toMatchObject({ sequence: 1, unit: 'l', ticketQuantity: null, difference: null });

    const ticket = await user.put(`/api/v2/deliveries/${newest.id}`, { ticket_quantity: 5000 });
    expect(ticket.statusCode).toBe(200);
    expect(ticket.json().difference).toBeCloseTo((newest.quantity15 ?? newest.quantity) - 5000, 6);
    // A later round keeps the dealer's ticket.
    await db
      .update(sensors)
      .set({ lastMeasuredAt: new Date(now.getTime() + 1) })
      .where(eq(sensors.deviceId, device.id));
    await runSensorChecks(db, { now: new Date(now.getTime() + 2) });
    expect((await db.select().from(deliveries).where(eq(deliveries.id, newest.id)))[0]!.ticketQuantity).toBe(
      5000,
    );

    const bad = await user.put(`/api/v2/deliveries/${newest.id}`, { ticket_quantity: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([{ path: 'ticketQuantity', code: 'min', args: { min: 0 } }]);
    expect((await user.put(`/api/v2/deliveries/${newest.id}`, { ticket_quantity: '12' })).statusCode).toBe(
      400,
    );
    expect((await user.put(`/api/v2/deliveries/${newest.id}`, {})).statusCode).toBe(400);
    const cleared = await user.put(`/api/v2/deliveries/${newest.id}`, { ticket_quantity: null });
    expect(cleared.json()).toMatchObject({ ticketQuantity: null, difference: null });
  });

  it('are only for whoever may see the device, and only editors enter tickets', async () => {
    const db = t.database.db;
    const { device, now } = await deviceWithHistory(db, 'master', 9, 200);
    await runSensorChecks(db, { now });
    const [delivery] = await db.select().from(deliveries).where(eq(deliveries.deviceId, device.id));
    expect(delivery).toBeDefined();
    const user = await t.signIn('user');
    expect((await user.get(`/api/v2/devices/${device.id}/deliveries`)).statusCode).toBe(404);
    expect((await user.put(`/api/v2/deliveries/${delivery!.id}`, { ticket_quantity: 1 })).statusCode).toBe(
      404,
    );
    // Allowed to look, not to edit.
    await grant(db, device.id, await userId(db, 'user'), ['VIEW_STATUS', 'VIEW_PROCESS']);
    expect((await user.get(`/api/v2/devices/${device.id}/deliveries`)).statusCode).toBe(200);
    expect((await user.put(`/api/v2/deliveries/${delivery!.id}`, { ticket_quantity: 1 })).statusCode).toBe(
      403,
    );
    expect(
      (await db.select().from(deliveries).where(eq(deliveries.id, delivery!.id)))[0]!.ticketQuantity,
    ).toBeNull();
    expect((await user.put('/api/v2/deliveries/999999', { ticket_quantity: 1 })).statusCode).toBe(404);
  });
});

describe('sensor health', () => {
  it('finds a stuck sensor, shows it with its reason, filters the list by it and tells the recipients', async () => {
    const db = t.database.db;
    const now = new Date();
    // 40 days at 40 l a day, then 8 days of the same value.
    const volumes = [
      ...Array.from({ length: 40 }, (_, i) => 6000 - 40 * i),
      ...Array(8).fill(6000 - 40 * 39),
    ];
    const { device } = await tankWith(db, 'user', volumes, now);
    const contact = await buildContact(db, await userId(db, 'user'), {
      email: 'service@example.com',
      language: 'en',
    });
    await buildRecipient(db, device.id, contact!.id, [
      { name: 'sensor_health', channels: ['mail'], notifyOnceIn: null },
    ]);
    await runSensorChecks(db, { now });
    expect(await openIssues(db, device.id)).toEqual([{ kind: 'stuck' }]);
    const [mail] = await mailsOf(db, device.id);
    expect(mail!.content).toContain('Sensor stuck');
    expect(mail!.content).toContain('unchanged 4,440 l for');

    const user = await t.signIn('user');
    const detail = (await user.get(`/api/v2/devices/${device.id}`)).json();
    expect(detail.health).toEqual([
      expect.objectContaining({
        kind: 'stuck',
        sequence: 1,
        detail: expect.objectContaining({ value: 4440 }),
      }),
    ]);
    // Its forecast rests on the stuck readings: the API says it is unreliable, on the device and in
    // the list, and the dispatch view names the doubt.
    const [probe] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
    const inDays = (days: number) => new Date(now.getTime() + days * DAY_MS);
    await db.insert(sensorForecasts).values({
      sensorId: probe!.id,
      deviceId: device.id,
      emptyAt: inDays(10),
      emptyAtLow: inDays(8),
      emptyAtHigh: inDays(12),
      perDay: 40,
      basedOn: probe!.lastMeasuredAt!,
      computedAt: now,
    });
    const forecastOf = async () =>
      (await user.get(`/api/v2/devices/${device.id}`)).json().sensors[0].forecast;
    expect(await forecastOf()).toMatchObject({ perDay: 40, doubts: ['stuck'] });
    const listed = (await user.get('/api/v2/devices?per_page=100&health=stuck')).json();
    expect(listed.find((row: { id: number }) => row.id === device.id).sensors[0].forecast.doubts).toEqual([
      'stuck',
    ]);
    const due = (await user.get('/api/v2/dispatch?within_days=30')).json().rows;
    expect(due.find((row: { sensorId: number }) => row.sensorId === probe!.id)).toMatchObject({
      forecastDoubts: ['stuck'],
      health: [expect.objectContaining({ kind: 'stuck', sequence: 1 })],
    });
    const dispatchCsv = await user.get('/api/v2/dispatch/export?within_days=30&format=csv&locale=de');
    const dispatchLine = dispatchCsv.body
      .split('\r\n')
      .find((line) => line.includes(`;${device.id};${device.name};`));
    expect(dispatchLine).toContain('Sensor hängt seit');
    expect(dispatchLine).toContain('Prognose unsicher');

    const stuck = (await user.get('/api/v2/devices?per_page=100&health=stuck')).json();
    expect(stuck.map((row: { id: number }) => row.id)).toContain(device.id);
    expect(
      stuck.every((row: { health: { kind: string }[] }) => row.health.some((h) => h.kind === 'stuck')),
    ).toBe(true);
    const silentOnes = (await user.get('/api/v2/devices?per_page=100&health=silent')).json();
    expect(silentOnes.map((row: { id: number }) => row.id)).not.toContain(device.id);
    expect((await user.get('/api/v2/devices?health=broken')).statusCode).toBe(400);
    // The list export takes the same filter: the file holds what the screen shows.
    const exported = await user.get(
      '/api/v2/devices/export?export_type=simple_list&file_format=csv&health=stuck',
    );
    expect(exported.statusCode).toBe(200);
    const lines = exported.body.trim().split('\n');
    expect(lines).toHaveLength(1 + stuck.length);
    expect(exported.body).toContain(device.name);
    const refused = await user.get('/api/v2/devices/export?export_type=simple_list&file_format=csv&health=x');
    expect(refused.statusCode).toBe(400);

    // It moves again: the doubt closes.
    const later = new Date(now.getTime() + HOUR_MS);
    await db
      .insert(measurements)
      .values({ sensorId: (await sensorOf(db, device.id)).id, measuredAt: later, value: 4300 });
    await report(db, (await sensorOf(db, device.id)).id, device.id, later, 4300);
    await runSensorChecks(db, { now: later });
    expect(await openIssues(db, device.id)).toEqual([]);
    expect(await mailsOf(db, device.id)).toHaveLength(1);
    expect((await forecastOf()).doubts).toEqual([]);
  });

  it('finds a jump, says the forecast resting on it is unreliable on the device, in the list and the dispatch view, and lets it age out', async () => {
    const db = t.database.db;
    const now = new Date();
    // Daily readings at 40 l a day; the one two days ago is 1,500 l below both its neighbours
    // (more than a tenth of the 10,000 l tank), which agree.
    const volumes = Array.from({ length: 40 }, (_, i) => 6000 - 40 * i - (i === 37 ? 1500 : 0));
    const { device, sensor } = await tankWith(db, 'user', volumes, now);
    const jumpedAt = new Date(now.getTime() - 2 * DAY_MS);
    const contact = await buildContact(db, await userId(db, 'user'), {
      email: 'werkstatt@example.com',
      language: 'de',
    });
    await buildRecipient(db, device.id, contact!.id, [
      { name: 'sensor_health', channels: ['mail'], notifyOnceIn: null },
    ]);
    await runSensorChecks(db, { now });
    expect(await openIssues(db, device.id)).toEqual([{ kind: 'jump' }]);
    // The dip came back: no leak alarm.
    expect(await db.select().from(alarms).where(eq(alarms.deviceId, device.id))).toEqual([]);
    const [mail] = await mailsOf(db, device.id);
    expect(mail!.content).toContain('Unplausibler Sprung');
    expect(mail!.content).toContain('Der Messwert 3.020 l vom');

    const user = await t.signIn('user');
    const detail = (await user.get(`/api/v2/devices/${device.id}`)).json();
    expect(detail.health).toEqual([
      expect.objectContaining({
        kind: 'jump',
        sequence: 1,
        detail: expect.objectContaining({ value: 3020, from: 4520, at: jumpedAt.toISOString() }),
      }),
    ]);
    expect(Date.parse(detail.health[0].since)).toBe(jumpedAt.getTime());

    // Its forecast: unreliable on the device, in the list (filtered by the doubt) and in the
    // dispatch view and its export, which names the doubt with its time.
    const inDays = (days: number) => new Date(now.getTime() + days * DAY_MS);
    await db.insert(sensorForecasts).values({
      sensorId: sensor.id,
      deviceId: device.id,
      emptyAt: inDays(10),
      emptyAtLow: inDays(8),
      emptyAtHigh: inDays(12),
      perDay: 40,
      basedOn: now,
      computedAt: now,
    });
    const forecastOf = async () =>
      (await user.get(`/api/v2/devices/${device.id}`)).json().sensors[0].forecast;
    expect(await forecastOf()).toMatchObject({ perDay: 40, doubts: ['jump'] });
    const listed = (await user.get('/api/v2/devices?per_page=100&health=jump')).json();
    expect(
      listed.every((row: { health: { kind: string }[] }) => row.health.some((h) => h.kind === 'jump')),
    ).toBe(true);
    expect(listed.find((row: { id: number }) => row.id === device.id).sensors[0].forecast.doubts).toEqual([
      'jump',
    ]);
    const stuckOnes = (await user.get('/api/v2/devices?per_page=100&health=stuck')).json();
    expect(stuckOnes.map((row: { id: number }) => row.id)).not.toContain(device.id);
    const due = (await user.get('/api/v2/dispatch?within_days=30')).json().rows;
    expect(due.find((row: { sensorId: number }) => row.sensorId === sensor.id)).toMatchObject({
      forecastDoubts: ['jump'],
      health: [expect.objectContaining({ kind: 'jump', sequence: 1 })],
    });
    for (const [locale, separator, texts] of [
      ['de', ';', ['Prognose unsicher', 'Unplausibler Sprung seit']],
      ['en', ',', ['Forecast unreliable', 'Implausible jump since']],
    ] as const) {
      const sheet = await user.get(`/api/v2/dispatch/export?within_days=30&format=csv&locale=${locale}`);
      expect(sheet.statusCode).toBe(200);
      const line = sheet.body
        .split('\r\n')
        .find((each) => each.includes(`${separator}${device.id}${separator}${device.name}${separator}`));
      for (const text of texts) expect(line).toContain(text);
    }

    // Eight days on, the jump is out of the days a jump is looked for in: the doubt closes, the
    // forecast is no longer in doubt.
    await runSensorChecks(db, { now: inDays(8) });
    expect((await openIssues(db, device.id)).map((issue) => issue.kind)).not.toContain('jump');
    expect((await forecastOf()).doubts).toEqual([]);
  });

  it('finds a silent device and a low battery, and closes them when it reports again', async () => {
    const db = t.database.db;
    const now = new Date();
    const { device, sensor } = await tankWith(
      db,
      'user',
      [5000, 4980, 4960],
      new Date(now.getTime() - 3 * DAY_MS),
    );
    await db.update(devices).set({ batteryCharge: 12 }).where(eq(devices.id, device.id));
    await runSensorChecks(db, { now });
    expect((await openIssues(db, device.id)).map((i) => i.kind).sort()).toEqual(['low_battery', 'silent']);
    const user = await t.signIn('user');
    const detail = (await user.get(`/api/v2/devices/${device.id}`)).json();
    const silent = detail.health.find((h: { kind: string }) => h.kind === 'silent');
    expect(silent).toMatchObject({ sequence: null, detail: { intervalHours: 24 } });
    expect(Date.parse(silent.since)).toBe(now.getTime() - 3 * DAY_MS + 2 * DAY_MS);
    // The battery is weak since the report that said so, not since the check.
    const battery = detail.health.find((h: { kind: string }) => h.kind === 'low_battery');
    expect(battery).toMatchObject({ sequence: null, detail: { charge: 12 } });
    expect(Date.parse(battery.since)).toBe(now.getTime() - 3 * DAY_MS);

    await db.insert(measurements).values({ sensorId: sensor.id, measuredAt: now, value: 4900 });
    await report(db, sensor.id, device.id, now, 4900);
    await db.update(devices).set({ batteryCharge: 95 }).where(eq(devices.id, device.id));
    await runSensorChecks(db, { now });
    expect(await openIssues(db, device.id)).toEqual([]);
  });

  it('leaves an inactive device alone', async () => {
    const db = t.database.db;
    const now = new Date();
    const { device } = await tankWith(db, 'user', [5000, 4980], new Date(now.getTime() - 5 * DAY_MS));
    await db.update(devices).set({ active: false }).where(eq(devices.id, device.id));
    await runSensorChecks(db, { now });
    expect(await openIssues(db, device.id)).toEqual([]);
  });
});

async function sensorOf(db: Db, deviceId: number) {
  return (await db.select().from(sensors).where(eq(sensors.deviceId, deviceId)))[0]!;
}

describe('leak and theft', () => {
  it('opens a leak alarm for a theft, tells the recipients, and closes it when the level holds', async () => {
    const db = t.database.db;
    const now = new Date();
    // Six-hourly readings at 24 l a day; 600 l vanish 12 hours ago and stay gone.
    const volumes = Array.from({ length: 40 }, (_, i) => 7000 - 6 * i - (i >= 37 ? 600 : 0));
    const { device, sensor } = await tankWith(db, 'user', volumes, now, 6);
    await db.insert(sensorForecasts).values({
      sensorId: sensor.id,
      deviceId: device.id,
      perDay: 24,
      basedOn: sensor.lastMeasuredAt ?? now,
      computedAt: now,
    });
    const contact = await buildContact(db, await userId(db, 'user'), {
      email: 'alarm@example.com',
      language: 'de',
    });
    await buildRecipient(db, device.id, contact!.id, [
      { name: 'alarm', channels: ['mail'], notifyOnceIn: null },
    ]);
    await runSensorChecks(db, { now });
    const [alarm] = await db.select().from(alarms).where(eq(alarms.deviceId, device.id));
    expect(alarm).toMatchObject({ type: 'leak', sensorId: sensor.id, severity: 'fatal', closedAt: null });
    expect(Number(alarm!.value!.split(' ')[0])).toBeGreaterThan(500);
    expect((await db.select().from(devices).where(eq(devices.id, device.id)))[0]!.status).toBe('alarm');
    const [mail] = await mailsOf(db, device.id);
    expect(mail!.content).toContain('Leck- oder Diebstahlverdacht Sensor 1');

    const user = await t.signIn('user');
    const detail = (await user.get(`/api/v2/devices/${device.id}`)).json();
    expect(detail.alarms.map((a: { type: string }) => a.type)).toEqual(['leak']);

    // Four days on, the level only fell by the use: the alarm closes, the device is ok again.
    let at = now;
    let level = volumes.at(-1)!;
    for (let i = 0; i < 16; i++) {
      at = new Date(at.getTime() + 6 * HOUR_MS);
      level -= 6;
      await db.insert(measurements).values({ sensorId: sensor.id, measuredAt: at, value: level });
    }
    await report(db, sensor.id, device.id, at, level);
    await runSensorChecks(db, { now: at });
    const [closed] = await db.select().from(alarms).where(eq(alarms.id, alarm!.id));
    expect(closed!.closedAt).not.toBeNull();
    expect((await db.select().from(devices).where(eq(devices.id, device.id)))[0]!.status).toBe('ok');
  });

  it('stays quiet for a tank used as forecast', async () => {
    const db = t.database.db;
    const { device, now } = await deviceWithHistory(db, 'user', 11, 300);
    await refreshForecasts(db, { now });
    await runSensorChecks(db, { now });
    expect(await db.select().from(alarms).where(eq(alarms.deviceId, device.id))).toEqual([]);
  });
});
