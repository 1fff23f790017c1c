import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildUser } from '../../../testing/factories.ts';
import { users } from '../../../db/schema.ts';
import { userManagedBy } from '../../../policies/user-tree.ts';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  for (const row of await db.select().from(users)) ids[row.username] = row.id;
  // Below the demo user: a named sub-user, one known only by its company, and a deleted one.
  const sub = await buildUser(db, { username: 'lookup-sub', parent: 'user' });
  await db.update(users).set({ firstName: 'Sabine', lastName: 'Sub' }).where(eq(users.id, sub.id));
  const firm = await buildUser(db, { username: 'lookup-firm', parent: 'lookup-sub' });
  await db.update(users).set({ company: 'Firma 50%_AG' }).where(eq(users.id, firm.id));
  const gone = await buildUser(db, { username: 'lookup-gone', parent: 'user' });
  await db.update(users).set({ status: 'deleted' }).where(eq(users.id, gone.id));
  const otherAdmin = await buildUser(db, {
    username: 'lookup-other-admin',
    role: 'ROLE_ADMIN',
    parent: 'master',
  });
  await buildUser(db, { username: 'lookup-other', parent: 'lookup-other-admin' });
  await buildUser(db, { username: 'lookup-app', role: 'ROLE_APP_USER', parent: 'user' });
  for (const row of await db.select().from(users)) ids[row.username] = row.id;
  ids.otherAdmin = otherAdmin.id;
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const usernames = (body: { username: string }[]) => body.map((user) => user.username);

describe('GET /v2/users (lookup)', () => {
  it('gives a user itself and its subtree, by username, without deleted users', async () => {
    const response = await (await as('user')).get('/api/v2/users');
    expect(response.statusCode).toBe(200);
    expect(usernames(response.json())).toEqual(['demo', 'lookup-app', 'lookup-firm', 'lookup-sub', 'user']);
    expect(response.json()).toContainEqual({
      id: ids['lookup-sub'],
      username: 'lookup-sub',
      name: 'Sabine Sub',
    });
    expect(response.json()).toContainEqual({
      id: ids['lookup-firm'],
      username: 'lookup-firm',
      name: 'Firma 50%_AG',
    });
    expect(response.json()).toContainEqual({ id: ids['lookup-app'], username: 'lookup-app', name: '' });
  });

  it('gives an admin its subtree only, a master everybody not deleted', async () => {
    const admin = usernames((await (await as('admin')).get('/api/v2/users')).json());
    expect(admin).toContain('admin');
    expect(admin).toContain('lookup-firm');
    expect(admin).not.toContain('master');
    expect(admin).not.toContain('lookup-other');
    const master = usernames((await (await as('master')).get('/api/v2/users?per_page=100')).json());
    expect(master).toContain('lookup-other');
    expect(master).toContain('master');
    expect(master).not.toContain('lookup-gone');
    const other = usernames((await (await as('lookup-other-admin')).get('/api/v2/users')).json());
    expect(other).toEqual(['lookup-other', 'lookup-other-admin']);
  });

  it('filters by search term (username, names, company; wildcards literal) and excludes ids', async () => {
    const client = await as('user');
    const search = async (query: string) => usernames((await client.get(`/api/v2/users?${query}`)).json());
    expect(await search('search_term=sabine%20sub')).toEqual(['lookup-sub']);
    expect(await search('search_term=SUB')).toEqual(['lookup-sub']);
    expect(await search('search_term=50%25_')).toEqual(['lookup-firm']);
    expect(await search('search_term=%25')).toEqual(['lookup-firm']);
    expect(await search('search_term=Ulla')).toEqual(['user']);
    expect(await search(`exclude=${ids.user},${ids.demo}`)).toEqual([
      'lookup-app',
      'lookup-firm',
      'lookup-sub',
    ]);
    expect(await search('per_page=2')).toEqual(['demo', 'lookup-app']);
  });

  it("leaves out a user and everybody below it (the parents it may be moved under), and keeps other admins' users secret", async () => {
    const client = await as('user');
    const outside = async (username: string, term = '') =>
      usernames(
        (
          await client.get(
            `/api/v2/users?outside_subtree_of=${ids[username]}${term && `&search_term=${term}`}`,
          )
        ).json(),
      );
    expect(await outside('lookup-sub')).toEqual(['demo', 'lookup-app', 'user']);
    expect(await outside('lookup-sub', 'lookup')).toEqual(['lookup-app']);
    expect(await outside('user')).toEqual([]);
    const admin = usernames(
      (await (await as('admin')).get(`/api/v2/users?outside_subtree_of=${ids.user}&per_page=100`)).json(),
    );
    expect(admin).toContain('admin');
    for (const below of ['user', 'demo', 'lookup-sub', 'lookup-firm']) expect(admin).not.toContain(below);
    const foreign = await client.get(`/api/v2/users?outside_subtree_of=${ids.otherAdmin}`);
    expect(foreign.statusCode).toBe(404);
  });

  it('checks per_page (1..100) and exclude', async () => {
    const client = await as('master');
    expect((await client.get('/api/v2/users?per_page=100')).statusCode).toBe(200);
    expect((await client.get('/api/v2/users?per_page=1')).json()).toHaveLength(1);
    const tooMany = await client.get('/api/v2/users?per_page=101');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fieldErrors).toEqual([{ path: 'perPage', code: 'max', args: { max: 100 } }]);
    const none = await client.get('/api/v2/users?per_page=0');
    expect(none.json().fieldErrors).toEqual([{ path: 'perPage', code: 'min', args: { min: 1 } }]);
    for (const exclude of ['a', '1,,2', '2147483648']) {
      const response = await client.get(`/api/v2/users?exclude=${exclude}`);
      expect(response.statusCode, exclude).toBe(400);
      expect(response.json().fieldErrors).toEqual([{ path: 'exclude', code: 'invalid', args: {} }]);
    }
  });

  it('answers 403 below ROLE_USER and 401 without a session', async () => {
    expect((await (await as('demo')).get('/api/v2/users')).statusCode).toBe(403);
    expect((await (await as('lookup-app')).get('/api/v2/users')).statusCode).toBe(403);
    expect((await new TestClient(t.app).get('/api/v2/users')).statusCode).toBe(401);
  });
});

