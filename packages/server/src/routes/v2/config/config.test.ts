import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser } from '../../../testing/factories.ts';
import { deviceUserConfig, userConfig, users, whitelabelConfig, whitelabels } from '../../../db/schema.ts';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const [admin, user, demo] = await Promise.all(['admin', 'user', 'demo'].map(byName));
  const [whitelabel] = await db.select().from(whitelabels).where(eq(whitelabels.isDefault, true));
  await buildUser(db, { username: 'other-admin', role: 'ROLE_ADMIN', parent: 'master' });
  const otherCustomer = await buildUser(db, { username: 'other-customer', parent: 'other-admin' });
  Object.assign(ids, {
    whitelabel: whitelabel.id,
    admin: admin.id,
    user: user.id,
    demo: demo.id,
    userTank: (await buildDevice(db, user.id)).id,
    demoTank: (await buildDevice(db, demo.id)).id,
    otherTank: (await buildDevice(db, otherCustomer.id)).id,
  });
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const params = (...items: string[]) => items.map((item) => `params[]=${encodeURIComponent(item)}`).join('&');

describe('GET /v2/config', () => {
  it('answers one item per param, in order, with ids resolved and null where unset', async () => {
    const client = await as('user');
    const response = await client.get(
      `/api/v2/config?${params(
        'whitelabel:current:ui.devices.sort.by',
        'user:me:ui.devices.list.perPage',
        `device_user:${ids.userTank}:ui.process.defaultTimePeriod`,
      )}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { obj: 'whitelabel', id: ids.whitelabel, key: 'ui.devices.sort.by', value: 'id' },
      { obj: 'user', id: ids.user, key: 'ui.devices.list.perPage', value: null },
      { obj: 'device_user', id: ids.userTank, key: 'ui.process.defaultTimePeriod', value: null },
    ]);
  });

  it('takes a single param and numeric ids', async () => {
    const client = await as('user');
    const response = await client.get(`/api/v2/config?${params(`user:${ids.user}:ui.devices.groupByUser`)}`);
    expect(response.json()).toEqual([
      { obj: 'user', id: ids.user, key: 'ui.devices.groupByUser', value: null },
    ]);
    // Without brackets too, as a client sends it that converts its keys to snake_case.
    const plain = await client.get(
      '/api/v2/config?params=user:me:ui.devices.groupByUser&params=user:me:ui.devices.sort.by',
    );
    expect(plain.json().map((item: { key: string }) => item.key)).toEqual([
      'ui.devices.groupByUser',
      'ui.devices.sort.by',
    ]);
  });

  it('rejects malformed params, unknown keys and keys of another object kind with field errors', async () => {
    const client = await as('user');
    for (const bad of [
      'nonsense',
      'user:me:ui.unknown',
      'user:me:ui.process.defaultTimePeriod',
      'house:1:ui.devices.sort.by',
    ]) {
      const response = await client.get(`/api/v2/config?${params('user:me:ui.devices.sort.by', bad)}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().fieldErrors[0].path, bad).toMatch(/^params\[\]\.1/);
    }
    const none = await client.get('/api/v2/config');
    expect(none.statusCode).toBe(400);
    expect(none.json().fieldErrors).toEqual([{ path: 'params[]', code: 'required', args: {} }]);
  });

  it("hides another customer's device (404) and another user's settings (403)", async () => {
    const client = await as('user');
    expect(
      (
        await client.get(
          `/api/v2/config?${params(`device_user:${ids.otherTank}:ui.process.excludedSensors`)}`,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await client.get(`/api/v2/config?${params(`user:${ids.admin}:ui.devices.sort.by`)}`)).statusCode,
    ).toBe(403);
    expect(
      (await client.get(`/api/v2/config?${params(`whitelabel:${ids.whitelabel + 1}:ui.devices.sort.by`)}`))
        .statusCode,
    ).toBe(403);
  });

  it('needs a signed-in user', async () => {
    const response = await new TestClient(t.app).get(
      `/api/v2/config?${params('whitelabel:current:ui.devices.sort.by')}`,
    );
    expect(response.statusCode).toBe(401);
  });
});

