import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { refDateQueries, refDateQueryDevices, users } from '../../../db/schema.ts';

let t: TestApp;
const ids: Record<string, number> = {};

const valid = () => ({
  intervalType: 'monthly',
  intervals: ['monthly_first'],
  queryAt: '08:00',
  olderThan: 1800,
  active: true,
  deviceIds: [ids.sms0, ids.sms1],
});

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const [demo] = await db.select().from(users).where(eq(users.username, 'demo'));
  const sms = { type: 'sms', identType: 'cell_number', identCode: null } as const;
  ids.sms0 = (await buildDevice(db, user!.id, { ...sms, cellNumber: '+491708880001' })).id;
  ids.sms1 = (await buildDevice(db, user!.id, { ...sms, cellNumber: '+491708880002' })).id;
  ids.net = (await buildDevice(db, user!.id)).id;
  const customer = await buildUser(db, { username: 'ref-other', parent: 'master' });
  ids.other = (await buildDevice(db, customer.id, { ...sms, cellNumber: '+491708880009' })).id;
  // The helper may query the device and take part in reference-date queries, but not manage its access.
  const helper = await buildUser(db, { username: 'ref-helper', role: 'ROLE_USER', parent: 'master' });
  await grant(db, ids.sms0, helper.id, ['VIEW_STATUS', 'REF_DATE_QUERY']);
  await grant(db, ids.sms1, helper.id, ['VIEW_STATUS', 'QUERY']);
  await grant(db, ids.sms0, demo!.id, ['VIEW_STATUS', 'REF_DATE_QUERY']);
  ids.user = user!.id;
});
afterAll(async () => {
  await t?.close();
});

const count = async () => (await t.database.db.select().from(refDateQueries)).length;

