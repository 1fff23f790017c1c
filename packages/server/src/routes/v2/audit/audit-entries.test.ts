import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser } from '../../../testing/factories.ts';
import { users } from '../../../db/schema.ts';

// The record beyond one device: the masters' page with its filters and export, and a user's
// changes tab for the admins above that user.
let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0]!;
  const [admin, user] = await Promise.all([byName('admin'), byName('user')]);
  const stranger = await buildUser(db, { username: 'entries-stranger', parent: 'master' });
  Object.assign(ids, { admin: admin.id, user: user.id, stranger: stranger.id });
  ids.tank = (await buildDevice(db, user.id, { name: 'Lagertank' })).id;
  ids.strangerTank = (await buildDevice(db, stranger.id, { name: 'Fremd' })).id;
  // Three changes: the admin renames the user's tank and comments it, the master comments the stranger's.
  const admin_ = await t.signIn('admin');
  const address = {
    street: null,
    street_number: null,
    postal_code: null,
    city: 'Kassel',
    country_code: 'DE',
  };
  await admin_.put(`/api/v2/devices/${ids.tank}/metadata`, {
    name: 'Lagertank Nord',
    project: null,
    address,
  });
  await admin_.put(`/api/v2/devices/${ids.tank}/comment`, { content: 'Peilstab defekt' });
  await (await t.signIn('master')).put(`/api/v2/devices/${ids.strangerTank}/comment`, { content: 'ok' });
});
afterAll(() => t.close());

describe('the masters’ page of the record', () => {
  it('filters by who, action, device and time, newest first, and says whether more follow', async () => {
    const master = await t.signIn('master');
    const all = await master.get('/api/v2/audit-entries');
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-has-more-results']).toBe('0');
    expect(all.json().map((entry: { action: string }) => entry.action)).toEqual([
      'update_comment',
      'update_comment',
      'update_metadata',
    ]);

    const byAdmin = (await master.get(`/api/v2/audit-entries?user_id=${ids.admin}`)).json();
    expect(byAdmin).toHaveLength(2);
    const comments = await master.get(`/api/v2/audit-entries?action=update_comment&device_id=${ids.tank}`);
    expect(comments.json()).toMatchObject([{ user: { username: 'admin' }, entityId: ids.tank }]);
    const future = await master.get('/api/v2/audit-entries?from=2999-01-01');
    expect(future.json()).toEqual([]);
    const firstOfThree = await master.get('/api/v2/audit-entries?size=1');
    expect(firstOfThree.headers['x-has-more-results']).toBe('1');
    expect(firstOfThree.json()).toEqual([all.json()[0]]);
  });

  it('refuses filters it does not know, and anyone below a master', async () => {
    const master = await t.signIn('master');
    const bad = await master.get('/api/v2/audit-entries?action=hack&entity_type=everything');
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .fieldErrors.map((error: { path: string }) => error.path)
        .sort(),
    ).toEqual(['action', 'entityType']);
    expect((await (await t.signIn('admin')).get('/api/v2/audit-entries')).statusCode).toBe(403);
    expect((await (await t.signIn('admin')).get('/api/v2/audit-entries/export')).statusCode).toBe(403);
  });

  it('exports the selection in the language asked for', async () => {
    const master = await t.signIn('master');
    const csv = await master.get(
      `/api/v2/audit-entries/export?file_format=csv&locale=de&user_id=${ids.admin}`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('Änderungen');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('Kommentar geändert');
    expect(lines[2]).toContain('name: Lagertank → Lagertank Nord');
    const xlsx = await master.get('/api/v2/audit-entries/export?file_format=xlsx&locale=en');
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('a user’s changes tab', () => {
  it('shows an admin what was changed about a user of its subtree and what that user changed', async () => {
    const admin = await t.signIn('admin');
    const own = await admin.get(`/api/v2/users/${ids.admin}/changes`);
    expect(own.statusCode).toBe(200);
    expect(own.headers['x-total-count']).toBe('2');
    expect((await admin.get(`/api/v2/users/${ids.stranger}/changes`)).statusCode).toBe(404);
    expect((await (await t.signIn('user')).get(`/api/v2/users/${ids.user}/changes`)).statusCode).toBe(403);
  });
});
