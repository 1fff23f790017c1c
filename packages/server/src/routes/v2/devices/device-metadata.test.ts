import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { buildHistory, deviceSnapshot } from '../../../testing/device-lifecycle-factories.ts';
import { deviceAces, devices, measurements, sensors, users, whitelabels } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';

let t: TestApp;
const ids: Record<string, number> = {};
const clients = new Map<string, TestClient>();

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const [master, admin, user, demo] = await Promise.all(['master', 'admin', 'user', 'demo'].map(byName));
  Object.assign(ids, { master: master.id, admin: admin.id, user: user.id, demo: demo.id });
  // Another customer's admin and user; a user outside the tree with view rights only; an admin
  // outside the tree with EDIT but without the access-managing DELETE.
  const otherAdmin = await buildUser(db, {
    username: 'meta-other-admin',
    role: 'ROLE_ADMIN',
    parent: 'master',
  });
  const otherUser = await buildUser(db, { username: 'meta-other-user', parent: 'meta-other-admin' });
  const viewer = await buildUser(db, { username: 'meta-viewer', parent: 'master' });
  const editorAdmin = await buildUser(db, {
    username: 'meta-editor-admin',
    role: 'ROLE_ADMIN',
    parent: 'master',
  });
  const subUser = await buildUser(db, { username: 'meta-sub-user', parent: 'user' });
  Object.assign(ids, {
    otherAdmin: otherAdmin.id,
    otherUser: otherUser.id,
    viewer: viewer.id,
    editorAdmin: editorAdmin.id,
    subUser: subUser.id,
  });
  ids.tank = (await buildDevice(db, user.id, { name: 'Hoftank', city: 'Kassel' })).id;
  ids.otherTank = (await buildDevice(db, otherUser.id, { name: 'Fremder Tank' })).id;
  await buildHistory(db, ids.tank);
  await buildHistory(db, ids.otherTank);
  await grant(db, ids.tank, viewer.id, ['VIEW_STATUS', 'VIEW_CONFIGURATION']);
  await grant(db, ids.tank, editorAdmin.id, ['VIEW_STATUS', 'VIEW_CONFIGURATION', 'EDIT']);
  // Every permission granted, yet a demo account stays read-only.
  await grant(db, ids.tank, demo.id, ['VIEW_STATUS', 'EDIT', 'CONFIGURATION', 'DELETE']);
});
afterAll(() => t.close());

async function as(username: string) {
  let client = clients.get(username);
  if (!client) {
    client = await t.signIn(username);
    clients.set(username, client);
  }
  return client;
}

const url = (id: number, path = '') => `/api/v2/devices/${id}${path}`;

const address = (overrides: Record<string, unknown> = {}) => ({
  street: 'Hauptstraße',
  street_number: '1a',
  postal_code: '34117',
  city: 'Kassel',
  country_code: 'DE',
  ...overrides,
});
const metadata = (overrides: Record<string, unknown> = {}) => ({
  name: 'Hoftank',
  project: 'Hof',
  address: address(),
  ...overrides,
});

async function setResetFlag(enabled: boolean) {
  await t.database.db
    .update(whitelabels)
    .set({ resetDataEnabled: enabled })
    .where(eq(whitelabels.isDefault, true));
}

/** Every call of this area, with a valid body: denied ones must change nothing. */
const CALLS: { name: string; method: 'PUT' | 'POST' | 'DELETE'; path: string; body?: () => object }[] = [
  { name: 'metadata', method: 'PUT', path: '/metadata', body: () => metadata({ name: 'Changed' }) },
  { name: 'comment', method: 'PUT', path: '/comment', body: () => ({ content: 'changed' }) },
  { name: 'master-comment', method: 'PUT', path: '/master-comment', body: () => ({ content: 'changed' }) },
  {
    name: 'public-url',
    method: 'PUT',
    path: '/public-url',
    body: () => ({ public_url_access_enabled: true }),
  },
  { name: 'active-flag', method: 'PUT', path: '/active-flag', body: () => ({ active: false }) },
  { name: 'assign-to-user', method: 'PUT', path: '/assign-to-user', body: () => ({ user_id: ids.subUser }) },
  { name: 'delete', method: 'DELETE', path: '' },
  { name: 'reset-data', method: 'POST', path: '/reset-data' },
  { name: 'reset-gps-data', method: 'POST', path: '/reset-gps-data' },
];

