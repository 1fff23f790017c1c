import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser } from '../../../testing/factories.ts';
import { buildUnassigned } from '../../../testing/device-lifecycle-factories.ts';
import { devices, sensors, smsGateways, unassignedDevices, users } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';

let t: TestApp;
const ids: Record<string, number> = {};
const gateways = { lionel: 0, lionel2: 0, once: 0 };
const clients = new Map<string, TestClient>();
let serial = 0;
/** A fresh number for idents: every creation needs its own. */
const next = () => String(++serial).padStart(4, '0');

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [admin] = await db.select().from(users).where(eq(users.username, 'admin'));
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  ids.admin = admin.id;
  ids.user = user.id;
  await buildUser(db, { username: 'create-other-admin', role: 'ROLE_ADMIN', parent: 'master' });
  const rows = await db.select().from(smsGateways).orderBy(smsGateways.id);
  const lionels = rows.filter((row) => row.provider === 'lionel');
  gateways.lionel = lionels[0].id;
  gateways.lionel2 = lionels[1].id;
  gateways.once = rows.find((row) => row.provider === '1nce')!.id;
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

const address = (overrides: Record<string, unknown> = {}) => ({
  street: 'Industriestraße',
  street_number: '7',
  postal_code: '34117',
  city: 'Kassel',
  country_code: 'DE',
  ...overrides,
});

/** A valid body per type (each call with idents of its own). */
const BODIES = {
  lionel: () => ({
    type: 'sms',
    sms_gateway_type: 'lionel',
    name: 'SMS Tank',
    address: address(),
    cell_number: `+49170555${next()}`,
    inbound_gateway_id: gateways.lionel,
    outbound_gateway_id: gateways.lionel2,
  }),
  once: () => ({
    type: 'sms',
    sms_gateway_type: '1nce',
    name: '1NCE Tank',
    address: address(),
    iccid: `8988280666000${next()}`,
    inbound_gateway_id: gateways.once,
    outbound_gateway_id: gateways.once,
  }),
  iot: () => ({
    type: 'iot',
    name: 'IoT Tank',
    address: address(),
    thing_name: `thing-${next()}`,
    iot_version: 'v2',
  }),
  lxIot: () => ({ type: 'lx_iot', name: 'LX Tank', address: address(), iccid: `894910000000${next()}` }),
};

async function deviceCount() {
  const [row] = await t.database.db.select({ value: count() }).from(devices);
  return row.value;
}

async function create(body: object, username = 'admin') {
  return (await as(username)).post('/api/v2/devices', body);
}

/** A 400 that created nothing, with exactly these field errors. */
async function expectRefused(body: object, fieldErrors: object[]) {
  const before = await deviceCount();
  const response = await create(body);
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().fieldErrors).toEqual(fieldErrors);
  expect(await deviceCount()).toBe(before);
}