describe('reference-date queries', () => {
  it('creates, reads, changes and deletes a query with its timetable and members', async () => {
    const client = await t.signIn('user');
    const created = await client.post('/api/v2/ref-date-queries', valid());
    expect(created.statusCode).toBe(201);
    const query = created.json();
    expect(created.headers.location).toBe(`/api/v2/ref-date-queries/${query.id}`);
    expect(query).toMatchObject({
      username: 'user',
      intervalType: 'monthly',
      intervals: ['monthly_first'],
      queryAt: '08:00',
      olderThan: 1800,
      isActive: true,
      deviceIds: [ids.sms0, ids.sms1].sort((a, b) => a! - b!),
      lastRunAt: null,
    });
    // The next first of a month, 08:00 German time (07:00 or 06:00 UTC).
    const next = new Date(query.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getUTCDate()).toBe(1);
    expect([6, 7]).toContain(next.getUTCHours());
    expect((await client.get('/api/v2/ref-date-queries')).json()).toEqual([query]);

    const changed = await client.put(`/api/v2/ref-date-queries/${query.id}`, {
      ...valid(),
      intervalType: 'daily',
      intervals: ['daily_1', 'daily_5'],
      queryAt: '17:35',
      olderThan: 86400,
      active: false,
      deviceIds: [ids.sms1],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      intervalType: 'daily',
      intervals: ['daily_1', 'daily_5'],
      queryAt: '17:35',
      olderThan: 86400,
      isActive: false,
      nextRunAt: null,
      deviceIds: [ids.sms1],
    });
    expect((await client.get(`/api/v2/ref-date-queries/${query.id}`)).json()).toEqual(changed.json());
    expect((await client.delete(`/api/v2/ref-date-queries/${query.id}`)).statusCode).toBe(204);
    expect((await client.get(`/api/v2/ref-date-queries/${query.id}`)).statusCode).toBe(404);
  });

  it('refuses each rule on its field and stores nothing', async () => {
    const client = await t.signIn('user');
    const before = await count();
    const cases: [object, { path: string; code: string; args?: object }][] = [
      [{ intervals: [] }, { path: 'intervals', code: 'required' }],
      // Daily without a day: the reason names the days of the week.
      [
        { intervalType: 'daily', intervals: [] },
        { path: 'intervals', code: 'required', args: { reason: 'weekdays' } },
      ],
      [
        { intervalType: 'intraday', intervals: [] },
        { path: 'intervals', code: 'required' },
      ],
      [{ intervals: ['daily_1'] }, { path: 'intervals', code: 'invalid' }],
      [{ intervals: ['monthly_first', 'monthly_last'] }, { path: 'intervals', code: 'invalid' }],
      [
        { intervalType: 'intraday', intervals: ['intraday_2'] },
        { path: 'intervals.0', code: 'invalid' },
      ],
      [{ intervalType: 'weekly' }, { path: 'intervalType', code: 'invalid' }],
      [{ queryAt: '08:03' }, { path: 'queryAt', code: 'invalid' }],
      [{ queryAt: '24:00' }, { path: 'queryAt', code: 'invalid' }],
      [{ queryAt: '8:00' }, { path: 'queryAt', code: 'invalid' }],
      [{ queryAt: '08:00\u0000' }, { path: 'queryAt', code: 'invalid' }],
      [{ olderThan: 1801 }, { path: 'olderThan', code: 'invalid' }],
      [{ olderThan: 1e308 }, { path: 'olderThan', code: 'invalid' }],
      [{ active: 'yes' }, { path: 'active', code: 'invalid' }],
      [{ deviceIds: [0] }, { path: 'deviceIds.0', code: 'invalid' }],
      // A query without a device would run for nothing.
      [{ deviceIds: [] }, { path: 'deviceIds', code: 'required' }],
    ];
    for (const [change, error] of cases) {
      const response = await client.post('/api/v2/ref-date-queries', { ...valid(), ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().fieldErrors, JSON.stringify(change)).toContainEqual(
        expect.objectContaining(error),
      );
    }
    for (const [change] of cases)
      expect((await client.post('/api/v2/ref-date-queries', { ...valid(), ...change })).statusCode).toBe(400);
    expect(
      (await client.post('/api/v2/ref-date-queries', { ...valid(), deviceIds: [ids.net] })).json()
        .fieldErrors,
    ).toEqual([{ path: 'deviceIds.0', code: 'invalid', args: { reason: 'not_queryable' } }]);
    // Every "older than" option is taken.
    for (const olderThan of [1800, 3600, 7200, 21600, 43200, 86400]) {
      const response = await client.post('/api/v2/ref-date-queries', { ...valid(), olderThan });
      expect(response.statusCode).toBe(201);
      await client.delete(`/api/v2/ref-date-queries/${response.json().id}`);
    }
    expect(await count()).toBe(before);
  });

  it('needs REF_DATE_QUERY on each member it adds: 403 without it, 404 for other customers', async () => {
    const helper = await t.signIn('ref-helper');
    const before = await count();
    expect(
      (await helper.post('/api/v2/ref-date-queries', { ...valid(), deviceIds: [ids.sms1] })).statusCode,
    ).toBe(403);
    expect(
      (await helper.post('/api/v2/ref-date-queries', { ...valid(), deviceIds: [ids.other] })).statusCode,
    ).toBe(404);
    expect(
      (await helper.post('/api/v2/ref-date-queries', { ...valid(), deviceIds: [ids.sms0, 999_999] }))
        .statusCode,
    ).toBe(404);
    expect(await count()).toBe(before);
    const own = await helper.post('/api/v2/ref-date-queries', { ...valid(), deviceIds: [ids.sms0] });
    expect(own.statusCode).toBe(201);
    // Adding a device it may not use to its own query changes nothing either.
    const id = own.json().id;
    expect(
      (await helper.put(`/api/v2/ref-date-queries/${id}`, { ...valid(), deviceIds: [ids.sms0, ids.sms1] }))
        .statusCode,
    ).toBe(403);
    expect((await helper.get(`/api/v2/ref-date-queries/${id}`)).json().deviceIds).toEqual([ids.sms0]);
    // Demo and app accounts have no reference-date queries at all.
    const demo = await t.signIn('demo');
    expect((await demo.get('/api/v2/ref-date-queries')).statusCode).toBe(403);
    expect(
      (await demo.post('/api/v2/ref-date-queries', { ...valid(), deviceIds: [ids.sms0] })).statusCode,
    ).toBe(403);
    await helper.delete(`/api/v2/ref-date-queries/${id}`);
  });

  it("keeps one customer's queries from another; an admin sees those of its users", async () => {
    const user = await t.signIn('user');
    const query = (await user.post('/api/v2/ref-date-queries', valid())).json();
    const other = await t.signIn('ref-helper');
    expect((await other.get('/api/v2/ref-date-queries')).json()).toEqual([]);
    for (const call of [
      () => other.get(`/api/v2/ref-date-queries/${query.id}`),
      () => other.put(`/api/v2/ref-date-queries/${query.id}`, valid()),
      () => other.delete(`/api/v2/ref-date-queries/${query.id}`),
    ])
      expect((await call()).statusCode).toBe(404);
    expect((await user.get(`/api/v2/ref-date-queries/${query.id}`)).json()).toEqual(query);
    const master = await t.signIn('master');
    expect((await master.get('/api/v2/ref-date-queries')).json()).toContainEqual(query);
    for (const id of ['0', '01', '0x1', '1e3', '99999999999'])
      expect((await user.get(`/api/v2/ref-date-queries/${id}`)).statusCode).toBe(404);
    await user.delete(`/api/v2/ref-date-queries/${query.id}`);
  });
});

describe("a device's reference-date queries (metadata tab)", () => {
  it('lists the queries a device belongs to and takes it out of one, with the access-managing permission', async () => {
    const user = await t.signIn('user');
    const query = (await user.post('/api/v2/ref-date-queries', valid())).json();
    const listed = await user.get(`/api/v2/devices/${ids.sms0}/ref-date-queries`);
    expect(listed.statusCode).toBe(200);
    const { deviceIds: _members, ...withoutMembers } = query;
    expect(listed.json()).toEqual([withoutMembers]);
    // Without DELETE on the device (REF_DATE_QUERY alone): 403; another customer's device: 404.
    const helper = await t.signIn('ref-helper');
    expect((await helper.get(`/api/v2/devices/${ids.sms0}/ref-date-queries`)).statusCode).toBe(403);
    expect((await helper.delete(`/api/v2/devices/${ids.sms0}/ref-date-queries/${query.id}`)).statusCode).toBe(
      403,
    );
    expect((await user.get(`/api/v2/devices/${ids.other}/ref-date-queries`)).statusCode).toBe(404);
    expect(
      await t.database.db
        .select()
        .from(refDateQueryDevices)
        .where(eq(refDateQueryDevices.refDateQueryId, query.id)),
    ).toHaveLength(2);

    expect((await user.delete(`/api/v2/devices/${ids.sms0}/ref-date-queries/${query.id}`)).statusCode).toBe(
      204,
    );
    expect((await user.get(`/api/v2/devices/${ids.sms0}/ref-date-queries`)).json()).toEqual([]);
    expect((await user.get(`/api/v2/ref-date-queries/${query.id}`)).json().deviceIds).toEqual([ids.sms1]);
    // Not a member (any more): 404.
    expect((await user.delete(`/api/v2/devices/${ids.sms0}/ref-date-queries/${query.id}`)).statusCode).toBe(
      404,
    );

    // The last device is not taken out: the query would be left with none. The answer says why;
    // the query keeps its device.
    const last = await user.delete(`/api/v2/devices/${ids.sms1}/ref-date-queries/${query.id}`);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'The device is the only one of the reference-date query: delete the query instead.',
      fieldErrors: [{ path: 'refDateQueryId', code: 'invalid', args: { reason: 'last_device' } }],
    });
    expect((await user.get(`/api/v2/ref-date-queries/${query.id}`)).json().deviceIds).toEqual([ids.sms1]);
    expect((await user.get(`/api/v2/devices/${ids.sms1}/ref-date-queries`)).json()).toHaveLength(1);
    // A query that is gone: 404.
    expect((await user.delete(`/api/v2/ref-date-queries/${query.id}`)).statusCode).toBe(204);
    expect((await user.delete(`/api/v2/devices/${ids.sms1}/ref-date-queries/${query.id}`)).statusCode).toBe(
      404,
    );
  });
});
