import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { buildDevice, buildUser } from '../../../testing/factories.ts';
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
  const other = await buildUser(db, { username: 'contacts-other', parent: 'master' });
  await buildUser(db, { username: 'contacts-app-user', role: 'ROLE_APP_USER', parent: 'user' });
  ids.user = user.id;
  ids.demo = (await byName('demo')).id;
  ids.otherContact = (await buildContact(db, other.id, { firstName: 'Fremd', lastName: 'Kontakt' })).id;
  // A contact of the demo account: a demo user may not even read its own book.
  ids.demoContact = (await buildContact(db, ids.demo, { lastName: 'Demo' })).id;
  ids.tankA = (await buildDevice(db, user.id)).id;
  ids.tankB = (await buildDevice(db, user.id)).id;
});
afterAll(() => t.close());

const as = (username: string) => t.signIn(username);

const allContacts = () => t.database.db.select().from(contacts).orderBy(asc(contacts.id));

const valid = { first_name: 'Max', last_name: 'Muster' };

describe('POST /v2/contacts', () => {
  it('creates a contact in the actor’s book, empty strings stored as null', async () => {
    const client = await as('user');
    const response = await client.post('/api/v2/contacts', {
      first_name: ' Max ',
      last_name: 'Muster',
      role: '',
      cell_number: '+49 (170) 123-45/67',
      email: 'max@example.com',
      language: 'en',
      comment: '',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(response.headers.location).toBe(`/api/v2/contacts/${body.id}`);
    expect(body).toEqual({
      id: body.id,
      handle: 'Muster, Max',
      firstName: 'Max',
      lastName: 'Muster',
      role: null,
      cellNumber: '+49 (170) 123-45/67',
      email: 'max@example.com',
      language: 'en',
      comment: null,
      deviceCount: 0,
    });
    const [row] = await t.database.db.select().from(contacts).where(eq(contacts.id, body.id));
    expect(row).toMatchObject({ userId: ids.user, role: null, comment: null, firstName: 'Max' });
  });

  it('defaults the language to de and needs only one of the names', async () => {
    const client = await as('user');
    const onlyFirst = (await client.post('/api/v2/contacts', { first_name: 'Nur' })).json();
    expect(onlyFirst).toMatchObject({ handle: 'Nur', lastName: null, language: 'de' });
    const onlyLast = (await client.post('/api/v2/contacts', { last_name: 'Letzter', first_name: '' })).json();
    expect(onlyLast).toMatchObject({ handle: 'Letzter', firstName: null });
  });

  const bounds: [string, string, number, (length: number) => string][] = [
    ['role', 'role', 128, (n) => 'r'.repeat(n)],
    ['first_name', 'firstName', 64, (n) => 'f'.repeat(n)],
    ['last_name', 'lastName', 64, (n) => 'l'.repeat(n)],
    ['email', 'email', 128, (n) => `${'e'.repeat(n - '@example.com'.length)}@example.com`],
    ['cell_number', 'cellNumber', 32, (n) => `+${'1'.repeat(n - 1)}`],
    ['comment', 'comment', 1000, (n) => 'c'.repeat(n)],
  ];
  for (const [key, path, max, value] of bounds) {
    it(`accepts ${path} of ${max} characters and refuses ${max + 1}`, async () => {
      const client = await as('user');
      const inside = await client.post('/api/v2/contacts', { ...valid, [key]: value(max) });
      expect(inside.statusCode).toBe(201);
      expect(inside.json()[path]).toBe(value(max));
      const before = await allContacts();
      const outside = await client.post('/api/v2/contacts', { ...valid, [key]: value(max + 1) });
      expect(outside.statusCode).toBe(400);
      expect(outside.json().fieldErrors).toEqual([{ path, code: 'max_length', args: { max } }]);
      expect(await allContacts()).toEqual(before);
    });
  }

  it('checks the formats of e-mail, cell number and language', async () => {
    const client = await as('user');
    const cases: [Record<string, string>, string][] = [
      [{ email: 'max@' }, 'email'],
      [{ email: 'max example.com' }, 'email'],
      [{ cell_number: '12345' }, 'cellNumber'],
      [{ cell_number: '+49 170 12345x' }, 'cellNumber'],
      [{ cell_number: '++49170123456' }, 'cellNumber'],
      [{ language: 'fr' }, 'language'],
    ];
    const before = await allContacts();
    for (const [fields, path] of cases) {
      const response = await client.post('/api/v2/contacts', { ...valid, ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(response.json().fieldErrors).toEqual([{ path, code: 'invalid', args: {} }]);
    }
    expect(await allContacts()).toEqual(before);
    // Just inside: the shortest number the format allows, and a plain address.
    const inside = await client.post('/api/v2/contacts', {
      ...valid,
      cell_number: '123456',
      email: 'a@b.de',
    });
    expect(inside.statusCode).toBe(201);
  });

  it('needs a first or last name (error on lastName), also among other errors', async () => {
    const client = await as('user');
    const before = await allContacts();
    const none = await client.post('/api/v2/contacts', {
      first_name: ' ',
      last_name: '',
      email: 'x@example.com',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().fieldErrors).toEqual([{ path: 'lastName', code: 'required', args: {} }]);
    const more = await client.post('/api/v2/contacts', { email: 'bad' });
    expect(more.json().fieldErrors).toEqual([
      { path: 'email', code: 'invalid', args: {} },
      { path: 'lastName', code: 'required', args: {} },
    ]);
    expect(await allContacts()).toEqual(before);
  });
});

describe('GET /v2/contacts', () => {
  it('lists only the actor’s contacts, sorted by handle, with their device count', async () => {
    const db = t.database.db;
    const owner = await buildUser(db, { username: 'contacts-lister', parent: 'admin' });
    const zeta = await buildContact(db, owner.id, { firstName: 'Zora', lastName: 'Zeta' });
    const alpha = await buildContact(db, owner.id, { firstName: 'Anna', lastName: 'alpha' });
    const first = await buildContact(db, owner.id, { firstName: 'Berta', lastName: null });
    await buildRecipient(db, ids.tankA, zeta.id);
    await buildRecipient(db, ids.tankB, zeta.id);
    const client = await as('contacts-lister');
    const response = await client.get('/api/v2/contacts');
    expect(response.statusCode).toBe(200);
    expect(
      response.json().map((c: { handle: string; deviceCount: number }) => [c.handle, c.deviceCount]),
    ).toEqual([
      ['alpha, Anna', 0],
      ['Berta', 0],
      ['Zeta, Zora', 2],
    ]);
    const one = await client.get(`/api/v2/contacts/${zeta.id}`);
    expect(one.json()).toMatchObject({ id: zeta.id, handle: 'Zeta, Zora', deviceCount: 2 });
    expect((await client.get(`/api/v2/contacts/${alpha.id}`)).json().id).toBe(alpha.id);
    expect((await client.get(`/api/v2/contacts/${first.id}`)).json().lastName).toBeNull();
  });
});

describe('PUT and DELETE /v2/contacts/{id}', () => {
  it('changes a contact with the same rules', async () => {
    const client = await as('user');
    const created = (await client.post('/api/v2/contacts', { ...valid, email: 'old@example.com' })).json();
    const response = await client.put(`/api/v2/contacts/${created.id}`, {
      first_name: 'Moritz',
      last_name: 'Muster',
      email: '',
      cell_number: '+41 44 1234567',
      language: 'en',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: created.id,
      handle: 'Muster, Moritz',
      email: null,
      language: 'en',
    });
    const before = await allContacts();
    const bad = await client.put(`/api/v2/contacts/${created.id}`, { ...valid, last_name: 'l'.repeat(65) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([{ path: 'lastName', code: 'max_length', args: { max: 64 } }]);
    expect(await allContacts()).toEqual(before);
  });

  it('deletes a contact and its recipients with it', async () => {
    const db = t.database.db;
    const contact = await buildContact(db, ids.user, { lastName: 'Weg' });
    await buildRecipient(db, ids.tankA, contact.id, [
      { name: 'alarm', channels: ['sms'], notifyOnceIn: null },
    ]);
    const client = await as('user');
    const response = await client.delete(`/api/v2/contacts/${contact.id}`);
    expect(response.statusCode).toBe(204);
    expect(await db.select().from(contacts).where(eq(contacts.id, contact.id))).toEqual([]);
    expect(
      await db.select().from(notificationRecipients).where(eq(notificationRecipients.contactId, contact.id)),
    ).toEqual([]);
    expect((await client.get(`/api/v2/contacts/${contact.id}`)).statusCode).toBe(404);
  });
});

describe('who may use contacts', () => {
  it('answers 404 for another user’s contact on every call, changing nothing', async () => {
    const client = await as('user');
    const before = await allContacts();
    const url = `/api/v2/contacts/${ids.otherContact}`;
    expect((await client.get(url)).statusCode).toBe(404);
    expect((await client.put(url, valid)).statusCode).toBe(404);
    expect((await client.delete(url)).statusCode).toBe(404);
    expect((await client.get('/api/v2/contacts/2147483647')).statusCode).toBe(404);
    expect((await client.get('/api/v2/contacts/abc')).statusCode).toBe(404);
    expect((await client.get('/api/v2/contacts')).json().map((c: { id: number }) => c.id)).not.toContain(
      ids.otherContact,
    );
    // Even a master sees only its own book.
    expect((await (await as('master')).get(url)).statusCode).toBe(404);
    expect(await allContacts()).toEqual(before);
  });

  it('answers 403 to demo and app users on every call, changing nothing', async () => {
    const before = await allContacts();
    for (const username of ['demo', 'contacts-app-user']) {
      const client = await as(username);
      const url = `/api/v2/contacts/${ids.demoContact}`;
      expect((await client.get('/api/v2/contacts')).statusCode).toBe(403);
      expect((await client.get(url)).statusCode).toBe(403);
      expect((await client.post('/api/v2/contacts', valid)).statusCode).toBe(403);
      expect((await client.put(url, valid)).statusCode).toBe(403);
      expect((await client.delete(url)).statusCode).toBe(403);
    }
    expect(await allContacts()).toEqual(before);
  });

  it('answers 401 without a session', async () => {
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get('/api/v2/contacts')).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents contacts, the users lookup, recipients and access entries', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v2/contacts',
        '/api/v2/contacts/{id}',
        '/api/v2/users',
        '/api/v2/devices/{id}/notification-recipients/{recipientId}',
        '/api/v2/devices/{id}/aces/{aceId}',
      ]),
    );
    expect(document.paths['/api/v2/contacts'].post.requestBody).toBeDefined();
  });
});
