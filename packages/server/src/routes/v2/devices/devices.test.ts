import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { deviceListQuery, deviceSummarySchema } from '@tankportal/shared/schemas/devices';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { devices, sensors, users } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';
import { deviceListQueries } from '../../../repositories/devices.ts';

type SensorValues = Omit<typeof sensors.$inferInsert, 'deviceId' | 'sequence'>;

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const [admin, user, demo, master] = await Promise.all(['admin', 'user', 'demo', 'master'].map(byName));
  // A second customer beside the demo admin's tree.
  const otherAdmin = await buildUser(db, { username: 'other-admin', role: 'ROLE_ADMIN', parent: 'master' });
  const otherCustomer = await buildUser(db, { username: 'other-customer', parent: 'other-admin' });
  ids.user = user.id;
  ids.userTank = (
    await buildDevice(db, user.id, {
      name: 'Hofladen Nord',
      city: 'Kassel',
      postalCode: '34117',
      locationLat: 51.3,
      locationLng: 9.5,
    })
  ).id;
  ids.userSilo = (
    await buildDevice(db, user.id, {
      name: 'Mühle Süd',
      city: 'Fulda',
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber: '+491701234567',
    })
  ).id;
  ids.adminTank = (await buildDevice(db, admin.id, { name: 'Zentrale', city: 'Berlin' })).id;
  ids.demoTank = (await buildDevice(db, demo.id, { name: 'Demo Tank', city: 'Aachen' })).id;
  ids.otherTank = (await buildDevice(db, otherCustomer.id, { name: 'Fremder Tank', city: 'Hamburg' })).id;
  ids.masterTank = (await buildDevice(db, master.id, { name: 'Master Tank' })).id;
  ids.otherAdmin = otherAdmin.id;
  // The user may look at the admin's tank, nothing more.
  await grant(db, ids.adminTank, user.id, ['VIEW_STATUS', 'VIEW_PROCESS']);
  // The demo user holds full rights on the user's silo, but a demo account stays read-only.
  await grant(db, ids.userSilo, demo.id, ['VIEW_STATUS', 'EDIT', 'QUERY']);
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const idsOf = (body: { id: number }[]) => body.map((device) => device.id).sort((a, b) => a - b);

