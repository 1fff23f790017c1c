import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { AuditAction } from '@tankportal/shared/schemas/audit';
import type { PasskeySummary } from '@tankportal/shared/schemas/passkeys';
import { auditEntries, loginHistory, passkeys } from '../../../db/schema.ts';
import { buildUser } from '../../../testing/factories.ts';
import { SoftwareAuthenticator } from '../../../testing/software-authenticator.ts';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES_PER_USERNAME: '6', LOGIN_MAX_FAILURES_PER_IP: '1000' });
});
afterAll(() => t.close());

// The test client's requests go to localhost on port 80: the relying party the server derives.
const authenticator = () => new SoftwareAuthenticator('localhost', 'http://localhost');

/** A browser at the login page: it holds an anti-forgery token, no session. */
async function visitor() {
  const client = new TestClient(t.app);
  await client.get('/api/v2/whitelabels/current');
  return client;
}

const signedIn = async (client: TestClient) => (await client.get('/api/v2/users/me')).statusCode === 200;

/** Adds a passkey through the settings' calls; answers the stored summary. */
async function addPasskey(client: TestClient, key: SoftwareAuthenticator, name = 'Laptop') {
  const options = await client.post('/api/v2/users/me/passkeys/options');
  expect(options.statusCode).toBe(200);
  const added = await client.post('/api/v2/users/me/passkeys', {
    name,
    credential: key.register(options.json()),
  });
  expect(added.statusCode, added.body).toBe(201);
  return added.json<PasskeySummary>();
}

/** A user whose only second factor is a passkey. */
async function userWithPasskey() {
  const user = await buildUser(t.database.db, { role: 'ROLE_USER' });
  const key = authenticator();
  await addPasskey(await t.signIn(user.username), key);
  return { user, key };
}

/** The password step of a sign-in in a new browser. */
async function afterPassword(username: string) {
  const client = await visitor();
  const answer = await client.post('/api/v2/login', { username, password: 'tankportal' });
  return { client, answer };
}

const recordedActions = async (userId: number): Promise<AuditAction[]> =>
  (
    await t.database.db
      .select({ action: auditEntries.action })
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectUserId, userId), eq(auditEntries.entityType, 'user')))
      .orderBy(auditEntries.id)
  ).map((entry) => entry.action);

describe('adding a passkey', () => {
  it('offers registration options for this host, and stores the passkey the browser made', async () => {
    const user = await buildUser(t.database.db, { role: 'ROLE_USER' });
    const client = await t.signIn(user.username);
    const elsewhere = await t.signIn(user.username);
    const options = (await client.post('/api/v2/users/me/passkeys/options')).json();
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Tank Portal' },
      user: { name: user.username },
      attestation: 'none',
      excludeCredentials: [],
    });
    expect(options.challenge).toMatch(/^[\w-]{43}$/);

    const key = authenticator();
    const added = await client.post('/api/v2/users/me/passkeys', {
      name: 'Laptop',
      credential: key.register(options),
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    expect((await client.get('/api/v2/users/me/passkeys')).json()).toEqual([added.json()]);
    // A new factor ends the other sessions, as TOTP's does.
    expect(await signedIn(client)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    // The same authenticator is excluded from the next registration.
    const next = (await client.post('/api/v2/users/me/passkeys/options')).json();
    expect(next.excludeCredentials).toEqual([
      { id: key.credentialId, type: 'public-key', transports: ['internal'] },
    ]);

    const [entry] = await t.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectUserId, user.id), eq(auditEntries.action, 'add_passkey')));
    expect(entry.changes).toEqual({ passkey: { old: null, new: 'Laptop' } });
    const [stored] = await t.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(JSON.stringify(entry)).not.toContain(stored.publicKey);
  });

  it('refuses an answer to no offer, to another challenge or for another host', async () => {
    const user = await buildUser(t.database.db, { role: 'ROLE_USER' });
    const client = await t.signIn(user.username);
    const key = authenticator();
    const register = (credential: unknown) =>
      client.post('/api/v2/users/me/passkeys', { name: 'X', credential });
    expect((await register(key.register({ challenge: 'AAAA' }))).statusCode).toBe(409);

    await client.post('/api/v2/users/me/passkeys/options');
    const otherChallenge = await register(key.register({ challenge: 'AAAA' }));
    expect(otherChallenge.statusCode).toBe(400);
    expect(otherChallenge.json().fieldErrors).toEqual([{ path: 'credential', code: 'invalid', args: {} }]);
    // The offer was used up by the refused answer.
    expect((await register(key.register({ challenge: 'AAAA' }))).statusCode).toBe(409);

    const options = (await client.post('/api/v2/users/me/passkeys/options')).json();
    const phishing = new SoftwareAuthenticator('localhost', 'https://tank-portal.example');
    expect((await register(phishing.register(options))).statusCode).toBe(400);
    expect((await client.get('/api/v2/users/me/passkeys')).json()).toEqual([]);
    expect(await recordedActions(user.id)).toEqual([]);
  });

  it('is refused to demo accounts', async () => {
    const demo = await t.signIn('demo');
    expect((await demo.get('/api/v2/users/me/passkeys')).statusCode).toBe(403);
    expect((await demo.post('/api/v2/users/me/passkeys/options')).statusCode).toBe(403);
  });

  it('removes a passkey with the password, and records it', async () => {
    const user = await buildUser(t.database.db, { role: 'ROLE_USER' });
    const client = await t.signIn(user.username);
    const added = await addPasskey(client, authenticator(), 'Phone');
    const remove = (password: string) =>
      client.request('DELETE', `/api/v2/users/me/passkeys/${added.id}`, { password });
    expect((await remove('wrong-password')).statusCode).toBe(400);
    expect((await remove('tankportal')).statusCode).toBe(204);
    expect((await remove('tankportal')).statusCode).toBe(404);
    expect(await recordedActions(user.id)).toEqual(['add_passkey', 'remove_passkey']);
    // No factor left: the password alone signs in.
    expect((await afterPassword(user.username)).answer.statusCode).toBe(200);
  });
});

