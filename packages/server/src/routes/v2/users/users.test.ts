import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp, type TestClient } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { deviceAces, users } from '../../../db/schema.ts';

// Demo tree (seed/base-data.ts): master > admin > user > demo. Added here: a second admin below
// the master with a customer of its own, outside the demo admin's subtree.
let t: TestApp;
const ids: Record<string, number> = {};
const PASSWORD = 'Füllstand-Kessel-7193';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await buildUser(t.database.db, { username: 'other-admin', role: 'ROLE_ADMIN', parent: 'master' });
  await buildUser(db, { username: 'other-customer', parent: 'other-admin' });
  await buildUser(db, { username: 'customer-a', parent: 'admin' });
  await buildUser(db, { username: 'customer-a-sub', parent: 'customer-a' });
  for (const row of await db.select().from(users)) ids[row.username] = row.id;
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);
const anonymous = async () => {
  const client = await t.signIn('demo');
  await client.post('/api/v2/logout');
  return client;
};
const userRow = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0];
const fieldPaths = (body: { fieldErrors: { path: string; code: string }[] }) =>
  body.fieldErrors.map(({ path, code }) => `${path}:${code}`);
const newUser = (overrides: Record<string, unknown> = {}) => ({
  username: `kunde-${Math.random().toString(36).slice(2, 8)}`,
  parent_user_id: ids.user,
  role: 'ROLE_USER',
  active: true,
  password: PASSWORD,
  password_repeat: PASSWORD,
  ...overrides,
});
const loginOf = (row: { username: string; parentUserId: number | null; role: string }, overrides = {}) => ({
  username: row.username,
  parent_user_id: row.parentUserId,
  role: row.role,
  active: true,
  ...overrides,
});

