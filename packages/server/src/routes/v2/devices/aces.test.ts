import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { deviceAces, users } from '../../../db/schema.ts';
import { isUniqueViolation } from '../../../repositories/unique-violation.ts';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const [user, admin, demo] = await Promise.all(['user', 'admin', 'demo'].map(byName));
  Object.assign(ids, { user: user.id, admin: admin.id, demo: demo.id });
  ids.sub = (await buildUser(db, { username: 'ace-sub', parent: 'user' })).id;
  ids.sub2 = (await buildUser(db, { username: 'ace-sub2', parent: 'user' })).id;
  ids.manager = (await buildUser(db, { username: 'ace-manager', parent: 'admin' })).id;
  ids.managerSub = (await buildUser(db, { username: 'ace-manager-sub', parent: 'ace-manager' })).id;
  ids.editor = (await buildUser(db, { username: 'ace-editor', parent: 'admin' })).id;
  ids.other = (await buildUser(db, { username: 'ace-other', parent: 'master' })).id;
  ids.tank = (await buildDevice(db, user.id)).id;
  ids.otherTank = (await buildDevice(db, ids.other)).id;
  // The manager holds the access-managing permission by an entry; the editor everything but it.
  ids.managerAce = (await grant(db, ids.tank, ids.manager, ['VIEW_STATUS', 'DELETE'])).id;
  ids.editorAce = (
    await grant(db, ids.tank, ids.editor, ['VIEW_STATUS', 'VIEW_CONFIGURATION', 'EDIT', 'CONFIGURATION'])
  ).id;
  // Demo: DELETE on paper, read-only in fact.
  ids.demoAce = (await grant(db, ids.tank, demo.id, ['VIEW_STATUS', 'DELETE'])).id;
  ids.otherAce = (await grant(db, ids.otherTank, ids.sub, ['VIEW_STATUS'])).id;
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const allAces = () => t.database.db.select().from(deviceAces).orderBy(asc(deviceAces.id));
const base = (id: number) => `/api/v2/devices/${id}/aces`;

describe('GET /v2/devices/{id}/aces', () => {
  it('lists the entries by username', async () => {
    const response = await (await as('user')).get(base(ids.tank));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: ids.editorAce, userId: ids.editor, username: 'ace-editor', permissions: expect.any(Array) },
      {
        id: ids.managerAce,
        userId: ids.manager,
        username: 'ace-manager',
        permissions: ['VIEW_STATUS', 'DELETE'],
      },
      { id: ids.demoAce, userId: ids.demo, username: 'demo', permissions: ['VIEW_STATUS', 'DELETE'] },
    ]);
    const one = await (await as('ace-manager')).get(`${base(ids.tank)}/${ids.editorAce}`);
    expect(one.json()).toMatchObject({ id: ids.editorAce, username: 'ace-editor' });
  });
});

