import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { buildContact, buildRecipient } from '../../../testing/contacts-factories.ts';
import { contacts, notificationRecipients, users } from '../../../db/schema.ts';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const byName = async (username: string) =>
    (await db.select().from(users).where(eq(users.username, username)))[0];
  const user = await byName('user');
  const demo = await byName('demo');
  const other = await buildUser(db, { username: 'rcp-other', parent: 'master' });
  const statusOnly = await buildUser(db, { username: 'rcp-status', parent: 'admin' });
  const reader = await buildUser(db, { username: 'rcp-reader', parent: 'admin' });
  const editor = await buildUser(db, { username: 'rcp-editor', parent: 'admin' });
  ids.user = user.id;
  ids.admin = (await byName('admin')).id;
  ids.tank = (await buildDevice(db, user.id)).id;
  ids.third = (await buildDevice(db, user.id)).id;
  ids.second = (await buildDevice(db, user.id)).id;
  ids.otherTank = (await buildDevice(db, other.id)).id;
  // Visible without the needed permission: only the status, or reading without EDIT.
  await grant(db, ids.tank, statusOnly.id, ['VIEW_STATUS']);
  await grant(db, ids.tank, reader.id, ['VIEW_STATUS', 'VIEW_CONFIGURATION']);
  await grant(db, ids.tank, editor.id, ['VIEW_STATUS', 'EDIT']);
  // The demo account holds EDIT on paper, but stays read-only.
  await grant(db, ids.tank, demo.id, ['VIEW_STATUS', 'VIEW_CONFIGURATION', 'EDIT']);
  ids.both = (await buildContact(db, user.id, { firstName: 'Beate', lastName: 'Beide' })).id;
  ids.mailOnly = (await buildContact(db, user.id, { lastName: 'Mail', cellNumber: null })).id;
  ids.smsOnly = (await buildContact(db, user.id, { lastName: 'Sms', email: null })).id;
  ids.editorContact = (await buildContact(db, editor.id, { lastName: 'Editor' })).id;
  ids.otherContact = (await buildContact(db, other.id, { lastName: 'Fremd' })).id;
  ids.adminContact = (await buildContact(db, ids.admin, { lastName: 'Adminbuch' })).id;
  ids.otherRecipient = (await buildRecipient(db, ids.otherTank, ids.otherContact)).id;
  ids.secondRecipient = (await buildRecipient(db, ids.second, ids.both)).id;
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const allRecipients = () =>
  t.database.db.select().from(notificationRecipients).orderBy(asc(notificationRecipients.id));
const base = (id: number) => `/api/v2/devices/${id}/notification-recipients`;

/** Every event, unset, as a recipient answers it for a contact with both channels. */
const unset = (name: string, allowedChannels: string[]) => ({
  name,
  channels: [],
  notifyOnceIn: null,
  allowedChannels,
});

