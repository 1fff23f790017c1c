import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { messages, users } from '../../../db/schema.ts';

// Demo tree: master > admin > user > demo; added: `other-admin` below the master. The admin's
// device (owned by `user`) has 120 messages over 6 days; the other admin's device one; and one
// message of no device (an unknown sender).
let t: TestApp;
const ids: Record<string, number> = {};
let own: number;
let foreign: number;
let noDeviceMessage: number;
const DAY = 86_400_000;
const start = Date.parse('2026-11-01T00:00:00Z');

type Row = typeof messages.$inferInsert;
const messageAt = (deviceId: number | null, i: number, overrides: Partial<Row> = {}): Row => ({
  deviceId,
  type: i % 3 === 0 ? 'sms' : 'net',
  direction: i % 2 === 0 ? 'in' : 'out',
  mode: i % 2 === 0 ? 'deviceToSystem' : 'systemToDevice',
  status: i % 4 === 0 ? 'parsing_failed' : 'processed',
  content: `Meldung ${i}`,
  createdAt: new Date(start + i * (DAY / 20)),
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await buildUser(db, { username: 'other-admin', role: 'ROLE_ADMIN', parent: 'master' });
  for (const row of await db.select().from(users)) ids[row.username] = row.id;
  own = (await buildDevice(db, ids.user)).id;
  foreign = (await buildDevice(db, ids['other-admin'])).id;
  await db.insert(messages).values(Array.from({ length: 120 }, (_, i) => messageAt(own, i)));
  await db.insert(messages).values(messageAt(foreign, 1, { content: 'fremd' }));
  [{ id: noDeviceMessage }] = await db
    .insert(messages)
    .values(messageAt(null, 2, { content: 'unbekannter Absender' }))
    .returning({ id: messages.id });
});
afterAll(() => t.close());

const list = async (username: string, query: string) => {
  const response = await (await t.signIn(username)).get(`/api/v2/messages?${query}`);
  return { response, body: response.json() as { id: number; content: string; status: string }[] };
};

