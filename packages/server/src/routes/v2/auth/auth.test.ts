import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../../../app.ts';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';
import { loginHistory, users } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';
import { setUserStatus } from '../../../repositories/users.ts';
import { buildDevice, buildUser } from '../../../testing/factories.ts';

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

  it('answers missing fields with field errors in the API shape', async () => {
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

  it('lets 25 parallel wrong guesses check at most 10 passwords; then even the right one is refused', async () => {
    const limited = await createTestApp({ LOGIN_MAX_FAILURES_PER_IP: '1000' });
    try {
      await buildUser(limited.database.db, { username: 'raced' });
      const c = new TestClient(limited.app);
      await c.get('/api/v2/whitelabels/current');
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          c.post('/api/v2/login', { username: 'raced', password: `guess-${i}` }),
        ),
      );
      const codes = answers.map((answer) => answer.statusCode);
      expect(codes.filter((code) => code === 400)).toHaveLength(10);
      expect(codes.filter((code) => code === 429)).toHaveLength(15);
      const right = await c.post('/api/v2/login', { username: 'raced', password: 'tankportal' });
      expect(right.statusCode).toBe(429);
      expect(right.cookies.find((cookie) => cookie.name === 'tp_session')).toBeUndefined();
      const history = await limited.database.db
        .select()
        .from(loginHistory)
        .where(eq(loginHistory.username, 'raced'));
      expect(history.filter((row) => row.result === 'invalidCredentials')).toHaveLength(10);
      expect(history.filter((row) => row.result === 'rateLimited')).toHaveLength(16);
    } finally {
      await limited.close();
    }
  });

  it('counts in the database: a second server process on the same database sees the same count', async () => {
    const limited = await createTestApp({ LOGIN_MAX_FAILURES_PER_USERNAME: '4' });
    const secondProcess = await buildApp(limited.database.db, limited.config, { logger: false });
    try {
      await buildUser(limited.database.db, { username: 'shared-count' });
      const guess = async (app: typeof secondProcess, password: string) => {
        const c = new TestClient(app);
        await c.get('/api/v2/whitelabels/current');
        return (await c.post('/api/v2/login', { username: 'shared-count', password })).statusCode;
      };
      expect([
        await guess(limited.app, 'one-guess'),
        await guess(secondProcess, 'two-guess'),
        await guess(limited.app, 'three-guess'),
        await guess(secondProcess, 'four-guess'),
      ]).toEqual([400, 400, 400, 400]);
      expect(await guess(limited.app, 'tankportal')).toBe(429);
      expect(await guess(secondProcess, 'tankportal')).toBe(429);
    } finally {
      await secondProcess.close();
      await limited.close();
    }
  });

  it('counts only failures against an address: many users behind one address keep signing in', async () => {
    const limited = await createTestApp({ LOGIN_MAX_FAILURES_PER_IP: '2' });
    try {
      for (let i = 0; i < 4; i++) await new TestClient(limited.app).login('user');
      const c = new TestClient(limited.app);
      await c.get('/api/v2/whitelabels/current');
      expect((await c.post('/api/v2/login', { username: 'user', password: 'wrong-one' })).statusCode).toBe(
        400,
      );
      await new TestClient(limited.app).login('admin');
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

describe('the hooks see the path the router matched', () => {
  // Each reaches the login route (or no route at all) depending on how the router decodes it.
  const loginVariants = [
    '/%61pi/v2/login',
    '/api/v2/%6cogin',
    '/api/%76%32/login',
    '/%41PI/v2/login',
    '/API/v2/login',
    '//api/v2/login',
    '/api//v2/login',
    '/api/v2/login.',
    '/api/v2/login/',
    '/api/v2/login%2e',
    '/api/v2/./login',
    '/api/v2/x/../login',
  ];

  it('refuses a login without the anti-forgery token on every spelling of its path', async () => {
    for (const variant of loginVariants) {
      const response = await t.app.inject({
        method: 'POST',
        url: variant,
        payload: { username: 'user', password: 'tankportal' },
      });
      expect([403, 404], variant).toContain(response.statusCode);
      expect(
        response.cookies.find((cookie) => cookie.name === 'tp_session'),
        variant,
      ).toBeUndefined();
    }
  });

  it('authenticates and guards an encoded path exactly like the plain one', async () => {
    const c = client();
    await c.login('user');
    expect((await c.get('/%61pi/v2/users/me')).json().username).toBe('user');
    expect((await c.get('/api/v2/users/%6de')).json().username).toBe('user');
    const [before] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const body = {
      current_password: 'tankportal',
      password: 'forged-new-pass',
      password_repeat: 'forged-new-pass',
    };
    for (const path of ['/%61pi/v2/users/me/credentials', '/api/v2/users/me/%63redentials']) {
      const forged = await c.request('PUT', path, body, { 'x-csrf-token': '' });
      expect(forged.statusCode, path).toBe(403);
    }
    const [after] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    expect(after.passwordHash).toBe(before.passwordHash);
  });
});

describe('anti-forgery secret and caching', () => {
  it('issues a new anti-forgery secret at login: a token from before the login is refused', async () => {
    const c = client();
    await c.get('/api/v2/whitelabels/current');
    const tokenBefore = c.csrfToken!;
    const secretBefore = c.cookies.get('tp_csrf');
    await c.login('user');
    expect(c.cookies.get('tp_csrf')).not.toBe(secretBefore);
    expect(c.csrfToken).not.toBe(tokenBefore);
    const [before] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    const body = {
      current_password: 'tankportal',
      password: 'planted-token-1',
      password_repeat: 'planted-token-1',
    };
    const stale = await c.request('PUT', '/api/v2/users/me/credentials', body, {
      'x-csrf-token': tokenBefore,
    });
    expect(stale.statusCode).toBe(403);
    const [after] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
    expect(after.passwordHash).toBe(before.passwordHash);
    // The token of the login answer works.
    expect((await c.post('/api/v2/logout')).statusCode).toBe(204);
  });

  it('marks every API answer no-store: signed in, by bearer token, at login and the public status page', async () => {
    const c = client();
    const login = await c.login('user');
    expect(login.headers['cache-control']).toBe('no-store');
    expect((await c.get('/api/v2/users/me')).headers['cache-control']).toBe('no-store');
    expect((await c.get('/api/v2/devices')).headers['cache-control']).toBe('no-store');
    expect((await c.get('/%61pi/v2/users/me')).headers['cache-control']).toBe('no-store');
    const token = 'integration-token-of-the-user-account';
    await t.database.db
      .update(users)
      .set({ authTokenHash: hashToken(token) })
      .where(eq(users.username, 'user'));
    const bearer = await t.app.inject({
      method: 'GET',
      url: '/api/v2/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.headers['cache-control']).toBe('no-store');
    const publicPage = await t.app.inject({ method: 'GET', url: '/api/v2/public/devices/not-a-known-token' });
    expect(publicPage.headers['cache-control']).toBe('no-store');
  });
});

describe('read-only demo account', () => {
  /** Every table's rows as text: a refusal that changed any row anywhere shows up here. */
  async function databaseContent() {
    const { rows } = await t.database.db.execute<{ table_name: string }>(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const content: Record<string, string> = {};
    for (const { table_name: table } of rows) {
      const [row] = (
        await t.database.db.execute<{ digest: string | null }>(
          sql`SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM ${sql.identifier(table)} t`,
        )
      ).rows;
      content[table] = row.digest ?? '';
    }
    return content;
  }

  it('answers 403 on every state-changing API route but sign-in and sign-out, and nothing changes', async () => {
    const c = client();
    await c.login('demo');
    const [demo] = await t.database.db.select().from(users).where(eq(users.username, 'demo'));
    // A device of the demo's own: every route would otherwise find what it needs.
    const device = await buildDevice(t.database.db, demo.id);
    const paths = (t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    // The portal's API; device ingest has no accounts.
    const apiPaths = Object.entries(paths).filter(([path]) => path.startsWith('/api/'));
    const calls = apiPaths.flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
    // Sign-in's second step is part of signing in (a demo browser may sign in as someone else).
    const allowed = new Set([
      'POST /api/v2/login',
      'POST /api/v2/login/second-factor',
      'POST /api/v2/login/passkey-options',
      'POST /api/v2/login/passkey',
      'POST /api/v2/logout',
    ]);
    expect(calls.length).toBeGreaterThan(20);
    const before = await databaseContent();
    for (const { method, path } of calls) {
      if (allowed.has(`${method} ${path}`)) continue;
      const url = path.replace(/\{[^}]+\}/g, (name) =>
        name === '{pointId}' ? `${device.id}-1-1` : String(device.id),
      );
      const body = method === 'DELETE' ? undefined : { status: 'seen', message: 'x', password: 'x' };
      const response = await c.request(method as 'POST', url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await databaseContent()).toEqual(before);
    // The session survived: the demo still reads.
    expect((await c.get('/api/v2/users/me')).json().username).toBe('demo');
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
    // An empty field is required, not too short.
    const empty = await c.put(url, { current_password: 'tankportal', password: '', password_repeat: '' });
    expect(empty.statusCode).toBe(400);
    expect(
      (empty.json().fieldErrors as { path: string }[]).filter((error) => error.path === 'password'),
    ).toEqual([{ path: 'password', code: 'required', args: {} }]);
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
    await buildUser(t.database.db, { username: 'changer' });
    const other = client();
    await other.login('changer');
    const c = client();
    await c.login('changer');
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
      (await fresh.post('/api/v2/login', { username: 'changer', password: 'tankportal' })).statusCode,
    ).toBe(400);
    await fresh.login('changer', 'brand-new-pass');
  });

  /** Tries a change and proves the stored hash stayed as it was. */
  async function expectPasswordKept(username: string, attempt: () => Promise<{ statusCode: number }>) {
    const hash = async () =>
      (await t.database.db.select().from(users).where(eq(users.username, username)))[0].passwordHash;
    const before = await hash();
    const response = await attempt();
    expect(await hash()).toBe(before);
    return response as Awaited<ReturnType<TestClient['put']>>;
  }

  it('refuses common, breached-list and German dictionary passwords and the username in any disguise', async () => {
    await buildUser(t.database.db, { username: 'heizung-meier' });
    const c = client();
    await c.login('heizung-meier');
    const guessable = [
      'passwort123',
      'Passwort1!',
      'Sommer2024!',
      'Schmetterling7',
      'qwertz123',
      'tankportal2026',
    ];
    const username = [
      'heizung-meier',
      'Heizung-Meier1',
      'reiem-gnuzieh',
      'h31zung-m31er',
      'meier-heizung-1',
      'Meier Heizung 2026',
    ];
    for (const [passwords, reason] of [
      [guessable, 'passwordGuessable'],
      [username, 'passwordHasUsername'],
    ] as const) {
      for (const password of passwords) {
        const response = await expectPasswordKept('heizung-meier', () =>
          c.put(url, { current_password: 'tankportal', password, password_repeat: password }),
        );
        expect(response.statusCode, password).toBe(400);
        expect(response.json().fieldErrors, password).toEqual([
          { path: 'password', code: 'invalid', args: { reason } },
        ]);
      }
    }
    // The old password still signs in; a long passphrase of dictionary words is fine.
    await client().login('heizung-meier');
    const passphrase = 'blauer Ofen mahlt Roggen';
    const accepted = await c.put(url, {
      current_password: 'tankportal',
      password: passphrase,
      password_repeat: passphrase,
    });
    expect(accepted.statusCode).toBe(204);
    await client().login('heizung-meier', passphrase);
  });

  it('caps the length: 129 characters are refused before any hashing, also at login', async () => {
    const c = client();
    await c.login('user');
    const long = 'Xq7-'.repeat(32) + 'z';
    const response = await expectPasswordKept('user', () =>
      c.put(url, { current_password: 'tankportal', password: long, password_repeat: long }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toContainEqual({
      path: 'password',
      code: 'max_length',
      args: { max: 128 },
    });
    const login = await c.post('/api/v2/login', { username: 'user', password: long });
    expect(login.statusCode).toBe(400);
    expect(login.json().fieldErrors).toContainEqual({
      path: 'password',
      code: 'max_length',
      args: { max: 128 },
    });
  });

  it('answers 403 to the demo and app accounts, as the web guards /settings (ROLE_USER)', async () => {
    await buildUser(t.database.db, { username: 'app-only', role: 'ROLE_APP_USER' });
    for (const username of ['demo', 'app-only']) {
      const c = client();
      await c.login(username);
      const response = await expectPasswordKept(username, () =>
        c.put(url, {
          current_password: 'tankportal',
          password: 'hijacked-demo-login',
          password_repeat: 'hijacked-demo-login',
        }),
      );
      expect(response.statusCode, username).toBe(403);
      await client().login(username);
    }
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