async function call(username: string, entry: (typeof CALLS)[number], deviceId: number) {
  const client = await as(username);
  return client.request(entry.method, url(deviceId, entry.path), entry.body?.());
}

/** Who is denied what on the user's tank, and with which status. */
const DENIALS: { actor: string; status: 403 | 404; calls: string[]; why: string }[] = [
  { actor: 'demo', status: 403, calls: CALLS.map((c) => c.name), why: 'a demo account is read-only' },
  {
    actor: 'meta-viewer',
    status: 403,
    calls: CALLS.map((c) => c.name),
    why: 'view permissions only (and below admin / master)',
  },
  {
    actor: 'meta-editor-admin',
    status: 403,
    calls: ['master-comment', 'assign-to-user', 'delete', 'reset-data', 'reset-gps-data'],
    why: 'EDIT without DELETE, not master, reset not enabled by the white-label',
  },
  {
    actor: 'meta-other-admin',
    status: 404,
    calls: ['metadata', 'comment', 'public-url', 'active-flag', 'assign-to-user', 'reset-data'],
    why: 'another customer: the device is invisible',
  },
  {
    actor: 'meta-other-admin',
    status: 403,
    calls: ['master-comment', 'delete', 'reset-gps-data'],
    why: 'master-only calls are refused by role first',
  },
  {
    actor: 'user',
    status: 403,
    calls: ['master-comment', 'assign-to-user', 'delete', 'reset-data', 'reset-gps-data'],
    why: 'the owner, but below admin / master',
  },
];

describe('denied calls change nothing', () => {
  beforeEach(() => setResetFlag(false));

  for (const denial of DENIALS) {
    for (const name of denial.calls) {
      it(`${denial.actor} -> ${name}: ${denial.status} (${denial.why})`, async () => {
        const entry = CALLS.find((c) => c.name === name)!;
        const before = await deviceSnapshot(t.database.db, ids.tank);
        const response = await call(denial.actor, entry, ids.tank);
        expect(response.statusCode, response.body).toBe(denial.status);
        expect(await deviceSnapshot(t.database.db, ids.tank)).toEqual(before);
      });
    }
  }

  it('master: 404 for a device that does not exist, on every call', async () => {
    for (const entry of CALLS) {
      const response = await call('master', entry, 999_999);
      expect(response.statusCode, entry.name).toBe(404);
    }
  });

  it('unauthenticated: 401', async () => {
    const anonymous = new TestClient(t.app);
    await anonymous.get('/api/v2/whitelabels/current');
    for (const entry of CALLS) {
      const response = await anonymous.request(entry.method, url(ids.tank, entry.path), entry.body?.());
      expect(response.statusCode, entry.name).toBe(401);
    }
  });
});