describe('GET /v2/messages in a device', () => {
  it('pages with the total count, newest first, and says whether more follow', async () => {
    const { response, body } = await list('user', `device_id=${own}&total_count=1&per_page=50`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('120');
    expect(response.headers['x-has-more-results']).toBe('1');
    expect(body).toHaveLength(50);
    expect(body[0].content).toBe('Meldung 119');
    const last = await list('user', `device_id=${own}&total_count=1&per_page=50&page=3`);
    expect(last.body.map((message) => message.content).at(-1)).toBe('Meldung 0');
    expect(last.response.headers['x-has-more-results']).toBe('0');
  });

  it('filters by direction, status, mode, type and time, and sorts', async () => {
    const count = async (filter: string) =>
      (await list('admin', `device_id=${own}&total_count=1&${filter}`)).response.headers['x-total-count'];
    expect(await count('direction=in')).toBe('60');
    expect(await count('mode=systemToDevice')).toBe('60');
    expect(await count('status=parsing_failed')).toBe('30');
    expect(await count('type=sms')).toBe('40');
    // Day 2 (messages 20 … 39) by its start and end.
    expect(await count('from=2026-11-02T00:00:00Z&to=2026-11-02T23:59:59.999Z')).toBe('20');
    expect(await count('from=2026-11-03')).toBe('80');
    const ascending = await list('admin', `device_id=${own}&sort=createdAt:asc&per_page=50`);
    expect(ascending.body[0].content).toBe('Meldung 0');
    const byStatus = await list('admin', `device_id=${own}&sort=status:asc&per_page=50`);
    expect(byStatus.body[0].status).toBe('parsing_failed');
  });

  it('keeps its pages while new messages arrive', async () => {
    const first = await list('user', `device_id=${own}&per_page=50`);
    const maxId = first.response.headers['x-max-id'];
    const before = await list('user', `device_id=${own}&per_page=50&page=2&max_id=${maxId}`);
    await t.database.db.insert(messages).values(messageAt(own, 500, { content: 'neu' }));
    const after = await list('user', `device_id=${own}&per_page=50&page=2&max_id=${maxId}`);
    expect(after.body).toEqual(before.body);
    const fresh = await list('user', `device_id=${own}&per_page=50`);
    expect(fresh.body[0].content).toBe('neu');
    await t.database.db.delete(messages).where(eq(messages.content, 'neu'));
  });

  it('refuses bad filters with field errors', async () => {
    for (const [query, path] of [
      ['per_page=20', 'perPage'],
      ['page=0', 'page'],
      ['sort=content:asc', 'sort'],
      ['status=lost', 'status'],
      ['from=gestern', 'from'],
      ['from=2026-11-03&to=2026-11-02', 'to'],
      ['device_id=0x6', 'deviceId'],
      ['max_id=-1', 'maxId'],
    ]) {
      const { response } = await list('admin', `device_id=${own}&${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(
        response.json().fieldErrors.map((error: { path: string }) => error.path),
        query,
      ).toContain(path);
    }
  });

  it('is for those who may read the device messages: 404 without the device, 403 without VIEW_MESSAGING', async () => {
    expect((await list('other-admin', `device_id=${own}`)).response.statusCode).toBe(404);
    const viewer = await buildUser(t.database.db, { username: 'viewer', parent: 'other-admin' });
    await grant(t.database.db, own, viewer.id, ['VIEW_STATUS']);
    expect((await list('viewer', `device_id=${own}`)).response.statusCode).toBe(403);
    await grant(t.database.db, foreign, viewer.id, ['VIEW_STATUS', 'VIEW_MESSAGING']);
    const granted = await list('viewer', `device_id=${foreign}`);
    expect(granted.body.map((message) => message.content)).toEqual(['fremd']);
    const anonymous = await t.app.inject({ url: `/api/v2/messages?device_id=${own}` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /v2/messages, the global log', () => {
  it('shows an admin the messages of its devices only, with the has-more flag and no count', async () => {
    const { response, body } = await list('admin', 'per_page=500&total_count=1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBeUndefined();
    expect(response.headers['x-has-more-results']).toBe('0');
    expect(body).toHaveLength(120);
    expect(body.map((message) => message.content)).not.toContain('fremd');
    expect(body.map((message) => message.content)).not.toContain('unbekannter Absender');
  });

  it('shows a master everything, messages of no device too', async () => {
    const { body } = await list('master', 'per_page=500');
    expect(body.map((message) => message.content)).toEqual(
      expect.arrayContaining(['fremd', 'unbekannter Absender', 'Meldung 7']),
    );
  });

  it('is refused below the admin role', async () => {
    expect((await list('user', '')).response.statusCode).toBe(403);
    expect((await list('demo', '')).response.statusCode).toBe(403);
  });
});

describe('GET /v2/messages/{id}', () => {
  it('answers the message to whoever may read its device messages, and nothing to others', async () => {
    const { body } = await list('user', `device_id=${own}&per_page=50`);
    const message = (await (await t.signIn('user')).get(`/api/v2/messages/${body[0].id}`)).json();
    expect(message).toMatchObject({ id: body[0].id, deviceId: own, device: { id: own } });
    const otherAdmin = await t.signIn('other-admin');
    expect((await otherAdmin.get(`/api/v2/messages/${body[0].id}`)).statusCode).toBe(404);
    const admin = await t.signIn('admin');
    expect((await admin.get(`/api/v2/messages/${noDeviceMessage}`)).statusCode).toBe(404);
    const master = await t.signIn('master');
    expect((await master.get(`/api/v2/messages/${noDeviceMessage}`)).json()).toMatchObject({
      content: 'unbekannter Absender',
      device: null,
    });
    for (const id of ['0', '0x6', '1e3', '99999999999999999', '%00'])
      expect((await master.get(`/api/v2/messages/${id}`)).statusCode, id).toBe(404);
  });

  it('asked for within a device, answers only a message of that device', async () => {
    const { body } = await list('master', `device_id=${own}&per_page=50`);
    const master = await t.signIn('master');
    const inOwn = await master.get(`/api/v2/messages/${body[0].id}?device_id=${own}`);
    expect(inOwn.json()).toMatchObject({ id: body[0].id, deviceId: own });
    // The master may read both devices: the message is still not the other device's.
    expect((await master.get(`/api/v2/messages/${body[0].id}?device_id=${foreign}`)).statusCode).toBe(404);
    expect((await master.get(`/api/v2/messages/${noDeviceMessage}?device_id=${own}`)).statusCode).toBe(404);
    const malformed = await master.get(`/api/v2/messages/${body[0].id}?device_id=x`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fieldErrors[0].path).toBe('deviceId');
  });
});