describe('POST /v2/devices/{id}/notification-recipients', () => {
  it('adds a contact with its events; the answer lists all seven events in order', async () => {
    const client = await as('user');
    const response = await client.post(base(ids.tank), {
      contact_id: ids.both,
      events: [
        { name: 'forward', channels: ['mail'], notify_once_in: 0 },
        { name: 'alarm', channels: ['sms', 'mail'], notify_once_in: 43_200, allowed_channels: ['sms'] },
      ],
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(response.headers.location).toBe(`${base(ids.tank)}/${body.id}`);
    expect(body.contact).toMatchObject({ id: ids.both, handle: 'Beide, Beate', deviceCount: 2 });
    expect(body.events).toEqual([
      { name: 'alarm', channels: ['sms', 'mail'], notifyOnceIn: 43_200, allowedChannels: ['sms', 'mail'] },
      unset('threshold', ['sms', 'mail']),
      // 0 means unset.
      { name: 'forward', channels: ['mail'], notifyOnceIn: null, allowedChannels: ['mail'] },
      unset('sim_credit_low', ['sms', 'mail']),
      unset('forecast', ['sms', 'mail']),
      unset('sensor_health', ['sms', 'mail']),
      unset('order', ['sms', 'mail']),
    ]);
    const [row] = await t.database.db
      .select()
      .from(notificationRecipients)
      .where(eq(notificationRecipients.id, body.id));
    expect(row.events).toEqual([
      { name: 'forward', channels: ['mail'], notifyOnceIn: null },
      { name: 'alarm', channels: ['sms', 'mail'], notifyOnceIn: 43_200 },
    ]);
    expect((await client.get(`${base(ids.tank)}/${body.id}`)).json()).toEqual(body);
  });

  it('shows per contact which channels it can receive', async () => {
    const client = await as('user');
    const response = await client.post(base(ids.tank), { contact_id: ids.smsOnly, events: [] });
    expect(response.statusCode).toBe(201);
    expect(response.json().events).toEqual([
      unset('alarm', ['sms']),
      unset('threshold', ['sms']),
      unset('forward', []),
      unset('sim_credit_low', ['sms']),
      unset('forecast', ['sms']),
      unset('sensor_health', ['sms']),
      unset('order', ['sms']),
    ]);
  });

  it('refuses channels the event or the contact does not allow, and notifyOnceIn below 0', async () => {
    const client = await as('user');
    const before = await allRecipients();
    const cases: [number, unknown[], unknown[]][] = [
      // forward goes by mail only
      [
        ids.mailOnly,
        [{ name: 'forward', channels: ['sms'] }],
        [{ path: 'events.0.channels', code: 'invalid', args: { channel: 'sms' } }],
      ],
      // no cell number: no SMS
      [
        ids.mailOnly,
        [
          { name: 'alarm', channels: ['mail'] },
          { name: 'threshold', channels: ['sms', 'mail'] },
        ],
        [{ path: 'events.1.channels', code: 'invalid', args: { channel: 'sms' } }],
      ],
      // no e-mail: no mail
      [
        ids.smsOnly,
        [{ name: 'sim_credit_low', channels: ['mail'] }],
        [{ path: 'events.0.channels', code: 'invalid', args: { channel: 'mail' } }],
      ],
      [
        ids.mailOnly,
        [{ name: 'alarm', channels: ['mail'], notify_once_in: -1 }],
        [{ path: 'events.0.notifyOnceIn', code: 'min', args: { min: 0 } }],
      ],
      [
        ids.mailOnly,
        [{ name: 'alarm', channels: ['mail'], notify_once_in: 1.5 }],
        [{ path: 'events.0.notifyOnceIn', code: 'invalid', args: {} }],
      ],
      [
        ids.mailOnly,
        [{ name: 'alarm', channels: ['fax'] }],
        [{ path: 'events.0.channels.0', code: 'invalid', args: {} }],
      ],
      [
        ids.mailOnly,
        [{ name: 'storm', channels: [] }],
        [{ path: 'events.0.name', code: 'invalid', args: {} }],
      ],
      [
        ids.mailOnly,
        [
          { name: 'alarm', channels: ['mail'] },
          { name: 'alarm', channels: [] },
        ],
        [{ path: 'events.1.name', code: 'conflict', args: {} }],
      ],
    ];
    // On the second device, where none of these contacts is a recipient yet.
    for (const [contactId, events, fieldErrors] of cases) {
      const response = await client.post(base(ids.second), { contact_id: contactId, events });
      expect(response.statusCode, JSON.stringify(events)).toBe(400);
      expect(response.json().fieldErrors).toEqual(fieldErrors);
    }
    expect(await allRecipients()).toEqual(before);
    // Just inside: notifyOnceIn 0 (unset) and 1 second.
    const inside = await client.post(base(ids.tank), {
      contact_id: ids.mailOnly,
      events: [
        { name: 'alarm', channels: ['mail'], notify_once_in: 1 },
        { name: 'threshold', channels: ['mail'], notify_once_in: 0 },
      ],
    });
    expect(inside.statusCode).toBe(201);
    expect(
      inside
        .json()
        .events.slice(0, 2)
        .map((e: { notifyOnceIn: number | null }) => e.notifyOnceIn),
    ).toEqual([1, null]);
  });

  it('takes only the actor’s own contacts, each once per device', async () => {
    const client = await as('user');
    const before = await allRecipients();
    for (const contactId of [ids.otherContact, ids.editorContact, 2_147_483_647]) {
      const response = await client.post(base(ids.tank), { contact_id: contactId, events: [] });
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual([{ path: 'contactId', code: 'invalid', args: {} }]);
    }
    const twice = await client.post(base(ids.second), { contact_id: ids.both, events: [] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fieldErrors).toEqual([{ path: 'contactId', code: 'conflict', args: {} }]);
    const missing = await client.post(base(ids.tank), { events: [] });
    expect(missing.json().fieldErrors).toEqual([{ path: 'contactId', code: 'required', args: {} }]);
    expect(await allRecipients()).toEqual(before);
  });

  it('lets a user holding EDIT by an access entry add its own contact', async () => {
    const client = await as('rcp-editor');
    const response = await client.post(base(ids.tank), {
      contact_id: ids.editorContact,
      events: [{ name: 'alarm', channels: ['sms'] }],
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('contacts of the device owner', () => {
  it('offers an admin its own contacts and those of the customer owning the device, naming the owner', async () => {
    const admin = await as('admin');
    const response = await admin.get(`/api/v2/devices/${ids.third}/recipient-contacts`);
    expect(response.statusCode).toBe(200);
    const offered = response.json() as { id: number; owner: { id: number; name: string; own: boolean } }[];
    // Own first, then the owner's; never another user's (Fremd) or a managed non-owner's (Editor).
    expect(offered[0].id).toBe(ids.adminContact);
    expect(offered.slice(1).every((contact) => contact.owner.id === ids.user)).toBe(true);
    expect(offered.map((contact) => contact.id)).toEqual(
      expect.arrayContaining([ids.both, ids.mailOnly, ids.smsOnly]),
    );
    expect(offered.find((contact) => contact.id === ids.both)!.owner).toEqual({
      id: ids.user,
      name: expect.stringMatching(/\S/),
      own: false,
    });
    expect(offered[0].owner).toMatchObject({ id: ids.admin, own: true });
  });

  it('offers a user with mere EDIT access to somebody else’s device only its own book', async () => {
    const editor = await as('rcp-editor');
    const offered = (await editor.get(`/api/v2/devices/${ids.tank}/recipient-contacts`)).json();
    expect(offered.map((contact: { id: number }) => contact.id)).toEqual([ids.editorContact]);
    const reader = await as('rcp-reader');
    expect((await reader.get(`/api/v2/devices/${ids.tank}/recipient-contacts`)).statusCode).toBe(403);
  });

  it('lets the admin add the owner’s contact and refuses other users’ contacts', async () => {
    const admin = await as('admin');
    const added = await admin.post(base(ids.third), { contact_id: ids.mailOnly, events: [] });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().contact).toMatchObject({ id: ids.mailOnly });
    for (const contactId of [ids.otherContact, ids.editorContact]) {
      const refused = await admin.post(base(ids.third), { contact_id: contactId, events: [] });
      expect(refused.json().fieldErrors).toEqual([{ path: 'contactId', code: 'invalid', args: {} }]);
    }
    // The editor may change the device, but does not manage its owner: the owner's book is closed.
    const editor = await as('rcp-editor');
    const closed = await editor.post(base(ids.third), { contact_id: ids.smsOnly, events: [] });
    expect(closed.statusCode).toBe(404);
    const refused = await editor.post(base(ids.tank), { contact_id: ids.smsOnly, events: [] });
    expect(refused.json().fieldErrors).toEqual([{ path: 'contactId', code: 'invalid', args: {} }]);
  });

  it('creates a new contact and the recipient in one step, or neither', async () => {
    const admin = await as('admin');
    const countContacts = async () => (await t.database.db.select().from(contacts)).length;
    const before = await countContacts();
    // The contact has no cell number: an sms channel is refused, and no contact stays behind.
    const refused = await admin.post(base(ids.third), {
      contact: { last_name: 'Neu', email: 'neu@example.com' },
      events: [{ name: 'alarm', channels: ['sms'] }],
    });
    expect(refused.statusCode).toBe(400);
    expect(await countContacts()).toBe(before);
    const both = await admin.post(base(ids.third), {
      contact_id: ids.adminContact,
      contact: { last_name: 'Neu' },
      events: [],
    });
    expect(both.json().fieldErrors).toEqual([{ path: 'contactId', code: 'invalid', args: {} }]);
    const created = await admin.post(base(ids.third), {
      contact: { last_name: 'Neu', email: 'neu@example.com' },
      events: [{ name: 'alarm', channels: ['mail'] }],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().contact).toMatchObject({ handle: 'Neu', email: 'neu@example.com', deviceCount: 1 });
    const [row] = await t.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.id, created.json().contact.id));
    // The new contact is the actor's (decision 020: contacts are personal).
    expect(row.userId).toBe(ids.admin);
  });
});

describe('GET, PUT and DELETE /v2/devices/{id}/notification-recipients/{recipientId}', () => {
  it('lists the device’s recipients sorted by contact handle', async () => {
    const list = (await (await as('rcp-reader')).get(base(ids.tank))).json();
    expect(list.map((r: { contact: { handle: string } }) => r.contact.handle)).toEqual([
      'Beide, Beate',
      'Editor, Erika',
      'Mail, Erika',
      'Sms, Erika',
    ]);
  });

  it('changes the events with the same rules', async () => {
    const db = t.database.db;
    const recipient = await buildRecipient(db, ids.second, ids.mailOnly, [
      { name: 'alarm', channels: ['mail'], notifyOnceIn: null },
    ]);
    const url = `${base(ids.second)}/${recipient.id}`;
    const client = await as('user');
    const response = await client.put(url, {
      events: [{ name: 'threshold', channels: ['mail'], notify_once_in: 86_400 }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().events).toEqual([
      unset('alarm', ['mail']),
      { name: 'threshold', channels: ['mail'], notifyOnceIn: 86_400, allowedChannels: ['mail'] },
      unset('forward', ['mail']),
      unset('sim_credit_low', ['mail']),
      unset('forecast', ['mail']),
      unset('sensor_health', ['mail']),
      unset('order', ['mail']),
    ]);
    const before = await allRecipients();
    const bad = await client.put(url, { events: [{ name: 'alarm', channels: ['sms'] }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { path: 'events.0.channels', code: 'invalid', args: { channel: 'sms' } },
    ]);
    const negative = await client.put(url, { events: [{ name: 'alarm', channels: [], notify_once_in: -1 }] });
    expect(negative.json().fieldErrors).toEqual([
      { path: 'events.0.notifyOnceIn', code: 'min', args: { min: 0 } },
    ]);
    expect(await allRecipients()).toEqual(before);

    expect((await client.delete(url)).statusCode).toBe(204);
    expect(
      await db.select().from(notificationRecipients).where(eq(notificationRecipients.id, recipient.id)),
    ).toEqual([]);
    expect((await client.get(url)).statusCode).toBe(404);
  });
});

describe('who may see and change recipients', () => {
  const events = { events: [{ name: 'alarm', channels: ['mail'] }] };

  it('answers 404 for another customer’s device and for a recipient of another device', async () => {
    const client = await as('user');
    const before = await allRecipients();
    const foreign = `${base(ids.otherTank)}/${ids.otherRecipient}`;
    expect((await client.get(base(ids.otherTank))).statusCode).toBe(404);
    expect((await client.get(foreign)).statusCode).toBe(404);
    expect((await client.post(base(ids.otherTank), { contact_id: ids.both, events: [] })).statusCode).toBe(
      404,
    );
    expect((await client.put(foreign, events)).statusCode).toBe(404);
    expect((await client.delete(foreign)).statusCode).toBe(404);
    // The other customer's recipient through the user's own device: still unknown.
    const crossed = `${base(ids.tank)}/${ids.otherRecipient}`;
    expect((await client.get(crossed)).statusCode).toBe(404);
    expect((await client.put(crossed, events)).statusCode).toBe(404);
    expect((await client.delete(crossed)).statusCode).toBe(404);
    expect(await allRecipients()).toEqual(before);
  });

  it('answers 403 without VIEW_CONFIGURATION (reading) or EDIT (changing), changing nothing', async () => {
    const [some] = await t.database.db
      .select()
      .from(notificationRecipients)
      .where(eq(notificationRecipients.deviceId, ids.tank));
    const url = `${base(ids.tank)}/${some.id}`;
    const before = await allRecipients();
    const statusOnly = await as('rcp-status');
    expect((await statusOnly.get(base(ids.tank))).statusCode).toBe(403);
    expect((await statusOnly.get(url)).statusCode).toBe(403);
    for (const username of ['rcp-status', 'rcp-reader', 'demo']) {
      const client = await as(username);
      expect((await client.post(base(ids.tank), { contact_id: ids.both, events: [] })).statusCode).toBe(403);
      expect((await client.put(url, events)).statusCode).toBe(403);
      expect((await client.delete(url)).statusCode).toBe(403);
    }
    const reader = await as('rcp-reader');
    expect((await reader.get(url)).statusCode).toBe(200);
    expect((await (await as('demo')).get(url)).statusCode).toBe(200);
    expect(await allRecipients()).toEqual(before);
  });
});
