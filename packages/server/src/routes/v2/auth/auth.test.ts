import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { loginHistory, users } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';
import { setUserStatus } from '../../../repositories/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES_PER_USERNAME: '3', LOGIN_MAX_FAILURES_PER_IP: '1000' });
});
afterAll(() => t.close());

const client = () => new TestClient(t.app);

describe('login', () => {
  it('signs in, answers the user and sets an httpOnly SameSite session cookie', async () => {
    const c = client();
    const response = await c.login('admin');
    expect(response.json()).toMatchObject({ username: 'admin', role: 'ROLE_ADMIN', impersonator: null });
    const session = response.cookies.find((cookie) => cookie.name === 'tp_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const me = await c.get('/api/v2/users/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe('admin');
  });

  it('answers 400 invalidCredentials for a wrong password or an unknown user, and records the attempt', async () => {
    const c = client();
    await c.get('/api/v2/whitelabels/current');
    const wrong = await c.post('/api/v2/login', { username: 'user', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: 'invalidCredentials', fieldErrors: [] });
    const unknown = await c.post('/api/v2/login', { username: 'nobody-here', password: 'whatever1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('invalidCredentials');
    expect(c.cookies.has('tp_session')).toBe(false);
    const rows = await t.database.db.select().from(loginHistory).where(eq(loginHistory.username, 'user'));
    expect(rows.some((row) => row.result === 'invalidCredentials' && row.whitelabel === 'tankportal')).toBe(
      true,
    );
  });

  it('answers missing fields with field errors in the spec shape', async () => {
    const c = client();
    await c.get('/api/v2/whitelabels/current');
    const response = await c.post('/api/v2/login', { username: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual(
      expect.arrayContaining([
        { path: 'username', code: 'required', args: {} },
        { path: 'password', code: 'required', args: {} },
      ]),
    );
  });

  it('limits failed logins per username with 429 and Retry-After, even for the right password', async () => {
    const [demo] = await t.database.db.select().from(users).where(eq(users.username, 'demo'));
    await t.database.db
      .insert(users)
      .values({ username: 'guessed', role: 'ROLE_USER', passwordHash: demo.passwordHash });
    const c = client();
    await c.get('/api/v2/whitelabels/current');
    for (let i = 0; i < 3; i++) {
      expect((await c.post('/api/v2/login', { username: 'guessed', password: `bad-${i}` })).statusCode).toBe(
        400,
      );
    }
    const limited = await c.post('/api/v2/login', { username: 'GUESSED', password: 'tankportal' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.cookies.find((cookie) => cookie.name === 'tp_session')).toBeUndefined();
  });

  it('limits failed logins per IP address', async () => {
    const limited = await createTestApp({ LOGIN_MAX_FAILURES_PER_IP: '2' });
    try {
      const c = new TestClient(limited.app);
      await c.get('/api/v2/whitelabels/current');
      await c.post('/api/v2/login', { username: 'alpha-user', password: 'x' });
      await c.post('/api/v2/login', { username: 'beta-user', password: 'x' });
      const response = await c.post('/api/v2/login', { username: 'master', password: 'tankportal' });
      expect(response.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('gives a new session id at every login', async () => {
    const c = client();
    await c.login('user');
    const first = c.cookies.get('tp_session');
    await c.login('user');
    const second = c.cookies.get('tp_session');
    expect(second).not.toBe(first);
    const stale = client();
    stale.cookies.set('tp_session', first!);
    expect((await stale.get('/api/v2/users/me')).statusCode).toBe(401);
  });
});

describe('anti-forgery token', () => {
  it('refuses a state change without the header with 403 and changes nothing', async () => {
    const c = client();
    await c.login('user');
    const before = await t.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.username, 'user'));
    const response = await c.request(
      'PUT',
      '/api/v2/users/me/credentials',
      { current_password: 'tankportal', password: 'new-password-1', password_repeat: 'new-password-1' },
      { 'x-csrf-token': '' },
    );
    expect(response.statusCode).toBe(403);
    const after = await t.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.username, 'user'));
    expect(after[0].hash).toBe(before[0].hash);
  });

  it('refuses a login without the token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v2/login',
      payload: { username: 'user', password: 'tankportal' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('session', () => {
  it('answers 401 without a session', async () => {
    expect((await client().get('/api/v2/users/me')).statusCode).toBe(401);
    expect((await client().get('/api/v2/content-types')).statusCode).toBe(401);
  });

  it('logout ends the session server-side: the old cookie no longer works', async () => {
    const c = client();
    await c.login('user');
    const cookie = c.cookies.get('tp_session')!;
    expect((await c.post('/api/v2/logout')).statusCode).toBe(204);
    const replay = client();
    replay.cookies.set('tp_session', cookie);
    expect((await replay.get('/api/v2/users/me')).statusCode).toBe(401);
  });

  it('ends the sessions of a locked user at once', async () => {
    const c = client();
    await c.login('demo');
    expect((await c.get('/api/v2/users/me')).statusCode).toBe(200);
    const [demo] = await t.database.db.select().from(users).where(eq(users.username, 'demo'));
    await setUserStatus(t.database.db, t.app.context.sessions, demo.id, 'locked');
    try {
      expect((await c.get('/api/v2/users/me')).statusCode).toBe(401);
    } finally {
      await setUserStatus(t.database.db, t.app.context.sessions, demo.id, 'ok');
    }
  });
});

describe('credentials change', () => {
  const url = '/api/v2/users/me/credentials';

  it('rejects a mismatching repeat, a short password and a wrong current password', async () => {
    const c = client();
    await c.login('admin');
    const mismatch = await c.put(url, {
      current_password: 'tankportal',
      password: 'abcdefgh',
      password_repeat: 'abcdefgX',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fieldErrors).toContainEqual({
      path: 'passwordRepeat',
      code: 'password_mismatch',
      args: {},
    });
    const short = await c.put(url, {
      current_password: 'tankportal',
      password: 'abc',
      password_repeat: 'abc',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors).toContainEqual({
      path: 'password',
      code: 'min_length',
      args: { min: 8 },
    });
    const wrong = await c.put(url, {
      current_password: 'not-it-at-all',
      password: 'abcdefgh',
      password_repeat: 'abcdefgh',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toContainEqual({ path: 'currentPassword', code: 'invalid', args: {} });
    // Nothing changed: the old password still signs in.
    await client().login('admin');
  });

  it('changes the password; the new one signs in, the old one not, other sessions end', async () => {
    const other = client();
    await other.login('master');
    const c = client();
    await c.login('master');
    const response = await c.put(url, {
      current_password: 'tankportal',
      password: 'brand-new-pass',
      password_repeat: 'brand-new-pass',
    });
    expect(response.statusCode).toBe(204);
    expect((await c.get('/api/v2/users/me')).statusCode).toBe(200);
    expect((await other.get('/api/v2/users/me')).statusCode).toBe(401);
    const fresh = client();
    await fresh.get('/api/v2/whitelabels/current');
    expect(
      (await fresh.post('/api/v2/login', { username: 'master', password: 'tankportal' })).statusCode,
    ).toBe(400);
    await fresh.login('master', 'brand-new-pass');
    await c.put(url, {
      current_password: 'brand-new-pass',
      password: 'tankportal',
      password_repeat: 'tankportal',
    });
  });
});

describe('impersonation', () => {
  it('lets an admin act as a user of its subtree and exit again', async () => {
    const c = client();
    await c.login('admin');
    const start = await c.get('/api/v2/users/me?_impersonate_user=user');
    expect(start.statusCode).toBe(200);
    expect(start.json()).toMatchObject({
      username: 'user',
      role: 'ROLE_USER',
      impersonator: { username: 'admin' },
    });
    expect((await c.get('/api/v2/users/me')).json()).toMatchObject({
      username: 'user',
      impersonator: { username: 'admin' },
    });
    const exit = await c.get('/api/v2/users/me?_impersonate_user=_exit');
    expect(exit.json()).toMatchObject({ username: 'admin', impersonator: null });
  });

  it('lets a master act as anyone below, but nobody act as an equal or higher role or outside the subtree', async () => {
    const master = client();
    await master.login('master');
    expect((await master.get('/api/v2/users/me?_impersonate_user=demo')).statusCode).toBe(200);

    const admin = client();
    await admin.login('admin');
    expect((await admin.get('/api/v2/users/me?_impersonate_user=master')).statusCode).toBe(403);
    expect((await admin.get('/api/v2/users/me?_impersonate_user=nobody-known')).statusCode).toBe(404);

    const user = client();
    await user.login('user');
    expect((await user.get('/api/v2/users/me?_impersonate_user=demo')).statusCode).toBe(403);
    expect((await user.get('/api/v2/users/me')).json().impersonator).toBeNull();
  });

  it('keeps admins out of other subtrees', async () => {
    const [master] = await t.database.db.select().from(users).where(eq(users.username, 'master'));
    const [outsider] = await t.database.db
      .insert(users)
      .values({
        username: 'outsider',
        role: 'ROLE_USER',
        passwordHash: master.passwordHash,
        parentUserId: master.id,
      })
      .returning();
    const admin = client();
    await admin.login('admin');
    expect((await admin.get(`/api/v2/users/me?_impersonate_user=${outsider.username}`)).statusCode).toBe(403);
  });
});

describe('bearer API token', () => {
  it('authenticates without cookie and without anti-forgery token', async () => {
    const token = 'integration-token-of-the-admin-account';
    await t.database.db
      .update(users)
      .set({ authTokenHash: hashToken(token) })
      .where(eq(users.username, 'admin'));
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v2/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe('admin');
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/v2/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.statusCode).toBe(204);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/api/v2/users/me',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
  });
});
