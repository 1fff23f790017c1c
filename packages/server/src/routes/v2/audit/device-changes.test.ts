import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { auditEntries, users } from '../../../db/schema.ts';

// A device's changes tab: every change of its base data, notes, owner and access entries is
// recorded with who made it, from where and what changed; a refused change leaves no record; while
// impersonating, both users are named; only those who may view the configuration may read it.
let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const viewer = await buildUser(db, { username: 'changes-viewer', parent: 'master' });
  const statusOnly = await buildUser(db, { username: 'changes-status-only', parent: 'master' });
  const outsider = await buildUser(db, {
    username: 'changes-outsider',
    role: 'ROLE_ADMIN',
    parent: 'master',
  });
  Object.assign(ids, { user: user!.id, viewer: viewer.id, outsider: outsider.id, statusOnly: statusOnly.id });
  ids.tank = (await buildDevice(db, user!.id, { name: 'Hoftank', city: 'Kassel' })).id;
  await grant(db, ids.tank, viewer.id, ['VIEW_STATUS', 'VIEW_CONFIGURATION']);
  await grant(db, ids.tank, statusOnly.id, ['VIEW_STATUS']);
});
afterAll(() => t.close());

const changesUrl = () => `/api/v2/devices/${ids.tank}/changes`;
const recordCount = async () => (await t.database.db.select().from(auditEntries)).length;
const metadata = (name: string) => ({
  name,
  project: null,
  address: { street: null, street_number: null, postal_code: null, city: 'Kassel', country_code: 'DE' },
});

describe("a device's changes", () => {
  it('records a base data change with its author, address and the old and new name', async () => {
    const admin = await t.signIn('admin');
    expect(
      (await admin.put(`/api/v2/devices/${ids.tank}/metadata`, metadata('Neuer Hoftank'))).statusCode,
    ).toBe(200);
    const answer = await admin.get(changesUrl());
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-total-count']).toBe('1');
    const [entry] = answer.json();
    expect(entry).toMatchObject({
      user: { username: 'admin' },
      realUser: null,
      address: '127.0.0.1',
      entityType: 'device',
      entityId: ids.tank,
      action: 'update_metadata',
      changes: { name: { old: 'Hoftank', new: 'Neuer Hoftank' } },
    });
    // Fields sent unchanged are not named.
    expect(Object.keys(entry.changes)).toEqual(['name']);
  });

  it('keeps no record of a refused change', async () => {
    const admin = await t.signIn('admin');
    const before = await recordCount();
    // A move to a user outside the admin's subtree is refused after the device check passed.
    const refused = await admin.put(`/api/v2/devices/${ids.tank}/metadata`, {
      ...metadata('Nicht gespeichert'),
      user_id: ids.outsider,
    });
    expect(refused.statusCode).toBe(403);
    expect(await recordCount()).toBe(before);
    expect((await admin.get(`/api/v2/devices/${ids.tank}`)).json()).toMatchObject({ name: 'Neuer Hoftank' });
  });

  it('names both users while an admin acts as a customer', async () => {
    const admin = await t.signIn('admin');
    expect((await admin.get('/api/v2/users/me?_impersonate_user=user')).statusCode).toBe(200);
    expect(
      (await admin.put(`/api/v2/devices/${ids.tank}/comment`, { content: 'Füllstand prüfen' })).statusCode,
    ).toBe(200);
    const [newest] = (await admin.get(changesUrl())).json();
    expect(newest).toMatchObject({
      user: { id: ids.user, username: 'user' },
      realUser: { username: 'admin' },
      action: 'update_comment',
      changes: { comment: { old: null, new: 'Füllstand prüfen' } },
    });
  });

  it('records access entries granted and revoked, with the user they concern', async () => {
    const master = await t.signIn('master');
    const granted = await master.post(`/api/v2/devices/${ids.tank}/aces`, {
      user_id: ids.outsider,
      permissions: ['VIEW_STATUS'],
    });
    expect(granted.statusCode).toBe(201);
    const aceId = granted.json().id as number;
    expect((await master.delete(`/api/v2/devices/${ids.tank}/aces/${aceId}`)).statusCode).toBe(204);
    const [revoked, grantedEntry] = (await master.get(changesUrl())).json();
    expect(grantedEntry).toMatchObject({
      entityType: 'device_access',
      entityId: aceId,
      action: 'grant',
      changes: {
        userId: { old: null, new: ids.outsider },
        'permissions.1': { old: null, new: 'VIEW_STATUS' },
      },
    });
    expect(revoked).toMatchObject({ entityId: aceId, action: 'revoke', user: { username: 'master' } });
  });

  it('is read by those who may view the configuration, and hidden from others', async () => {
    expect((await (await t.signIn('changes-viewer')).get(changesUrl())).statusCode).toBe(200);
    expect((await (await t.signIn('changes-status-only')).get(changesUrl())).statusCode).toBe(403);
    expect((await (await t.signIn('changes-outsider')).get(changesUrl())).statusCode).toBe(404);
  });

  it('pages the record newest first', async () => {
    const master = await t.signIn('master');
    const all = (await master.get(changesUrl())).json() as { id: number }[];
    const second = await master.get(`${changesUrl()}?page=2&size=1`);
    expect(second.json()).toEqual([all[1]]);
    expect(second.headers['x-total-count']).toBe(String(all.length));
  });
});