describe('signing in with a passkey', () => {
  it('holds a user with only a passkey at the pending step, and signs in with its assertion', async () => {
    const { user, key } = await userWithPasskey();
    const { client, answer } = await afterPassword(user.username);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({ secondFactorRequired: true, code: false, passkey: true });
    expect(await signedIn(client)).toBe(false);

    const options = (await client.post('/api/v2/login/passkey-options')).json();
    expect(options).toMatchObject({
      rpId: 'localhost',
      allowCredentials: [{ id: key.credentialId, type: 'public-key' }],
    });
    const signIn = await client.post('/api/v2/login/passkey', { credential: key.assert(options) });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json()).toMatchObject({ username: user.username });
    expect(await signedIn(client)).toBe(true);
    const [stored] = await t.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(stored.counter).toBe(1);
    expect(stored.lastUsedAt).not.toBeNull();
  });

  it('refuses an assertion that does not hold as a failed login', async () => {
    const { user, key } = await userWithPasskey();
    const { client } = await afterPassword(user.username);
    const options = (await client.post('/api/v2/login/passkey-options')).json();
    const right = key.assert(options);
    // Signed for another challenge, and by a key the user does not have.
    for (const credential of [
      key.assert({ challenge: 'AAAA' }),
      authenticator().assert(options),
      'no json',
    ]) {
      const answer = await client.post('/api/v2/login/passkey', { credential });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().fieldErrors).toEqual([{ path: 'credential', code: 'invalid', args: {} }]);
    }
    expect(await signedIn(client)).toBe(false);
    const history = await t.database.db
      .select({ result: loginHistory.result })
      .from(loginHistory)
      .where(eq(loginHistory.userId, user.id))
      .orderBy(desc(loginHistory.id))
      .limit(3);
    expect(history.map((entry) => entry.result)).toEqual(Array(3).fill('invalidCredentials'));
    expect((await client.post('/api/v2/login/passkey', { credential: right })).statusCode).toBe(200);

    // A counter that did not go up beyond the one seen: a cloned authenticator.
    const next = await afterPassword(user.username);
    const nextOptions = (await next.client.post('/api/v2/login/passkey-options')).json();
    key.counter = 0;
    const cloned = await next.client.post('/api/v2/login/passkey', { credential: key.assert(nextOptions) });
    expect(cloned.statusCode).toBe(400);
  });

  it('counts failures against the login limit', async () => {
    const { user, key } = await userWithPasskey();
    const { client } = await afterPassword(user.username);
    const options = (await client.post('/api/v2/login/passkey-options')).json();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1)
      statuses.push(
        (await client.post('/api/v2/login/passkey', { credential: key.assert({ challenge: 'AAAA' }) }))
          .statusCode,
      );
    expect(statuses.at(-1)).toBe(429);
    expect((await client.post('/api/v2/login/passkey', { credential: key.assert(options) })).statusCode).toBe(
      429,
    );
  });

  it('needs the password step first', async () => {
    const client = await visitor();
    expect((await client.post('/api/v2/login/passkey-options')).statusCode).toBe(401);
  });

  it("is removed with the TOTP factor by a master's reset", async () => {
    const { user } = await userWithPasskey();
    const master = await t.signIn('master');
    expect((await master.delete(`/api/v2/users/${user.id}/second-factor`)).statusCode).toBe(204);
    expect(await t.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
    expect(await recordedActions(user.id)).toEqual(['add_passkey', 'reset_second_factor']);
    expect((await afterPassword(user.username)).answer.statusCode).toBe(200);
  });
});