describe('GET /v2/devices', () => {
  it('shows a user exactly its own devices and those of its access entries', async () => {
    const client = await as('user');
    const response = await client.get('/api/v2/devices?per_page=100');
    expect(response.statusCode).toBe(200);
    expect(idsOf(response.json())).toEqual([ids.userTank, ids.userSilo, ids.adminTank].sort((a, b) => a - b));
    expect(response.headers['x-total-count']).toBe('3');
    expect(response.headers['x-location-enabled-devices-count']).toBe('1');
    const granted = response.json().find((device: { id: number }) => device.id === ids.adminTank);
    expect(granted.permissions).toEqual(['VIEW_STATUS', 'VIEW_PROCESS']);
    const own = response.json().find((device: { id: number }) => device.id === ids.userTank);
    expect(own.permissions).toHaveLength(11);
    expect(own.sensors[0]).toMatchObject({ sequence: 1, type: 'probe', capacity: 10_000, unit: 'l' });
    expect(own.user).toMatchObject({ username: 'user', name: 'Ulla User' });
  });

  it('shows an admin its whole subtree but not another customer', async () => {
    const list = (await (await as('admin')).get('/api/v2/devices?per_page=100')).json();
    expect(idsOf(list)).toEqual(
      [ids.userTank, ids.userSilo, ids.adminTank, ids.demoTank].sort((a, b) => a - b),
    );
    const other = (await (await as('other-admin')).get('/api/v2/devices?per_page=100')).json();
    expect(idsOf(other)).toEqual([ids.otherTank]);
  });

  it('shows a master every device', async () => {
    const response = await (await as('master')).get('/api/v2/devices?per_page=100');
    expect(Number(response.headers['x-total-count'])).toBe(6);
  });

  it('answers rows of the documented shape with no field beside it (the answer is not checked on its way out)', async () => {
    const exact = deviceSummarySchema.strict();
    for (const path of ['/api/v2/devices?per_page=100', `/api/v2/devices?user_id=${ids.user}&per_page=100`]) {
      const rows = (await (await as('admin')).get(path)).json();
      expect(rows.length).toBeGreaterThan(0);
      expect(() => z.array(exact).parse(rows)).not.toThrow();
    }
  });

  it('caps a demo account at the read permissions', async () => {
    const list = (await (await as('demo')).get('/api/v2/devices')).json();
    const silo = list.find((device: { id: number }) => device.id === ids.userSilo);
    expect(silo.permissions).toEqual(['VIEW_STATUS']);
    const own = list.find((device: { id: number }) => device.id === ids.demoTank);
    expect(own.permissions).toEqual([
      'VIEW_STATUS',
      'VIEW_PROCESS',
      'VIEW_CONSUMPTION',
      'VIEW_CONFIGURATION',
      'VIEW_MESSAGING',
    ]);
    expect((await (await as('demo')).get('/api/v2/devices?permission=QUERY')).json()).toEqual([]);
  });

  it('filters by permission, type, search term and location; sorts, groups and pages', async () => {
    const client = await as('user');
    const withQuery = (await client.get('/api/v2/devices?permission=QUERY')).json();
    expect(idsOf(withQuery)).toEqual([ids.userTank, ids.userSilo].sort((a, b) => a - b));
    expect(idsOf((await client.get('/api/v2/devices?type=sms')).json())).toEqual([ids.userSilo]);
    expect(idsOf((await client.get('/api/v2/devices?type=sms,net&search_term=fulda')).json())).toEqual([
      ids.userSilo,
    ]);
    // Case does not matter, for umlauts neither.
    expect(idsOf((await client.get('/api/v2/devices?search_term=M%C3%9CHLE%20s%C3%BCd')).json())).toEqual([
      ids.userSilo,
    ]);
    expect(idsOf((await client.get('/api/v2/devices?search_term=%2B49170')).json())).toEqual([ids.userSilo]);
    // Digits match the device id as well as text such as postal codes.
    expect(idsOf((await client.get(`/api/v2/devices?search_term=${ids.adminTank}`)).json())).toContain(
      ids.adminTank,
    );
    expect(idsOf((await client.get('/api/v2/devices?search_term=34117')).json())).toEqual([ids.userTank]);
    expect(idsOf((await client.get('/api/v2/devices?location_enabled_only=true')).json())).toEqual([
      ids.userTank,
    ]);
    const byCity = (await client.get('/api/v2/devices?sort=city:desc')).json();
    expect(byCity.map((device: { address: { city: string } }) => device.address.city)).toEqual([
      'Kassel',
      'Fulda',
      'Berlin',
    ]);
    const page2 = await client.get('/api/v2/devices?sort=city:asc&per_page=2&page=2');
    expect(page2.json().map((device: { address: { city: string } }) => device.address.city)).toEqual([
      'Kassel',
    ]);
    expect(page2.headers['x-total-count']).toBe('3');
    const grouped = (await client.get('/api/v2/devices?grouped=1&sort=name:asc')).json();
    expect(grouped.map((device: { user: { username: string } }) => device.user.username)).toEqual([
      'admin',
      'user',
      'user',
    ]);
    expect(await client.get('/api/v2/devices/ids?sort=city:asc')).toMatchObject({ statusCode: 200 });
    expect((await client.get('/api/v2/devices/ids?sort=city:asc')).json()).toEqual([
      ids.adminTank,
      ids.userSilo,
      ids.userTank,
    ]);
  });

  it('answers bad query values with field errors', async () => {
    const client = await as('user');
    const response = await client.get('/api/v2/devices?sort=password:asc&per_page=1000&type=fax');
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .fieldErrors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['perPage', 'sort', 'type.0']);
    expect((await new TestClient(t.app).get('/api/v2/devices')).statusCode).toBe(401);
  });
});