describe('POST /v2/devices per type', () => {
  it('creates an SMS Lionel device of the admin, with one default level sensor and no secret', async () => {
    const body = { ...BODIES.lionel(), cell_number: '+49 (170) 555-0001', project: 'Nord' };
    const response = await create(body);
    expect(response.statusCode, response.body).toBe(201);
    const { device, deviceSecret } = response.json();
    expect(response.headers.location).toBe(`/api/v2/devices/${device.id}`);
    expect(deviceSecret).toBeUndefined();
    expect(device).toMatchObject({
      type: 'sms',
      identType: 'cell_number',
      ident: '+491705550001',
      cellNumber: '+491705550001',
      name: 'SMS Tank',
      project: 'Nord',
      address: {
        street: 'Industriestraße',
        streetNumber: '7',
        postalCode: '34117',
        city: 'Kassel',
        countryCode: 'DE',
      },
      user: { id: ids.admin },
      inboundGatewayId: gateways.lionel,
      outboundGatewayId: gateways.lionel2,
      sensors: [{ sequence: 1, type: 'probe', subType: 'tank', unit: 'l', isConnected: true }],
    });
    // The configuration can be read (and so edited) at once.
    const read = await (await as('admin')).get(`/api/v2/devices/${device.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().sensors).toHaveLength(1);
  });

  it('creates an SMS 1NCE device identified by its ICCID', async () => {
    const response = await create(BODIES.once());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().device).toMatchObject({ type: 'sms', identType: 'iccid' });
    expect(response.json().deviceSecret).toBeUndefined();
  });

  it('creates an IoT device with a secret that only its hash is stored of', async () => {
    const body = BODIES.iot();
    const response = await create(body);
    expect(response.statusCode, response.body).toBe(201);
    const { device, deviceSecret } = response.json();
    expect(device).toMatchObject({
      type: 'iot',
      identType: 'thing_name',
      thingName: body.thing_name,
      iotConfig: { iotVersion: 'v2' },
    });
    expect(deviceSecret).toMatch(/^[\w-]{40,}$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const [row] = await t.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row.secretHash).toBe(hashToken(deviceSecret));
    expect(JSON.stringify(device)).not.toContain(deviceSecret);
  });

  it('creates an LX-IoT device by its ICCID', async () => {
    const response = await create(BODIES.lxIot());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().device).toMatchObject({ type: 'lx_iot', identType: 'iccid' });
    expect(response.json().deviceSecret).toEqual(expect.any(String));
  });

  it('creates a net device from an unassigned one, which then reports with the new secret', async () => {
    const db = t.database.db;
    const unassigned = await buildUnassigned(db, 'net', `NET-NEW-${next()}`);
    const response = await create({
      type: 'net',
      name: 'Netz',
      address: address(),
      unassigned_device_id: unassigned.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    const { device, deviceSecret } = response.json();
    expect(device).toMatchObject({ type: 'net', identType: 'net_ident_code', identCode: unassigned.ident });
    expect(await db.select().from(unassignedDevices).where(eq(unassignedDevices.id, unassigned.id))).toEqual(
      [],
    );

    const report = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/ingest/net/v1',
        payload: {
          identCode: unassigned.ident,
          secret,
          messageId: `m-${next()}`,
          measuredAt: '2026-02-01T08:00:00Z',
          sensors: [{ sequence: 1, value: 1234 }],
        },
      });
    expect((await report('wrong')).statusCode).toBe(401);
    const accepted = await report(deviceSecret);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const [sensor] = await db.select().from(sensors).where(eq(sensors.deviceId, device.id));
    expect(sensor.value).toBe(1234);
  });

  it('assigns unassigned IoT and LX-IoT devices instead of a typed ident', async () => {
    const db = t.database.db;
    for (const [type, column] of [
      ['iot', 'thingName'],
      ['lx_iot', 'iccid'],
    ] as const) {
      const ident = type === 'iot' ? `thing-unassigned-${next()}` : `89491000000077${next()}`;
      const unassigned = await buildUnassigned(db, type, ident);
      const response = await create({
        type,
        name: 'Übernommen',
        address: address(),
        unassigned_device_id: unassigned.id,
        // Left over in the form from the other mode: the unassigned device's ident wins.
        thing_name: 'typed-but-ignored',
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().device[column]).toBe(ident);
      expect(
        await db.select().from(unassignedDevices).where(eq(unassignedDevices.id, unassigned.id)),
      ).toEqual([]);
    }
  });

  it('removes the unassigned entry of a typed ident too', async () => {
    const db = t.database.db;
    const unassigned = await buildUnassigned(db, 'iot', `thing-typed-${next()}`);
    const response = await create({
      type: 'iot',
      name: 'Getippt',
      address: address(),
      thing_name: unassigned.ident,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(await db.select().from(unassignedDevices).where(eq(unassignedDevices.id, unassigned.id))).toEqual(
      [],
    );
  });
});

describe('POST /v2/devices rules', () => {
  it('needs the ident of each type', async () => {
    const base = { name: 'Ohne', address: address() };
    await expectRefused({ ...base, type: 'sms' }, [{ path: 'smsGatewayType', code: 'required', args: {} }]);
    await expectRefused({ ...BODIES.lionel(), cell_number: '' }, [
      { path: 'cellNumber', code: 'required', args: {} },
    ]);
    await expectRefused({ ...BODIES.once(), iccid: null }, [{ path: 'iccid', code: 'required', args: {} }]);
    await expectRefused({ ...base, type: 'net' }, [
      { path: 'unassignedDeviceId', code: 'required', args: {} },
    ]);
    await expectRefused({ ...base, type: 'iot' }, [{ path: 'thingName', code: 'required', args: {} }]);
    await expectRefused({ ...base, type: 'lx_iot' }, [{ path: 'iccid', code: 'required', args: {} }]);
    await expectRefused({ ...base }, [{ path: 'type', code: 'required', args: {} }]);
    await expectRefused({ ...base, type: 'fax' }, [{ path: 'type', code: 'invalid', args: {} }]);
  });

  it('reads a nationally typed cell number in the device country and stores it in E.164', async () => {
    const response = await create({ ...BODIES.lionel(), cell_number: '0170 5559901' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().device).toMatchObject({ ident: '+491705559901', cellNumber: '+491705559901' });
    const [row] = await t.database.db.select().from(devices).where(eq(devices.id, response.json().device.id));
    expect(row.cellNumber).toBe('+491705559901');
  });

  it('reports every missing field at once', async () => {
    await expectRefused({ type: 'iot', address: {} }, [
      { path: 'name', code: 'required', args: {} },
      { path: 'address.countryCode', code: 'required', args: {} },
      { path: 'thingName', code: 'required', args: {} },
    ]);
  });

  it('checks the form of cell number, ICCID and thing name', async () => {
    await expectRefused({ ...BODIES.lionel(), cell_number: '0170 55a' }, [
      { path: 'cellNumber', code: 'invalid', args: { reason: 'cellNumber' } },
    ]);
    // Nationally typed, but not a number of the device's country (Austria has no 0170 range).
    await expectRefused(
      { ...BODIES.lionel(), cell_number: '0170 5559901', address: address({ country_code: 'AT' }) },
      [{ path: 'cellNumber', code: 'invalid', args: { reason: 'cellNumber' } }],
    );
    await expectRefused({ ...BODIES.once(), iccid: '8988-2806' }, [
      { path: 'iccid', code: 'invalid', args: {} },
    ]);
    await expectRefused({ ...BODIES.iot(), thing_name: 'a/b' }, [
      { path: 'thingName', code: 'invalid', args: {} },
    ]);
  });

  it('needs inbound and outbound gateway of the device gateway type when there is more than one', async () => {
    await expectRefused({ ...BODIES.lionel(), inbound_gateway_id: null, outbound_gateway_id: undefined }, [
      { path: 'inboundGatewayId', code: 'required', args: {} },
      { path: 'outboundGatewayId', code: 'required', args: {} },
    ]);
    await expectRefused({ ...BODIES.lionel(), outbound_gateway_id: gateways.once }, [
      { path: 'outboundGatewayId', code: 'invalid', args: { reason: 'provider' } },
    ]);
    await expectRefused({ ...BODIES.once(), inbound_gateway_id: 999_999 }, [
      { path: 'inboundGatewayId', code: 'invalid', args: {} },
    ]);
  });

  it('refuses an unassigned device of another type or one that does not exist', async () => {
    const db = t.database.db;
    const iot = await buildUnassigned(db, 'iot', `thing-wrong-kind-${next()}`);
    await expectRefused({ type: 'net', name: 'Netz', address: address(), unassigned_device_id: iot.id }, [
      { path: 'unassignedDeviceId', code: 'invalid', args: {} },
    ]);
    await expectRefused({ type: 'lx_iot', name: 'LX', address: address(), unassigned_device_id: 999_999 }, [
      { path: 'unassignedDeviceId', code: 'invalid', args: {} },
    ]);
  });

  it('requires a known country', async () => {
    await expectRefused({ ...BODIES.iot(), address: address({ country_code: 'XX' }) }, [
      { path: 'address.countryCode', code: 'invalid', args: {} },
    ]);
  });

  const BOUNDS: [string, number, (value: string) => object][] = [
    ['name', 64, (value) => ({ ...BODIES.iot(), name: value })],
    ['project', 128, (value) => ({ ...BODIES.iot(), project: value })],
    ['address.street', 128, (value) => ({ ...BODIES.iot(), address: address({ street: value }) })],
    [
      'address.streetNumber',
      12,
      (value) => ({ ...BODIES.iot(), address: address({ street_number: value }) }),
    ],
    ['address.postalCode', 8, (value) => ({ ...BODIES.iot(), address: address({ postal_code: value }) })],
    ['address.city', 64, (value) => ({ ...BODIES.iot(), address: address({ city: value }) })],
  ];
  for (const [path, max, body] of BOUNDS) {
    it(`${path}: ${max} characters are fine, ${max + 1} are not`, async () => {
      expect((await create(body('x'.repeat(max)))).statusCode).toBe(201);
      await expectRefused(body('y'.repeat(max + 1)), [{ path, code: 'max_length', args: { max } }]);
    });
  }

  it('iccid: 32 digits are fine, 33 are not', async () => {
    const digits = (length: number) => `${next()}${'7'.repeat(length - 4)}`;
    expect((await create({ ...BODIES.lxIot(), iccid: digits(32) })).statusCode).toBe(201);
    await expectRefused({ ...BODIES.lxIot(), iccid: digits(33) }, [
      { path: 'iccid', code: 'max_length', args: { max: 32 } },
    ]);
    expect((await create({ ...BODIES.once(), iccid: digits(32) })).statusCode).toBe(201);
    await expectRefused({ ...BODIES.once(), iccid: digits(33) }, [
      { path: 'iccid', code: 'max_length', args: { max: 32 } },
    ]);
  });

  it('thingName: 128 characters are fine, 129 are not', async () => {
    const name = (length: number) => `${next()}${'t'.repeat(length - 4)}`;
    expect((await create({ ...BODIES.iot(), thing_name: name(128) })).statusCode).toBe(201);
    await expectRefused({ ...BODIES.iot(), thing_name: name(129) }, [
      { path: 'thingName', code: 'max_length', args: { max: 128 } },
    ]);
  });
});

describe('POST /v2/devices conflicts', () => {
  it('answers conflict naming the device that uses the ident', async () => {
    const db = t.database.db;
    const [other] = await db.select().from(users).where(eq(users.username, 'create-other-admin'));
    // Another customer's device: the conflict still names it (the ident cannot be used twice).
    const sms = await buildDevice(db, other.id, {
      type: 'sms',
      identType: 'cell_number',
      identCode: null,
      cellNumber: '+491705559999',
    });
    const lx = await buildDevice(db, ids.user, {
      type: 'lx_iot',
      identType: 'iccid',
      identCode: null,
      iccid: '8949100000009999',
    });
    const iot = await buildDevice(db, ids.user, {
      type: 'iot',
      identType: 'thing_name',
      identCode: null,
      thingName: 'thing-used',
    });
    const net = await buildDevice(db, ids.user);

    await expectRefused({ ...BODIES.lionel(), cell_number: '+49 170 5559999' }, [
      { path: 'cellNumber', code: 'conflict', args: { deviceId: sms.id } },
    ]);
    // An ICCID is one ident whether the device is 1NCE or LX-IoT.
    await expectRefused({ ...BODIES.once(), iccid: lx.iccid }, [
      { path: 'iccid', code: 'conflict', args: { deviceId: lx.id } },
    ]);
    await expectRefused({ ...BODIES.lxIot(), iccid: lx.iccid }, [
      { path: 'iccid', code: 'conflict', args: { deviceId: lx.id } },
    ]);
    await expectRefused({ ...BODIES.iot(), thing_name: 'thing-used' }, [
      { path: 'thingName', code: 'conflict', args: { deviceId: iot.id } },
    ]);
    const stale = await buildUnassigned(db, 'net', net.identCode!);
    await expectRefused({ type: 'net', name: 'Netz', address: address(), unassigned_device_id: stale.id }, [
      { path: 'unassignedDeviceId', code: 'conflict', args: { deviceId: net.id } },
    ]);
    // Refused: the unassigned entry stays.
    expect(await db.select().from(unassignedDevices).where(eq(unassignedDevices.id, stale.id))).toHaveLength(
      1,
    );
  });
});

describe('POST /v2/devices access', () => {
  it('is refused below admin, creating nothing', async () => {
    for (const username of ['user', 'demo']) {
      const before = await deviceCount();
      const response = await create(BODIES.iot(), username);
      expect(response.statusCode).toBe(403);
      expect(await deviceCount()).toBe(before);
    }
    const anonymous = new TestClient(t.app);
    await anonymous.get('/api/v2/whitelabels/current');
    expect((await anonymous.post('/api/v2/devices', BODIES.iot())).statusCode).toBe(401);
  });

  it('then assigns the new device to a user, which sees it', async () => {
    const created = (await create(BODIES.lxIot())).json().device;
    const assigned = await (
      await as('admin')
    ).put(`/api/v2/devices/${created.id}/assign-to-user`, {
      user_id: ids.user,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().user.id).toBe(ids.user);
    expect((await (await as('user')).get(`/api/v2/devices/${created.id}`)).statusCode).toBe(200);
    // Not visible to another customer's admin.
    expect((await (await as('create-other-admin')).get(`/api/v2/devices/${created.id}`)).statusCode).toBe(
      404,
    );
  });
});
