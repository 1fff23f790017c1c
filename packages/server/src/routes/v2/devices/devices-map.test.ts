import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { users } from '../../../db/schema.ts';

// The map's call: GET /v2/devices?location_enabled_only=true, with view=map
// every located device the actor may see in one compact answer.
const MAP = '/api/v2/devices?location_enabled_only=true&view=map';
/** More located devices than the largest list page: the map view must not page. */
const FLEET_BEYOND_ONE_PAGE = 130;

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const [admin, user] = await Promise.all(['admin', 'user'].map(byName));
  const otherAdmin = await buildUser(db, {
    username: 'map-other-admin',
    role: 'ROLE_ADMIN',
    parent: 'master',
  });
  const otherCustomer = await buildUser(db, { username: 'map-other-customer', parent: 'map-other-admin' });
  ids.userLocated = (
    await buildDevice(db, user.id, {
      name: 'Hofladen Nord',
      street: 'Lange Straße',
      streetNumber: '7',
      postalCode: '34117',
      city: 'Kassel',
      status: 'alarm',
      locationLat: 51.3127,
      locationLng: 9.4797,
    })
  ).id;
  ids.userUnlocated = (await buildDevice(db, user.id, { name: 'Ohne Ort', city: 'Fulda' })).id;
  ids.adminLocated = (
    await buildDevice(db, admin.id, {
      name: 'Zentrale',
      city: 'Berlin',
      locationLat: 52.52,
      locationLng: 13.4,
    })
  ).id;
  ids.otherLocated = (
    await buildDevice(db, otherCustomer.id, {
      name: 'Fremder Tank',
      city: 'Hamburg',
      locationLat: 53.55,
      locationLng: 10,
    })
  ).id;
  for (let i = 1; i < FLEET_BEYOND_ONE_PAGE; i++)
    await buildDevice(db, otherCustomer.id, {
      name: `Flotte ${i}`,
      locationLat: 53 + i / 1000,
      locationLng: 9,
    });
  ids.otherAdmin = otherAdmin.id;
  // The user may look at the admin's located tank: it is on the user's map too.
  await grant(db, ids.adminLocated, user.id, ['VIEW_STATUS']);
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const idsOf = (body: { id: number }[]) => body.map((device) => device.id).sort((a, b) => a - b);

describe('GET /v2/devices?location_enabled_only=true&view=map', () => {
  it("answers a user's located devices and those of its access entries, no other customer's", async () => {
    const response = await (await as('user')).get(MAP);
    expect(response.statusCode).toBe(200);
    expect(idsOf(response.json())).toEqual([ids.userLocated, ids.adminLocated].sort((a, b) => a - b));
    expect(response.headers['x-total-count']).toBe('2');
    expect(response.headers['x-location-enabled-devices-count']).toBe('2');
  });

  it('answers exactly what the map draws: id, name, status, active, short address, owner, location', async () => {
    const devices = (await (await as('user')).get(MAP)).json();
    const own = devices.find((device: { id: number }) => device.id === ids.userLocated);
    expect(own).toStrictEqual({
      id: ids.userLocated,
      name: 'Hofladen Nord',
      status: 'alarm',
      active: true,
      address: { street: 'Lange Straße', streetNumber: '7', postalCode: '34117', city: 'Kassel' },
      user: { name: 'Ulla User' },
      location: { lat: 51.3127, lng: 9.4797 },
    });
    for (const device of devices)
      expect(Object.keys(device).sort()).toEqual([
        'active',
        'address',
        'id',
        'location',
        'name',
        'status',
        'user',
      ]);
  });

  it('answers every located device at once, beyond the list page limit, filters still applying', async () => {
    const client = await as('map-other-admin');
    const response = await client.get(`${MAP}&per_page=10&page=3`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(FLEET_BEYOND_ONE_PAGE);
    expect(response.headers['x-total-count']).toBe(String(FLEET_BEYOND_ONE_PAGE));
    expect(idsOf((await client.get(`${MAP}&search_term=fremder`)).json())).toEqual([ids.otherLocated]);
    // The master's map holds every located device of all customers.
    const master = await (await as('master')).get(MAP);
    expect(idsOf(master.json())).toEqual(
      expect.arrayContaining([ids.userLocated, ids.adminLocated, ids.otherLocated]),
    );
    expect(idsOf(master.json())).not.toContain(ids.userUnlocated);
    // The list view keeps its pages.
    const listPage = await client.get('/api/v2/devices?location_enabled_only=true&per_page=100');
    expect(listPage.json()).toHaveLength(100);
    expect(listPage.json()[0]).toHaveProperty('sensors');
  });

  it('answers a bad view, or the map view without location_enabled_only, with field errors', async () => {
    const client = await as('user');
    const bad = await client.get('/api/v2/devices?location_enabled_only=true&view=globe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([{ path: 'view', code: 'invalid', args: {} }]);
    const unlocated = await client.get('/api/v2/devices?view=map');
    expect(unlocated.statusCode).toBe(400);
    expect(unlocated.json().fieldErrors).toEqual([
      { path: 'locationEnabledOnly', code: 'required', args: {} },
    ]);
    expect((await new TestClient(t.app).get(MAP)).statusCode).toBe(401);
  });
});