describe('GET /v2/users/{id}', () => {
  it('shows a master everybody and an admin its subtree; others are 404, lower roles 403, anonymous 401', async () => {
    const master = await as('master');
    expect((await master.get(`/api/v2/users/${ids['other-customer']}`)).statusCode).toBe(200);
    const admin = await as('admin');
    const own = await admin.get(`/api/v2/users/${ids['customer-a']}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      username: 'customer-a',
      parentUser: { id: ids.admin, username: 'admin' },
      role: 'ROLE_USER',
      status: 'ok',
      active: true,
      childCount: 1,
      hasAuthToken: false,
    });
    expect((await admin.get(`/api/v2/users/${ids['other-customer']}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/v2/users/${ids.master}`)).statusCode).toBe(404);
    expect((await admin.get('/api/v2/users/999999')).statusCode).toBe(404);
    expect((await (await as('user')).get(`/api/v2/users/${ids.demo}`)).statusCode).toBe(403);
    expect((await (await as('demo')).get(`/api/v2/users/${ids.demo}`)).statusCode).toBe(403);
    expect((await (await anonymous()).get(`/api/v2/users/${ids.demo}`)).statusCode).toBe(401);
  });

  it('answers odd id spellings with 404', async () => {
    const admin = await as('admin');
    for (const id of ['0x6', '+6', '6.0', '06', '0', '99999999999', '%00'])
      expect((await admin.get(`/api/v2/users/${id}`)).statusCode, id).toBe(404);
  });
});

describe('POST /v2/users', () => {
  it('creates a user below one the admin manages, locked when not active', async () => {
    const admin = await as('admin');
    const response = await admin.post('/api/v2/users', newUser({ username: 'Heizung-Neu', active: false }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      username: 'Heizung-Neu',
      parentUserId: ids.user,
      status: 'locked',
    });
    expect(response.headers.location).toBe(`/api/v2/users/${response.json().id}`);
  });

  it('refuses a foreign parent, a role above the assignable ones, a taken name and a weak password, and creates nothing', async () => {
    const admin = await as('admin');
    const before = (await t.database.db.select().from(users)).length;
    const refused = [
      [newUser({ parent_user_id: ids['other-admin'] }), 'parentUserId:invalid'],
      [newUser({ parent_user_id: 999999 }), 'parentUserId:invalid'],
      [newUser({ role: 'ROLE_ADMIN' }), 'role:invalid'],
      [newUser({ role: 'ROLE_MASTER' }), 'role:invalid'],
      [newUser({ username: 'ADMIN' }), 'username:conflict'],
      [newUser({ username: 'abc' }), 'username:min_length'],
      [newUser({ password: 'tankportal', password_repeat: 'tankportal' }), 'password:invalid'],
      [newUser({ password_repeat: `${PASSWORD}!` }), 'passwordRepeat:password_mismatch'],
    ] as const;
    for (const [body, error] of refused) {
      const response = await admin.post('/api/v2/users', body);
      expect(response.statusCode, error).toBe(400);
      expect(fieldPaths(response.json()), error).toContain(error);
    }
    expect((await t.database.db.select().from(users)).length).toBe(before);
  });

  it('lets only admins and above create users', async () => {
    for (const username of ['user', 'demo'])
      expect((await (await as(username)).post('/api/v2/users', newUser())).statusCode).toBe(403);
    expect((await (await anonymous()).post('/api/v2/users', newUser())).statusCode).toBe(401);
  });
});

describe('PUT /v2/users/{id}/login', () => {
  it('renames and moves a user within the subtree', async () => {
    const admin = await as('admin');
    const sub = await buildUser(t.database.db, { username: 'move-me', parent: 'user' });
    const response = await admin.put(
      `/api/v2/users/${sub.id}/login`,
      loginOf(sub, { username: 'moved', parent_user_id: ids['customer-a'] }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: 'moved', parentUserId: ids['customer-a'] });
  });

  it('refuses a cycle, a parent outside the subtree and a raised role, and changes nothing', async () => {
    const admin = await as('admin');
    const customer = await userRow(ids['customer-a']);
    const refused = [
      [loginOf(customer, { parent_user_id: ids['customer-a-sub'] }), 'parentUserId:invalid'],
      [loginOf(customer, { parent_user_id: customer.id }), 'parentUserId:invalid'],
      [loginOf(customer, { parent_user_id: ids['other-admin'] }), 'parentUserId:invalid'],
      [loginOf(customer, { role: 'ROLE_ADMIN' }), 'role:invalid'],
      [loginOf(customer, { username: 'Master' }), 'username:conflict'],
    ] as const;
    for (const [body, error] of refused) {
      const response = await admin.put(`/api/v2/users/${customer.id}/login`, body);
      expect(response.statusCode, error).toBe(400);
      expect(fieldPaths(response.json()), error).toContain(error);
    }
    expect(await userRow(customer.id)).toEqual(customer);
  });

  it('keeps an admin away from itself and from users outside its subtree', async () => {
    const admin = await as('admin');
    const self = await userRow(ids.admin);
    expect((await admin.put(`/api/v2/users/${self.id}/login`, loginOf(self))).statusCode).toBe(403);
    const foreign = await userRow(ids['other-customer']);
    const response = await admin.put(
      `/api/v2/users/${foreign.id}/login`,
      loginOf(foreign, { active: false }),
    );
    expect(response.statusCode).toBe(404);
    expect((await userRow(foreign.id)).status).toBe('ok');
  });

  it("ends a locked user's session and API token on their next request", async () => {
    const locked = await buildUser(t.database.db, { username: 'to-be-locked', parent: 'user' });
    const session = await as('to-be-locked');
    expect((await session.get('/api/v2/users/me')).statusCode).toBe(200);
    const master = await as('master');
    const { authToken } = (await master.post(`/api/v2/users/${locked.id}/auth-token`)).json();
    const bearer = { authorization: `Bearer ${authToken}` };
    expect((await t.app.inject({ url: '/api/v2/users/me', headers: bearer })).statusCode).toBe(200);

    const admin = await as('admin');
    const response = await admin.put(`/api/v2/users/${locked.id}/login`, loginOf(locked, { active: false }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'locked', active: false });
    expect((await session.get('/api/v2/users/me')).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v2/users/me', headers: bearer })).statusCode).toBe(401);
  });

  it('sets a new password only when one is typed', async () => {
    const admin = await as('admin');
    const row = await buildUser(t.database.db, { username: 'new-password', parent: 'user' });
    expect(
      (await admin.put(`/api/v2/users/${row.id}/login`, loginOf(row, { password: '' }))).statusCode,
    ).toBe(200);
    expect((await userRow(row.id)).passwordHash).toBe(row.passwordHash);
    const changed = await admin.put(
      `/api/v2/users/${row.id}/login`,
      loginOf(row, { password: PASSWORD, password_repeat: PASSWORD }),
    );
    expect(changed.statusCode).toBe(200);
    await t.signIn('new-password', PASSWORD);
  });
});

describe('PUT /v2/users/{id}/basedata and /comment', () => {
  it('stores contact and address parts and the comment', async () => {
    const admin = await as('admin');
    const id = ids['customer-a'];
    const response = await admin.put(`/api/v2/users/${id}/basedata`, {
      contact: {
        legal_type: 'company',
        company: 'Heizöl Meier GmbH',
        first_name: 'Anna',
        email: 'anna@meier.example',
      },
      address: {
        street: 'Hauptstraße',
        street_number: '5a',
        postal_code: '36037',
        city: 'Fulda',
        country_code: 'de',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Anna',
      company: 'Heizöl Meier GmbH',
      contact: { legalType: 'company', email: 'anna@meier.example', lastName: null },
      address: { street: 'Hauptstraße', countryCode: 'DE' },
    });
    const comment = await admin.put(`/api/v2/users/${id}/comment`, { content: 'Zahlt per Lastschrift' });
    expect(comment.json().comment).toBe('Zahlt per Lastschrift');
  });

  it('refuses over-long parts at their fields and changes nothing', async () => {
    const admin = await as('admin');
    const before = await userRow(ids['customer-a']);
    const response = await admin.put(`/api/v2/users/${ids['customer-a']}/basedata`, {
      contact: { email: 'no-mail', tax_id: 'x'.repeat(33) },
      address: { street: 'x'.repeat(129), postal_code: '123456789', city: 'Fulda' },
    });
    expect(response.statusCode).toBe(400);
    expect(fieldPaths(response.json())).toEqual(
      expect.arrayContaining([
        'contact.email:invalid',
        'contact.taxId:max_length',
        'address.street:max_length',
      ]),
    );
    const nul = await admin.put(`/api/v2/users/${ids['customer-a']}/basedata`, {
      contact: {},
      address: { city: 'Fulda\u0000' },
    });
    expect(fieldPaths(nul.json())).toEqual(['address.city:invalid']);
    expect(await userRow(ids['customer-a'])).toEqual(before);
  });
});

describe('DELETE /v2/users/{id}', () => {
  it('refuses while the user has sub-users or devices, and says which', async () => {
    const admin = await as('admin');
    const withSub = await admin.delete(`/api/v2/users/${ids['customer-a']}`);
    expect(withSub.statusCode).toBe(409);
    expect(fieldPaths(withSub.json())).toEqual(['subUsers:conflict']);
    const owner = await buildUser(t.database.db, { username: 'owner', parent: 'user' });
    await buildDevice(t.database.db, owner.id);
    const withDevice = await admin.delete(`/api/v2/users/${owner.id}`);
    expect(withDevice.statusCode).toBe(409);
    expect(withDevice.json().fieldErrors).toEqual([
      { path: 'devices', code: 'conflict', args: { count: 1 } },
    ]);
    expect((await userRow(owner.id)).status).toBe('ok');
  });

  it('deletes a user without sub-users and devices: its sessions, token and access entries end', async () => {
    const db = t.database.db;
    const leaving = await buildUser(db, { username: 'leaving', parent: 'user' });
    const device = await buildDevice(db, ids.admin);
    await grant(db, device.id, leaving.id, ['VIEW_STATUS']);
    const session = await as('leaving');
    const admin = await as('admin');
    expect((await admin.delete(`/api/v2/users/${leaving.id}`)).statusCode).toBe(204);
    expect((await session.get('/api/v2/users/me')).statusCode).toBe(401);
    expect((await admin.get(`/api/v2/users/${leaving.id}`)).statusCode).toBe(404);
    expect(await db.select().from(deviceAces).where(eq(deviceAces.userId, leaving.id))).toEqual([]);
    expect((await userRow(leaving.id)).status).toBe('deleted');
  });

  it('refuses users outside the subtree (404), itself (403) and lower roles (403), deleting nothing', async () => {
    const admin = await as('admin');
    expect((await admin.delete(`/api/v2/users/${ids['other-customer']}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/v2/users/${ids.admin}`)).statusCode).toBe(403);
    expect((await (await as('user')).delete(`/api/v2/users/${ids.demo}`)).statusCode).toBe(403);
    for (const username of ['other-customer', 'admin', 'demo'])
      expect((await userRow(ids[username])).status).toBe('ok');
  });
});

describe('PUT /v2/users/{id}/sync-access (master)', () => {
  it("replaces the target's access entries with the source's in one go", async () => {
    const db = t.database.db;
    const source = await buildUser(db, { username: 'sync-source', parent: 'user' });
    const target = await buildUser(db, { username: 'sync-target', parent: 'user' });
    const [a, b] = [await buildDevice(db, ids.admin), await buildDevice(db, ids.admin)];
    const targetsOwn = await buildDevice(db, target.id);
    await grant(db, a.id, source.id, ['VIEW_STATUS', 'QUERY']);
    await grant(db, targetsOwn.id, source.id, ['VIEW_STATUS']);
    await grant(db, b.id, target.id, ['VIEW_STATUS']);
    const master = await as('master');
    const response = await master.put(`/api/v2/users/${target.id}/sync-access`, {
      sync_with_user_id: source.id,
    });
    expect(response.statusCode).toBe(200);
    // The target's entry on b went; of the source's two, the one on the target's own device is left out.
    expect(response.json()).toEqual({ removed: 1, copied: 1 });
    const entries = await db.select().from(deviceAces).where(eq(deviceAces.userId, target.id));
    expect(entries.map(({ deviceId, permissions }) => ({ deviceId, permissions }))).toEqual([
      { deviceId: a.id, permissions: ['VIEW_STATUS', 'QUERY'] },
    ]);
    // A source that only owns devices has no entries to copy: the answer says nothing was copied.
    const owner = await buildUser(db, { username: 'sync-owner', parent: 'user' });
    await buildDevice(db, owner.id);
    const fromOwner = await master.put(`/api/v2/users/${target.id}/sync-access`, {
      sync_with_user_id: owner.id,
    });
    expect(fromOwner.json()).toEqual({ removed: 1, copied: 0 });
    expect(await db.select().from(deviceAces).where(eq(deviceAces.userId, target.id))).toEqual([]);
    const self = await master.put(`/api/v2/users/${target.id}/sync-access`, { sync_with_user_id: target.id });
    expect(fieldPaths(self.json())).toEqual(['syncWithUserId:invalid']);
    const admin = await as('admin');
    expect(
      (await admin.put(`/api/v2/users/${target.id}/sync-access`, { sync_with_user_id: source.id }))
        .statusCode,
    ).toBe(403);
  });
});

describe('GET /v2/users/{id}/logins (master)', () => {
  it('lists the login history newest first, for masters only', async () => {
    await t.signIn('customer-a');
    const failed = await t.signIn('demo');
    await failed.post('/api/v2/login', { username: 'customer-a', password: 'wrong-password' });
    const master: TestClient = await as('master');
    const response = await master.get(`/api/v2/users/${ids['customer-a']}/logins`);
    expect(response.statusCode).toBe(200);
    const results = response.json().map((entry: { result: string }) => entry.result);
    expect(results.slice(0, 2)).toEqual(['invalidCredentials', 'success']);
    expect((await (await as('admin')).get(`/api/v2/users/${ids['customer-a']}/logins`)).statusCode).toBe(403);
  });
});

describe('GET /v2/devices?user_id= (the access page of a user)', () => {
  it("lists the devices a user owns or holds an entry on, with that entry's id", async () => {
    const db = t.database.db;
    const holder = await buildUser(db, { username: 'access-holder', parent: 'user' });
    const owned = await buildDevice(db, holder.id);
    const shared = await buildDevice(db, ids.admin);
    await buildDevice(db, ids.admin);
    const ace = await grant(db, shared.id, holder.id, ['VIEW_STATUS', 'EDIT']);
    const admin = await as('admin');
    const response = await admin.get(`/api/v2/devices?user_id=${holder.id}&per_page=100&page=1`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('2');
    const rows = response.json() as { id: number; userPermissions: unknown; permissions: string[] }[];
    expect(rows.map(({ id, userPermissions }) => ({ id, userPermissions }))).toEqual([
      { id: owned.id, userPermissions: null },
      { id: shared.id, userPermissions: { aceId: ace.id, permissions: ['VIEW_STATUS', 'EDIT'] } },
    ]);
    expect(rows[1].permissions).toContain('DELETE');
    const granted = await admin.get(`/api/v2/devices/ids?user_id=${holder.id}`);
    expect(granted.json()).toEqual([owned.id, shared.id]);
  });

  it('offers a user only the devices it neither owns nor holds an entry on (not_reached_by)', async () => {
    const db = t.database.db;
    const holder = await buildUser(db, { username: 'access-offered', parent: 'user' });
    const owned = await buildDevice(db, holder.id);
    const shared = await buildDevice(db, ids.admin);
    const free = await buildDevice(db, ids.admin);
    await grant(db, shared.id, holder.id, ['VIEW_STATUS']);
    const admin = await as('admin');
    const offered = (
      await admin.get(`/api/v2/devices/ids?not_reached_by=${holder.id}&permission=DELETE`)
    ).json();
    expect(offered).toContain(free.id);
    expect(offered).not.toContain(owned.id);
    expect(offered).not.toContain(shared.id);
    // The picker's search: the device found by its number, unless the user reaches it already.
    const found = async (id: number) =>
      (await admin.get(`/api/v2/devices?not_reached_by=${holder.id}&search_term=${id}`))
        .json()
        .map((device: { id: number }) => device.id);
    expect(await found(free.id)).toContain(free.id);
    expect(await found(shared.id)).not.toContain(shared.id);
  });

  it("keeps a user's entries from those who do not manage it (404)", async () => {
    const other = await as('other-admin');
    expect((await other.get(`/api/v2/devices?user_id=${ids['customer-a']}`)).statusCode).toBe(404);
    expect((await other.get(`/api/v2/devices/ids?user_id=${ids['customer-a']}`)).statusCode).toBe(404);
    expect((await other.get(`/api/v2/devices?not_reached_by=${ids['customer-a']}`)).statusCode).toBe(404);
    const user = await as('user');
    expect((await user.get(`/api/v2/devices?user_id=${ids.user}`)).statusCode).toBe(200);
  });
});

describe('every users call, by who asks', () => {
  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  // Each call on `other-customer` (below `other-admin`, outside the demo admin's subtree).
  const calls = (id: number): [Method, string, unknown, 'admin' | 'master'][] => [
    ['GET', `/api/v2/users/${id}`, undefined, 'admin'],
    [
      'PUT',
      `/api/v2/users/${id}/login`,
      { username: 'x-renamed', parent_user_id: id, role: 'ROLE_USER', active: false },
      'admin',
    ],
    ['PUT', `/api/v2/users/${id}/basedata`, { contact: { company: 'Changed' }, address: {} }, 'admin'],
    ['PUT', `/api/v2/users/${id}/comment`, { content: 'changed' }, 'admin'],
    ['DELETE', `/api/v2/users/${id}`, undefined, 'admin'],
    ['PUT', `/api/v2/users/${id}/sync-access`, { sync_with_user_id: ids.user }, 'master'],
    ['GET', `/api/v2/users/${id}/logins`, undefined, 'master'],
    ['POST', `/api/v2/users/${id}/auth-token`, undefined, 'master'],
    ['DELETE', `/api/v2/users/${id}/auth-token`, undefined, 'master'],
  ];

  it('answers anonymous 401, user and demo 403, an admin outside its subtree 404 (403 on master calls), and changes nothing', async () => {
    const db = t.database.db;
    const target = ids['other-customer'];
    const device = await buildDevice(db, ids['other-admin']);
    await grant(db, device.id, target, ['VIEW_STATUS']);
    const before = await userRow(target);
    const acesBefore = await db.select().from(deviceAces).where(eq(deviceAces.userId, target));
    const askers: [string, TestClient, (minimum: 'admin' | 'master') => number][] = [
      ['anonymous', await anonymous(), () => 401],
      ['demo', await as('demo'), () => 403],
      ['user', await as('user'), () => 403],
      ['admin', await as('admin'), (minimum) => (minimum === 'master' ? 403 : 404)],
    ];
    for (const [who, client, expected] of askers)
      for (const [method, url, body, minimum] of calls(target)) {
        const response = await client.request(method, url, body);
        expect(response.statusCode, `${who} ${method} ${url}`).toBe(expected(minimum));
      }
    expect(await userRow(target)).toEqual(before);
    expect(await db.select().from(deviceAces).where(eq(deviceAces.userId, target))).toEqual(acesBefore);
  });
});