describe('GET /v2/devices/{id}', () => {
  it('answers a visible device with its permissions, sensors and address', async () => {
    const response = await (await as('user')).get(`/api/v2/devices/${ids.adminTank}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: ids.adminTank,
      name: 'Zentrale',
      address: { city: 'Berlin', countryCode: 'DE' },
      permissions: ['VIEW_STATUS', 'VIEW_PROCESS'],
      userPermissions: { permissions: ['VIEW_STATUS', 'VIEW_PROCESS'] },
      alarms: [],
      masterComment: null,
    });
  });

  it("answers 404 for another customer's device, an unknown id and a malformed id", async () => {
    const client = await as('user');
    expect((await client.get(`/api/v2/devices/${ids.otherTank}`)).statusCode).toBe(404);
    expect((await client.get(`/api/v2/devices/${ids.masterTank}`)).statusCode).toBe(404);
    expect((await client.get('/api/v2/devices/99999999')).statusCode).toBe(404);
    const malformed = await client.get('/api/v2/devices/abc');
    expect([400, 404]).toContain(malformed.statusCode);
    expect((await (await as('other-admin')).get(`/api/v2/devices/${ids.userTank}`)).statusCode).toBe(404);
  });
});

describe('GET /v2/devices/totals: footer totals and counts; natural name order', () => {
  const named: Record<string, number> = {};
  beforeAll(async () => {
    const db = t.database.db;
    await buildUser(db, { username: 'totals-admin', role: 'ROLE_ADMIN', parent: 'master' });
    const customer = await buildUser(db, { username: 'totals-customer', parent: 'totals-admin' });
    const stranger = await buildUser(db, { username: 'totals-stranger', parent: 'master' });
    // Each device's level sensor (factories: probe, litres) gets its value; a second sensor per case.
    const device = async (name: string, userId: number, litres: number | null, extra?: SensorValues) => {
      const row = await buildDevice(db, userId, { name, city: 'Herford' });
      await db.update(sensors).set({ value: litres }).where(eq(sensors.deviceId, row.id));
      if (extra) await db.insert(sensors).values({ deviceId: row.id, sequence: 2, ...extra });
      named[name] = row.id;
    };
    await device('Bielefeld 17', customer.id, 1000.5);
    await device('Bielefeld 5', customer.id, 2000, {
      type: 'probe',
      subType: 'silo',
      unit: 'kg',
      value: 300,
    });
    await device('bielefeld 6', customer.id, 4000, {
      type: 'counter',
      subType: 'counter',
      unit: 'kwh',
      value: 123.4,
    });
    await device('Bielefeld 100', customer.id, null);
    await device('Bielefeld 2 Nord', customer.id, 500, {
      type: 'probe',
      subType: 'tank',
      unit: 'l',
      value: 9999,
      status: 'error',
    });
    await device('Apfelhof', customer.id, 8000);
    // Another customer's device: never in the totals of the admin above.
    await device('Bielefeld 1', stranger.id, 70_000);
  });

  const totals = async (username: string, query = '') => {
    const response = await (await as(username)).get(`/api/v2/devices/totals${query && `?${query}`}`);
    expect(response.statusCode).toBe(200);
    return response.json() as { total: number; locationEnabled: number; sensorTotals: unknown[] };
  };
  const totalsOf = async (username: string, query = '') => (await totals(username, query)).sensorTotals;

  it('totals every device matching the filter, whatever the page; counters, errors and gaps left out', async () => {
    const client = await as('totals-admin');
    const page = await client.get('/api/v2/devices?per_page=1&page=2&sort=name:asc');
    expect(page.json()).toHaveLength(1);
    expect(page.headers['x-total-count']).toBe('6');
    // The page and sort make no difference to the totals.
    for (const query of ['', 'per_page=1&page=2&sort=name:asc', 'page=7&sort=city:desc'])
      expect(await totals('totals-admin', query)).toEqual({
        total: 6,
        locationEnabled: 0,
        sensorTotals: [
          { unit: 'l', total: 1000.5 + 2000 + 4000 + 500 + 8000 },
          { unit: 'kg', total: 300 },
        ],
      });
    // "Bielefeld 17", "Bielefeld 100" (no value) — the stranger's "Bielefeld 1" is not the admin's.
    expect(await totals('totals-admin', 'search_term=bielefeld%201&per_page=1')).toEqual({
      total: 2,
      locationEnabled: 0,
      sensorTotals: [{ unit: 'l', total: 1000.5 }],
    });
    expect(await totals('totals-admin', 'search_term=nothing-matches')).toEqual({
      total: 0,
      locationEnabled: 0,
      sensorTotals: [],
    });
  });

  it('totals only what the actor may see', async () => {
    expect(await totalsOf('totals-stranger')).toEqual([{ unit: 'l', total: 70_000 }]);
    const master = await totalsOf('master', 'search_term=bielefeld');
    expect(master).toEqual([
      { unit: 'l', total: 1000.5 + 2000 + 4000 + 500 + 70_000 },
      { unit: 'kg', total: 300 },
    ]);
  });

  it('sorts names naturally, case second, in both directions', async () => {
    const client = await as('totals-admin');
    const names = async (sort: string) =>
      (await client.get(`/api/v2/devices?sort=name:${sort}&search_term=bielefeld`))
        .json()
        .map((row: { name: string }) => row.name);
    const ascending = ['Bielefeld 2 Nord', 'Bielefeld 5', 'bielefeld 6', 'Bielefeld 17', 'Bielefeld 100'];
    expect(await names('asc')).toEqual(ascending);
    expect(await names('desc')).toEqual([...ascending].reverse());
    expect((await client.get('/api/v2/devices/ids?sort=name:asc&search_term=bielefeld')).json()).toEqual(
      ascending.map((name) => named[name]),
    );
  });
});

describe('GET /v2/devices/totals beside the pages it counts', () => {
  const QUERIES = [
    '',
    'type=sms',
    'permission=QUERY',
    'location_enabled_only=true',
    'search_term=s%C3%BCd%20FULDA',
    'search_term=other-cust',
    'search_term=tank&type=net',
  ];

  it('counts what the counted list counts, for every role and filter', async () => {
    for (const username of ['user', 'admin', 'demo', 'other-admin', 'master'])
      for (const query of QUERIES) {
        const client = await as(username);
        const counted = await client.get(`/api/v2/devices?per_page=1&${query}`);
        const all = (await client.get(`/api/v2/devices/ids?${query}`)).json();
        const answer = (await client.get(`/api/v2/devices/totals?${query}`)).json();
        expect({ username, query, ...answer }).toMatchObject({
          username,
          query,
          total: Number(counted.headers['x-total-count']),
          locationEnabled: Number(counted.headers['x-location-enabled-devices-count']),
        });
        // The ids leave the location filter aside, as the map's count does.
        if (!query.includes('location'))
          expect({ query, total: answer.total }).toEqual({ query, total: all.length });
      }
  });

  it('answers a page without counting when asked to, the same rows', async () => {
    const client = await as('admin');
    const counted = await client.get('/api/v2/devices?sort=city:desc&per_page=2&page=2');
    const uncounted = await client.get('/api/v2/devices?sort=city:desc&per_page=2&page=2&counts=false');
    expect(uncounted.statusCode).toBe(200);
    expect(uncounted.json()).toEqual(counted.json());
    expect(uncounted.headers['x-total-count']).toBeUndefined();
    expect(uncounted.headers['x-location-enabled-devices-count']).toBeUndefined();
    expect(counted.headers['x-total-count']).toBe('4');
  });

  it('finds by the owner, across fields, after an edit, and takes % and _ literally', async () => {
    const master = await as('master');
    const found = async (term: string) =>
      idsOf((await master.get(`/api/v2/devices?search_term=${encodeURIComponent(term)}`)).json());
    expect(await found('OTHER-CUSTOMER')).toEqual([ids.otherTank]);
    expect(await found('Süd Fulda')).toEqual([ids.userSilo]);
    expect(await found('%')).toEqual([]);
    expect(await found('Hofladen_Nord')).toEqual([]);
    await t.database.db.update(devices).set({ name: 'Hofladen Ost' }).where(eq(devices.id, ids.userTank));
    expect(await found('hofladen ost')).toEqual([ids.userTank]);
    expect(await found('hofladen nord')).toEqual([]);
    await t.database.db.update(devices).set({ name: 'Hofladen Nord' }).where(eq(devices.id, ids.userTank));
  });

  it("finds a search's devices from the trigram index", async () => {
    const { db } = t.database;
    const [master] = await db.select().from(users).where(eq(users.username, 'master'));
    const page = deviceListQueries(db, master!, deviceListQuery.parse({ searchTerm: 'other-customer' })).page;
    // On a few test rows reading the table or an ordered index is cheaper: both forbidden here, the
    // plan shows what the query allows: the texts matched in their trigram index, once.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      await tx.execute(sql`SET LOCAL enable_indexscan = off`);
      const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${page.getSQL()}`);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('device_search_trigrams');
    expect((await page).map((row) => row.device.id)).toEqual([ids.otherTank]);
  });

  it('pages every sort in the order of the ids, page by page, read from an index or sorted', async () => {
    const client = await as('master');
    for (const query of [
      'sort=city:asc',
      'sort=name:desc',
      'sort=lastReportedAt:desc',
      'sort=status:asc&grouped=1',
    ]) {
      const order = (await client.get(`/api/v2/devices/ids?${query}`)).json();
      const paged = [];
      for (let page = 1; page <= order.length; page++)
        paged.push(
          ...(await client.get(`/api/v2/devices?${query}&per_page=1&page=${page}&counts=false`))
            .json()
            .map((device: { id: number }) => device.id),
        );
      expect({ query, paged }).toEqual({ query, paged: order });
    }
  });

  it('pages the orders that start with the owner (grouped, or by user) across owners, as every role', async () => {
    for (const username of ['master', 'admin', 'user'])
      for (const query of [
        'sort=username:asc',
        'sort=username:desc',
        'sort=username:desc&grouped=1',
        'sort=name:desc&grouped=1',
        'sort=simCredit:desc&grouped=1',
        'sort=emptyAt:asc&grouped=1',
        'sort=city:asc&grouped=1&search_term=tank',
      ])
        for (const perPage of [2, 3]) {
          const client = await as(username);
          const order = (await client.get(`/api/v2/devices/ids?${query}`)).json();
          const paged = [];
          // One page past the end: empty.
          for (let page = 1; page <= Math.ceil(order.length / perPage) + 1; page++)
            paged.push(
              ...(await client.get(`/api/v2/devices?${query}&per_page=${perPage}&page=${page}&counts=false`))
                .json()
                .map((device: { id: number }) => device.id),
            );
          expect({ username, query, perPage, paged }).toEqual({ username, query, perPage, paged: order });
        }
  });

  it("answers a report's values at once, to its own users only", async () => {
    const db = t.database.db;
    await buildUser(db, { username: 'report-admin', role: 'ROLE_ADMIN', parent: 'master' });
    const customer = await buildUser(db, { username: 'report-customer', parent: 'report-admin' });
    const identCode = 'NET-TOTALS-1';
    const secret = 'device-secret-totals';
    await buildDevice(db, customer.id, { name: 'Berichtstank', identCode, secretHash: hashToken(secret) });
    const before = await (await as('report-admin')).get('/api/v2/devices/totals');
    expect(before.json()).toEqual({ total: 1, locationEnabled: 0, sensorTotals: [] });
    const strangers = (await (await as('totals-stranger')).get('/api/v2/devices/totals')).json();
    const report = await t.app.inject({
      method: 'POST',
      url: '/ingest/net/v1',
      payload: {
        identCode,
        secret,
        messageId: 'totals-1',
        measuredAt: new Date(Date.now() - 60_000).toISOString(),
        sensors: [{ sequence: 1, value: 4321, temperature: 8 }],
      },
    });
    expect(report.json()).toMatchObject({ stored: 1 });
    for (const username of ['report-admin', 'report-customer'])
      expect((await (await as(username)).get('/api/v2/devices/totals')).json()).toEqual({
        total: 1,
        locationEnabled: 0,
        sensorTotals: [{ unit: 'l', total: 4321 }],
      });
    expect((await (await as('totals-stranger')).get('/api/v2/devices/totals')).json()).toEqual(strangers);
  });

  it('answers 401 without a session and 404 for a user the actor does not manage', async () => {
    expect((await new TestClient(t.app).get('/api/v2/devices/totals')).statusCode).toBe(401);
    const response = await (await as('other-admin')).get(`/api/v2/devices/totals?user_id=${ids.user}`);
    expect(response.statusCode).toBe(404);
  });
});