describe('PUT /v2/devices/{id}/metadata', () => {
  it('saves name, project and address and answers the device detail', async () => {
    const client = await as('user');
    const response = await client.put(
      url(ids.tank, '/metadata'),
      metadata({
        name: '  Hoftank Nord ',
        project: '',
        address: address({ country_code: 'at', street: '' }),
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: ids.tank,
      name: 'Hoftank Nord',
      project: null,
      address: { street: null, streetNumber: '1a', postalCode: '34117', city: 'Kassel', countryCode: 'AT' },
      user: { id: ids.user },
    });
    const [row] = await t.database.db.select().from(devices).where(eq(devices.id, ids.tank));
    expect(row).toMatchObject({ name: 'Hoftank Nord', project: null, street: null, countryCode: 'AT' });
  });

  const BOUNDS: [string, number, (value: string) => object][] = [
    ['name', 64, (value) => metadata({ name: value })],
    ['project', 128, (value) => metadata({ project: value })],
    ['address.street', 128, (value) => metadata({ address: address({ street: value }) })],
    ['address.streetNumber', 12, (value) => metadata({ address: address({ street_number: value }) })],
    ['address.postalCode', 8, (value) => metadata({ address: address({ postal_code: value }) })],
    ['address.city', 64, (value) => metadata({ address: address({ city: value }) })],
  ];
  for (const [path, max, body] of BOUNDS) {
    it(`${path}: ${max} characters are fine, ${max + 1} are not`, async () => {
      const client = await as('user');
      const inside = await client.put(url(ids.tank, '/metadata'), body('x'.repeat(max)));
      expect(inside.statusCode, inside.body).toBe(200);
      const before = await deviceSnapshot(t.database.db, ids.tank);
      const outside = await client.put(url(ids.tank, '/metadata'), body('y'.repeat(max + 1)));
      expect(outside.statusCode).toBe(400);
      expect(outside.json().fieldErrors).toEqual([{ path, code: 'max_length', args: { max } }]);
      expect(await deviceSnapshot(t.database.db, ids.tank)).toEqual(before);
    });
  }

  it('requires a name and a known country', async () => {
    const client = await as('user');
    const before = await deviceSnapshot(t.database.db, ids.tank);
    const empty = await client.put(url(ids.tank, '/metadata'), metadata({ name: '   ' }));
    expect(empty.json().fieldErrors).toEqual([{ path: 'name', code: 'required', args: {} }]);
    const noCountry = await client.put(
      url(ids.tank, '/metadata'),
      metadata({ address: address({ country_code: '' }) }),
    );
    expect(noCountry.json().fieldErrors).toEqual([
      { path: 'address.countryCode', code: 'required', args: {} },
    ]);
    const unknown = await client.put(
      url(ids.tank, '/metadata'),
      metadata({ address: address({ country_code: 'XX' }) }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fieldErrors).toEqual([{ path: 'address.countryCode', code: 'invalid', args: {} }]);
    expect(await deviceSnapshot(t.database.db, ids.tank)).toEqual(before);
  });

  it('moves the device to a managed user for an admin holding DELETE; the new owner loses its ace', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, ids.user);
    await grant(db, device.id, ids.subUser, ['VIEW_STATUS']);
    const client = await as('admin');
    const response = await client.put(url(device.id, '/metadata'), metadata({ user_id: ids.subUser }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({ id: ids.subUser, username: 'meta-sub-user' });
    expect(await db.select().from(deviceAces).where(eq(deviceAces.deviceId, device.id))).toEqual([]);
  });

  it('refuses a move by a non-admin, by an admin without DELETE, or to a user not managed', async () => {
    const db = t.database.db;
    const before = await deviceSnapshot(db, ids.tank);
    const byOwner = await (
      await as('user')
    ).put(url(ids.tank, '/metadata'), metadata({ user_id: ids.subUser }));
    expect(byOwner.statusCode).toBe(403);
    const withoutDelete = await (
      await as('meta-editor-admin')
    ).put(url(ids.tank, '/metadata'), metadata({ user_id: ids.editorAdmin }));
    expect(withoutDelete.statusCode).toBe(403);
    const notManaged = await (
      await as('admin')
    ).put(url(ids.tank, '/metadata'), metadata({ user_id: ids.otherUser }));
    expect(notManaged.statusCode).toBe(403);
    const unknownUser = await (
      await as('admin')
    ).put(url(ids.tank, '/metadata'), metadata({ user_id: 999_999 }));
    expect(unknownUser.statusCode).toBe(403);
    expect(await deviceSnapshot(db, ids.tank)).toEqual(before);
  });

  it('accepts the current owner as userId from anyone with EDIT (the form sends it along)', async () => {
    const response = await (
      await as('meta-editor-admin')
    ).put(url(ids.tank, '/metadata'), metadata({ name: 'Hoftank', user_id: ids.user }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user.id).toBe(ids.user);
  });
});

describe('comments, public page and active flag', () => {
  it('sets and removes the comment (at most 2000 characters)', async () => {
    const client = await as('user');
    const set = await client.put(url(ids.tank, '/comment'), { content: '  Tankwagen vorher anmelden ' });
    expect(set.statusCode).toBe(200);
    expect(set.json().comment).toBe('Tankwagen vorher anmelden');
    expect((await client.put(url(ids.tank, '/comment'), { content: 'c'.repeat(2000) })).statusCode).toBe(200);
    const before = await deviceSnapshot(t.database.db, ids.tank);
    const tooLong = await client.put(url(ids.tank, '/comment'), { content: 'c'.repeat(2001) });
    expect(tooLong.json().fieldErrors).toEqual([
      { path: 'content', code: 'max_length', args: { max: 2000 } },
    ]);
    expect(await deviceSnapshot(t.database.db, ids.tank)).toEqual(before);
    const cleared = await client.put(url(ids.tank, '/comment'), { content: '' });
    expect(cleared.json().comment).toBeNull();
  });

  it('lets a master keep a comment that only masters see', async () => {
    const response = await (
      await as('master')
    ).put(url(ids.tank, '/master-comment'), { content: 'SIM tauschen' });
    expect(response.statusCode).toBe(200);
    expect(response.json().masterComment).toBe('SIM tauschen');
    const asAdmin = await (await as('admin')).get(url(ids.tank));
    expect(asAdmin.json().masterComment).toBeNull();
  });

  it('switches the public status page on and off, keeping its link', async () => {
    const client = await as('user');
    const anonymous = new TestClient(t.app);
    const on = await client.put(url(ids.tank, '/public-url'), { public_url_access_enabled: true });
    expect(on.statusCode).toBe(200);
    const { publicUrl, publicUrlAccessEnabled } = on.json();
    expect(publicUrlAccessEnabled).toBe(true);
    expect(publicUrl).toMatch(/^\/public\/[\w-]{40,}$/);
    const token = publicUrl.split('/').at(-1);
    const page = await anonymous.get(`/api/v2/public/devices/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ name: 'Hoftank' });

    const off = await client.put(url(ids.tank, '/public-url'), { public_url_access_enabled: false });
    expect(off.json()).toMatchObject({ publicUrlAccessEnabled: false, publicUrl: null });
    expect((await anonymous.get(`/api/v2/public/devices/${token}`)).statusCode).toBe(404);

    const again = await client.put(url(ids.tank, '/public-url'), { public_url_access_enabled: true });
    expect(again.json().publicUrl).toBe(publicUrl);
    expect((await anonymous.get(`/api/v2/public/devices/${token}`)).statusCode).toBe(200);
    await client.put(url(ids.tank, '/public-url'), { public_url_access_enabled: false });
  });

  it('requires the flag as a boolean', async () => {
    const client = await as('user');
    const missing = await client.put(url(ids.tank, '/public-url'), {});
    expect(missing.json().fieldErrors).toEqual([
      { path: 'publicUrlAccessEnabled', code: 'required', args: {} },
    ]);
    const wrong = await client.put(url(ids.tank, '/active-flag'), { active: 'yes' });
    expect(wrong.json().fieldErrors).toEqual([{ path: 'active', code: 'invalid', args: {} }]);
  });

  it('deactivates and activates the device', async () => {
    const client = await as('user');
    const off = await client.put(url(ids.tank, '/active-flag'), { active: false });
    expect(off.json().active).toBe(false);
    const on = await client.put(url(ids.tank, '/active-flag'), { active: true });
    expect(on.json().active).toBe(true);
  });
});

describe('PUT /v2/devices/{id}/assign-to-user', () => {
  it('hands a device to a managed user with name and address', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, ids.admin, { name: 'Neu' });
    const response = await (
      await as('admin')
    ).put(url(device.id, '/assign-to-user'), {
      user_id: ids.user,
      name: 'Hofladen',
      address: address({ city: 'Fulda' }),
      debtor_ident: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      user: { id: ids.user },
      name: 'Hofladen',
      address: { city: 'Fulda', countryCode: 'DE' },
    });
  });

  it('keeps name and address when not given; sets the debtor only for a master', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, ids.admin, { name: 'Bleibt', city: 'Bonn' });
    const before = await deviceSnapshot(db, device.id);
    const byAdmin = await (
      await as('admin')
    ).put(url(device.id, '/assign-to-user'), {
      user_id: ids.user,
      debtor_ident: 'D-100',
    });
    expect(byAdmin.statusCode).toBe(403);
    expect(await deviceSnapshot(db, device.id)).toEqual(before);

    const byMaster = await (
      await as('master')
    ).put(url(device.id, '/assign-to-user'), {
      user_id: ids.user,
      debtor_ident: 'D-100',
    });
    expect(byMaster.statusCode, byMaster.body).toBe(200);
    expect(byMaster.json()).toMatchObject({
      name: 'Bleibt',
      address: { city: 'Bonn' },
      debtor: { ident: 'D-100' },
    });
  });

  it('refuses a user the admin does not manage, and validates the body', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, ids.admin);
    const before = await deviceSnapshot(db, device.id);
    const client = await as('admin');
    expect((await client.put(url(device.id, '/assign-to-user'), { user_id: ids.otherUser })).statusCode).toBe(
      403,
    );
    const missing = await client.put(url(device.id, '/assign-to-user'), { name: 'x' });
    expect(missing.json().fieldErrors).toEqual([{ path: 'userId', code: 'required', args: {} }]);
    const long = await client.put(url(device.id, '/assign-to-user'), {
      user_id: ids.user,
      name: 'n'.repeat(65),
    });
    expect(long.json().fieldErrors).toEqual([{ path: 'name', code: 'max_length', args: { max: 64 } }]);
    expect(await deviceSnapshot(db, device.id)).toEqual(before);
  });
});

describe('reset and delete', () => {
  beforeEach(() => setResetFlag(false));

  it('reset-data removes measurements, consumption and alarms and clears the last values', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, ids.user);
    await buildHistory(db, device.id);
    const otherBefore = await deviceSnapshot(db, ids.otherTank);
    expect((await (await as('master')).post(url(device.id, '/reset-data'))).statusCode).toBe(204);
    const after = await deviceSnapshot(db, device.id);
    expect(after).toMatchObject({ measurements: 0, consumption: 0, alarms: 0 });
    expect(after.device).toMatchObject({
      lastReportedAt: null,
      status: 'ok',
      thresholdStatus: 'ok',
      // The location is the GPS reset's.
      locationLat: 51.1,
    });
    expect(after.sensors).toEqual([
      expect.objectContaining({
        value: null,
        pct: null,
        temperatureValue: null,
        lastMeasuredAt: null,
        capacity: 10_000,
      }),
    ]);
    const detail = (await (await as('user')).get(url(device.id))).json();
    expect(detail).toMatchObject({ lastReportedAt: null, alarms: [] });
    expect(
      (await (await as('user')).get(url(device.id, '/process'))).headers['x-process-start'],
    ).toBeUndefined();
    // Nothing of any other device.
    expect(await deviceSnapshot(db, ids.otherTank)).toEqual(otherBefore);
  });

  it('reset-data is allowed to a non-master with EDIT when the white-label enables it', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, ids.user);
    await buildHistory(db, device.id);
    await grant(db, device.id, ids.viewer, ['VIEW_STATUS']);
    const before = await deviceSnapshot(db, device.id);
    expect((await (await as('user')).post(url(device.id, '/reset-data'))).statusCode).toBe(403);
    await setResetFlag(true);
    // Still not without EDIT, nor for a demo account.
    expect((await (await as('meta-viewer')).post(url(device.id, '/reset-data'))).statusCode).toBe(403);
    expect((await (await as('demo')).post(url(device.id, '/reset-data'))).statusCode).toBe(403);
    expect((await (await as('meta-other-admin')).post(url(device.id, '/reset-data'))).statusCode).toBe(404);
    expect(await deviceSnapshot(db, device.id)).toEqual(before);
    expect((await (await as('user')).post(url(device.id, '/reset-data'))).statusCode).toBe(204);
    expect(await deviceSnapshot(db, device.id)).toMatchObject({ measurements: 0, consumption: 0, alarms: 0 });
  });

  it('reset-gps-data forgets the location only', async () => {
    const db = t.database.db;
    const device = await buildDevice(db, ids.user);
    await buildHistory(db, device.id);
    expect((await (await as('master')).post(url(device.id, '/reset-gps-data'))).statusCode).toBe(204);
    const after = await deviceSnapshot(db, device.id);
    expect(after.device).toMatchObject({ locationLat: null, locationLng: null, locationUpdatedAt: null });
    expect(after.measurements).toBe(3);
    expect((await (await as('user')).get(url(device.id))).json().location).toBeNull();
  });

  it('delete removes the device with its data; its ident is unknown to the ingest at once', async () => {
    const db = t.database.db;
    const secret = 'delete-me-secret';
    const device = await buildDevice(db, ids.user, { secretHash: hashToken(secret) });
    await buildHistory(db, device.id);
    const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
    const report = (messageId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/ingest/net/v1',
        payload: {
          identCode: device.identCode,
          secret,
          messageId,
          measuredAt: '2026-02-01T08:00:00Z',
          sensors: [{ sequence: 1, value: 100 }],
        },
      });
    // The ingest has looked the device up (and keeps it for a few seconds).
    expect((await report('before')).statusCode).toBe(200);

    expect((await (await as('master')).delete(url(device.id))).statusCode).toBe(204);
    expect(await db.select().from(devices).where(eq(devices.id, device.id))).toEqual([]);
    expect(await db.select().from(measurements).where(eq(measurements.sensorId, sensor.id))).toEqual([]);
    expect((await (await as('master')).get(url(device.id))).statusCode).toBe(404);
    expect((await (await as('master')).delete(url(device.id))).statusCode).toBe(404);

    const after = await report('after');
    expect(after.statusCode).toBe(404);
    expect(after.json().message).toMatch(/unassigned/);
  });
});