describe('POST /v2/devices/{id}/aces', () => {
  it('grants a managed user; a name given twice counts once', async () => {
    const client = await as('user');
    const response = await client.post(base(ids.tank), {
      user_id: ids.sub,
      permissions: ['VIEW_STATUS', 'EXPORT', 'VIEW_STATUS'],
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(response.headers.location).toBe(`${base(ids.tank)}/${body.id}`);
    expect(body).toEqual({
      id: body.id,
      userId: ids.sub,
      username: 'ace-sub',
      permissions: ['VIEW_STATUS', 'EXPORT'],
    });
    const [row] = await t.database.db.select().from(deviceAces).where(eq(deviceAces.id, body.id));
    expect(row).toMatchObject({
      deviceId: ids.tank,
      userId: ids.sub,
      permissions: ['VIEW_STATUS', 'EXPORT'],
    });
  });

  it('refuses self, the owner, a user granted already, an unmanaged user, no permission', async () => {
    const before = await allAces();
    const cases: [string, unknown, unknown[]][] = [
      [
        'ace-manager',
        { user_id: ids.manager, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: { reason: 'self' } }],
      ],
      [
        'user',
        { user_id: ids.user, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: { reason: 'self' } }],
      ],
      [
        'ace-manager',
        { user_id: ids.user, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: { reason: 'owner' } }],
      ],
      [
        'admin',
        { user_id: ids.user, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: { reason: 'owner' } }],
      ],
      [
        'user',
        { user_id: ids.demo, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'conflict', args: {} }],
      ],
      [
        'admin',
        { user_id: ids.manager, permissions: ['EDIT'] },
        [{ path: 'userId', code: 'conflict', args: {} }],
      ],
      // The manager manages only itself and its own sub-user, not the owner's sub-users.
      [
        'ace-manager',
        { user_id: ids.sub2, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: {} }],
      ],
      [
        'user',
        { user_id: ids.other, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: {} }],
      ],
      [
        'user',
        { user_id: ids.admin, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: {} }],
      ],
      [
        'user',
        { user_id: 2_147_483_647, permissions: ['VIEW_STATUS'] },
        [{ path: 'userId', code: 'invalid', args: {} }],
      ],
      ['user', { user_id: ids.sub2, permissions: [] }, [{ path: 'permissions', code: 'required', args: {} }]],
      ['user', { user_id: ids.sub2 }, [{ path: 'permissions', code: 'required', args: {} }]],
      [
        'user',
        { user_id: ids.sub2, permissions: ['VIEW_STATUS', 'FLY'] },
        [{ path: 'permissions.1', code: 'invalid', args: {} }],
      ],
      ['user', { permissions: ['VIEW_STATUS'] }, [{ path: 'userId', code: 'required', args: {} }]],
    ];
    for (const [username, body, fieldErrors] of cases) {
      const response = await (await as(username)).post(base(ids.tank), body);
      expect(response.statusCode, `${username} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json().fieldErrors).toEqual(fieldErrors);
    }
    expect(await allAces()).toEqual(before);
    // Just inside: one permission, a user the manager manages.
    const inside = await (
      await as('ace-manager')
    ).post(base(ids.tank), {
      user_id: ids.managerSub,
      permissions: ['VIEW_STATUS'],
    });
    expect(inside.statusCode).toBe(201);
  });
});

describe('PUT and DELETE /v2/devices/{id}/aces/{aceId}', () => {
  it('changes the permissions, and moves an entry to another user by the same rules', async () => {
    const client = await as('user');
    const ace = await grant(t.database.db, ids.tank, ids.sub2, ['VIEW_STATUS']);
    const url = `${base(ids.tank)}/${ace.id}`;
    const changed = await client.put(url, { permissions: ['VIEW_STATUS', 'QUERY'] });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({
      id: ace.id,
      userId: ids.sub2,
      username: 'ace-sub2',
      permissions: ['VIEW_STATUS', 'QUERY'],
    });
    const same = await client.put(url, { user_id: ids.sub2, permissions: ['EXPORT'] });
    expect(same.json().permissions).toEqual(['EXPORT']);

    const before = await allAces();
    const cases: [unknown, unknown[]][] = [
      [{ permissions: [] }, [{ path: 'permissions', code: 'required', args: {} }]],
      [
        { user_id: ids.user, permissions: ['EXPORT'] },
        [{ path: 'userId', code: 'invalid', args: { reason: 'self' } }],
      ],
      [{ user_id: ids.sub, permissions: ['EXPORT'] }, [{ path: 'userId', code: 'conflict', args: {} }]],
      [{ user_id: ids.other, permissions: ['EXPORT'] }, [{ path: 'userId', code: 'invalid', args: {} }]],
    ];
    for (const [body, fieldErrors] of cases) {
      const response = await client.put(url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().fieldErrors).toEqual(fieldErrors);
    }
    expect(await allAces()).toEqual(before);

    // The admin is above the user: not managed by it.
    const up = await client.put(url, { user_id: ids.admin, permissions: ['EXPORT'] });
    expect(up.json().fieldErrors).toEqual([{ path: 'userId', code: 'invalid', args: {} }]);
    expect(await allAces()).toEqual(before);
    const fresh = await buildUser(t.database.db, { username: 'ace-fresh', parent: 'user' });
    const movedOk = await client.put(url, { user_id: fresh.id, permissions: ['EXPORT'] });
    expect(movedOk.json()).toMatchObject({ id: ace.id, userId: fresh.id, username: 'ace-fresh' });

    expect((await client.delete(url)).statusCode).toBe(204);
    expect(await t.database.db.select().from(deviceAces).where(eq(deviceAces.id, ace.id))).toEqual([]);
    expect((await client.get(url)).statusCode).toBe(404);
  });

  it('answers 403 to editing or deleting one’s own entry, changing nothing', async () => {
    const client = await as('ace-manager');
    const before = await allAces();
    const own = `${base(ids.tank)}/${ids.managerAce}`;
    expect((await client.put(own, { permissions: ['VIEW_STATUS', 'DELETE', 'EDIT'] })).statusCode).toBe(403);
    expect((await client.delete(own)).statusCode).toBe(403);
    expect((await client.get(own)).statusCode).toBe(200);
    expect(await allAces()).toEqual(before);
    // Another's entry it may change.
    const other = await client.put(`${base(ids.tank)}/${ids.editorAce}`, {
      permissions: ['VIEW_STATUS', 'EDIT'],
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('who may manage access', () => {
  const body = () => ({ user_id: ids.sub2, permissions: ['VIEW_STATUS'] });

  it('answers 404 for another customer’s device and for an entry of another device', async () => {
    const client = await as('user');
    const before = await allAces();
    const foreign = `${base(ids.otherTank)}/${ids.otherAce}`;
    expect((await client.get(base(ids.otherTank))).statusCode).toBe(404);
    expect((await client.get(foreign)).statusCode).toBe(404);
    expect((await client.post(base(ids.otherTank), body())).statusCode).toBe(404);
    expect((await client.put(foreign, { permissions: ['EDIT'] })).statusCode).toBe(404);
    expect((await client.delete(foreign)).statusCode).toBe(404);
    const crossed = `${base(ids.tank)}/${ids.otherAce}`;
    expect((await client.get(crossed)).statusCode).toBe(404);
    expect((await client.put(crossed, { permissions: ['EDIT'] })).statusCode).toBe(404);
    expect((await client.delete(crossed)).statusCode).toBe(404);
    expect((await client.get(`${base(ids.tank)}/0`)).statusCode).toBe(404);
    expect(await allAces()).toEqual(before);
  });

  it('answers 403 without DELETE (also to demo accounts) on every call, changing nothing', async () => {
    const before = await allAces();
    const url = `${base(ids.tank)}/${ids.managerAce}`;
    for (const username of ['ace-editor', 'demo']) {
      const client = await as(username);
      expect((await client.get(base(ids.tank))).statusCode).toBe(403);
      expect((await client.get(url)).statusCode).toBe(403);
      expect((await client.post(base(ids.tank), body())).statusCode).toBe(403);
      expect((await client.put(url, { permissions: ['EDIT'] })).statusCode).toBe(403);
      expect((await client.delete(url)).statusCode).toBe(403);
    }
    expect(await allAces()).toEqual(before);
  });
});

describe('a lost race', () => {
  it('is recognised as a unique violation (the routes then answer 400 conflict)', async () => {
    const error = await grant(t.database.db, ids.tank, ids.manager, ['VIEW_STATUS']).catch(
      (caught) => caught,
    );
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });
});