describe('PUT /v2/config', () => {
  it("saves a user's own and per-device settings and reads them back", async () => {
    const client = await as('user');
    const response = await client.put('/api/v2/config', [
      { obj: 'user', id: 'me', key: 'ui.devices.list.perPage', value: 50 },
      { obj: 'user', id: ids.user, key: 'ui.devices.list.columns', value: ['id', 'name', 'sensors'] },
      { obj: 'device_user', id: ids.userTank, key: 'ui.process.excludedSensors', value: [7, 8] },
      { obj: 'device_user', id: ids.userTank, key: 'ui.consumption.excludedYears', value: [2024] },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { obj: 'user', id: ids.user, key: 'ui.devices.list.perPage', value: 50 },
      { obj: 'user', id: ids.user, key: 'ui.devices.list.columns', value: ['id', 'name', 'sensors'] },
      { obj: 'device_user', id: ids.userTank, key: 'ui.process.excludedSensors', value: [7, 8] },
      { obj: 'device_user', id: ids.userTank, key: 'ui.consumption.excludedYears', value: [2024] },
    ]);
    const read = await client.get(
      `/api/v2/config?${params('user:me:ui.devices.list.perPage', `device_user:${ids.userTank}:ui.process.excludedSensors`)}`,
    );
    expect(read.json().map((item: { value: unknown }) => item.value)).toEqual([50, [7, 8]]);

    // The device setting belongs to the user: the admin, who sees the same device, has its own.
    const admin = await as('admin');
    const adminRead = await admin.get(
      `/api/v2/config?${params(`device_user:${ids.userTank}:ui.process.excludedSensors`)}`,
    );
    expect(adminRead.json()[0].value).toBeNull();
  });

  it('overwrites a value and removes it with null', async () => {
    const client = await as('user');
    await client.put('/api/v2/config', [{ obj: 'user', id: 'me', key: 'ui.devices.sort.desc', value: true }]);
    const overwritten = await client.put('/api/v2/config', [
      { obj: 'user', id: 'me', key: 'ui.devices.sort.desc', value: false },
    ]);
    expect(overwritten.json()[0].value).toBe(false);
    const removed = await client.put('/api/v2/config', [
      { obj: 'user', id: 'me', key: 'ui.devices.sort.desc', value: null },
    ]);
    expect(removed.json()[0].value).toBeNull();
    const rows = await t.database.db
      .select()
      .from(userConfig)
      .where(eq(userConfig.key, 'ui.devices.sort.desc'));
    expect(rows).toEqual([]);
  });

  it('lets an admin set the white-label default, which GET /v2/config/whitelabel reports too', async () => {
    const admin = await as('admin');
    const response = await admin.put('/api/v2/config', [
      { obj: 'whitelabel', id: 'current', key: 'ui.devices.list.sensors.showTemperatures', value: true },
      { obj: 'whitelabel', id: ids.whitelabel, key: 'ui.devices.list.perPage', value: 100 },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()[0]).toEqual({
      obj: 'whitelabel',
      id: ids.whitelabel,
      key: 'ui.devices.list.sensors.showTemperatures',
      value: true,
    });
    const map = (await admin.get('/api/v2/config/whitelabel')).json();
    expect(map).toMatchObject({
      'ui.devices.list.sensors.showTemperatures': true,
      'ui.devices.list.perPage': 100,
    });
    // Everybody signed in reads the white-label default.
    const demo = await as('demo');
    const read = await demo.get(`/api/v2/config?${params('whitelabel:current:ui.devices.list.perPage')}`);
    expect(read.json()[0].value).toBe(100);
  });

  it('rejects a key of another object kind and invalid values with field errors, saving nothing', async () => {
    const client = await as('user');
    const response = await client.put('/api/v2/config', [
      { obj: 'user', id: 'me', key: 'ui.devices.groupByUser', value: true },
      { obj: 'user', id: 'me', key: 'ui.process.showTemperatureCurve', value: true },
      { obj: 'user', id: 'me', key: 'ui.devices.list.perPage', value: 30 },
      { obj: 'user', id: 'me', key: 'ui.devices.sort.by', value: 'password' },
      { obj: 'device_user', id: ids.userTank, key: 'ui.process.defaultTimePeriod', value: 4 },
      { obj: 'user', id: 'me', key: 'ui.devices.list.columns', value: ['id', 'secret'] },
      { obj: 'user', id: 'me', key: 'ui.devices.groupByUser' },
    ]);
    expect(response.statusCode).toBe(400);
    const paths = response.json().fieldErrors.map((error: { path: string }) => error.path);
    expect(paths).toEqual(['1.key', '2.value', '3.value', '4.value', '5.value.1', '6.value']);
    expect(response.json().fieldErrors[5]).toMatchObject({ path: '6.value', code: 'required' });
    const saved = await t.database.db
      .select()
      .from(userConfig)
      .where(eq(userConfig.key, 'ui.devices.groupByUser'));
    expect(saved).toEqual([]);
  });

  it("answers 404 for another customer's device and saves nothing of the batch", async () => {
    const client = await as('user');
    const response = await client.put('/api/v2/config', [
      { obj: 'user', id: 'me', key: 'ui.devices.list.sensors.showNames', value: false },
      { obj: 'device_user', id: ids.otherTank, key: 'ui.process.showTemperatureCurve', value: true },
    ]);
    expect(response.statusCode).toBe(404);
    const saved = await t.database.db
      .select()
      .from(userConfig)
      .where(eq(userConfig.key, 'ui.devices.list.sensors.showNames'));
    expect(saved).toEqual([]);
    const deviceRows = await t.database.db
      .select()
      .from(deviceUserConfig)
      .where(eq(deviceUserConfig.deviceId, ids.otherTank));
    expect(deviceRows).toEqual([]);
  });

  it("forbids a user the white-label defaults and another user's settings (403)", async () => {
    const client = await as('user');
    const before = await t.database.db.select().from(whitelabelConfig);
    const whitelabel = await client.put('/api/v2/config', [
      { obj: 'whitelabel', id: 'current', key: 'ui.devices.groupByUser', value: true },
    ]);
    expect(whitelabel.statusCode).toBe(403);
    expect(await t.database.db.select().from(whitelabelConfig)).toEqual(before);
    const other = await client.put('/api/v2/config', [
      { obj: 'user', id: ids.admin, key: 'ui.devices.groupByUser', value: true },
    ]);
    expect(other.statusCode).toBe(403);
    const admin = await as('admin');
    const foreign = await admin.put('/api/v2/config', [
      { obj: 'whitelabel', id: ids.whitelabel + 1, key: 'ui.devices.groupByUser', value: true },
    ]);
    expect(foreign.statusCode).toBe(403);
  });

  it('keeps a demo account read-only (403, nothing stored)', async () => {
    const demo = await as('demo');
    for (const item of [
      { obj: 'user', id: 'me', key: 'ui.devices.groupByUser', value: true },
      { obj: 'device_user', id: ids.demoTank, key: 'ui.process.showTemperatureCurve', value: true },
    ]) {
      const response = await demo.put('/api/v2/config', [item]);
      expect(response.statusCode).toBe(403);
    }
    expect(await t.database.db.select().from(userConfig).where(eq(userConfig.userId, ids.demo))).toEqual([]);
    expect(
      await t.database.db.select().from(deviceUserConfig).where(eq(deviceUserConfig.userId, ids.demo)),
    ).toEqual([]);
  });
});