describe('userManagedBy', () => {
  it('answers the same as the lookup', async () => {
    const db = t.database.db;
    const actor = async (username: string) =>
      (await db.select().from(users).where(eq(users.username, username)))[0];
    const user = await actor('user');
    const admin = await actor('admin');
    const master = await actor('master');
    expect(await userManagedBy(db, user, ids.user)).toBe(true);
    expect(await userManagedBy(db, user, ids['lookup-firm'])).toBe(true);
    expect(await userManagedBy(db, user, ids['lookup-gone'])).toBe(false);
    expect(await userManagedBy(db, user, ids.admin)).toBe(false);
    expect(await userManagedBy(db, admin, ids['lookup-other'])).toBe(false);
    expect(await userManagedBy(db, master, ids['lookup-other'])).toBe(true);
    expect(await userManagedBy(db, master, ids['lookup-gone'])).toBe(false);
    expect(await userManagedBy(db, master, 2_147_483_647)).toBe(false);
  });
});

describe('GET /v2/users?view=tree', () => {
  type Node = {
    id: number;
    username: string;
    parentUserId: number | null;
    childCount: number;
    ancestors?: { username: string }[];
  };
  const tree = async (username: string, query = '') => {
    const response = await (await as(username)).get(`/api/v2/users?view=tree${query}`);
    return { response, nodes: response.json() as Node[] };
  };

  it('starts at the actor for an admin and at the roots for a master, one level at a time', async () => {
    const admin = await tree('admin');
    expect(admin.nodes.map(({ username }) => username)).toEqual(['admin']);
    expect(admin.nodes[0]).toMatchObject({ role: 'ROLE_ADMIN', status: 'ok', parentUserId: ids.master });
    expect(admin.response.headers['x-total-count']).toBe('1');
    const master = await tree('master');
    expect(master.nodes.map(({ username }) => username)).toContain('master');
    expect(master.nodes.every((node) => node.parentUserId === null)).toBe(true);

    const level = await tree('admin', `&parent_user_id=${ids.user}`);
    // The deleted sub-user is not shown, nor counted.
    expect(level.nodes.map(({ username }) => username)).toEqual(['demo', 'lookup-app', 'lookup-sub']);
    expect(level.nodes.find(({ username }) => username === 'lookup-sub')?.childCount).toBe(1);
  });

  it('pages a long level with its total', async () => {
    const first = await tree('admin', `&parent_user_id=${ids.user}&per_page=2`);
    expect(first.nodes).toHaveLength(2);
    expect(first.response.headers['x-total-count']).toBe('3');
    const second = await tree('admin', `&parent_user_id=${ids.user}&per_page=2&page=2`);
    expect(second.nodes.map(({ username }) => username)).toEqual(['lookup-sub']);
  });

  it('gives each match of a search the path above it, up to what the actor sees', async () => {
    const { nodes } = await tree('admin', '&search_term=firma');
    expect(nodes.map(({ username }) => username)).toEqual(['lookup-firm']);
    expect(nodes[0].ancestors?.map(({ username }) => username)).toEqual(['admin', 'user', 'lookup-sub']);
    const master = await tree('master', '&search_term=firma');
    expect(master.nodes[0].ancestors?.map(({ username }) => username)).toEqual([
      'master',
      'admin',
      'user',
      'lookup-sub',
    ]);
  });

  it("keeps other admins' levels and users below ROLE_ADMIN out", async () => {
    expect((await tree('admin', `&parent_user_id=${ids.otherAdmin}`)).response.statusCode).toBe(404);
    expect((await tree('admin', '&search_term=lookup-other')).nodes).toEqual([]);
    expect((await tree('user')).response.statusCode).toBe(403);
    const tooLong = await tree('admin', '&per_page=1001');
    expect(tooLong.response.json().fieldErrors).toEqual([
      { path: 'perPage', code: 'max', args: { max: 1000 } },
    ]);
  });
});
