import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CSRF_HEADER } from '@tankportal/shared/constants';
import type { OwnSession } from '@tankportal/shared/schemas/sessions';
import { sessions } from '../../../db/schema.ts';
import { buildUser } from '../../../testing/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

let t: TestApp;
beforeAll(async () => {
  // Behind a proxy: the client address comes from X-Forwarded-For, as in production.
  t = await createTestApp({ TRUST_PROXY: '1' });
});
afterAll(() => t.close());

/** A browser signed in as `username`, from the given address with the given User-Agent. */
async function browser(username: string, userAgent = CHROME_LINUX, address = '203.0.113.7') {
  const client = new TestClient(t.app);
  await client.get('/api/v2/whitelabels/current');
  const login = await client.post(
    '/api/v2/login',
    { username, password: 'tankportal' },
    { 'user-agent': userAgent, 'x-forwarded-for': address },
  );
  expect(login.statusCode).toBe(200);
  return client;
}

async function listOf(client: TestClient): Promise<OwnSession[]> {
  const response = await client.get('/api/v2/sessions');
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function signedIn(client: TestClient) {
  return (await client.get('/api/v2/users/me')).statusCode === 200;
}

const newUser = () => buildUser(t.database.db).then((user) => user.username);

describe('GET /v2/sessions', () => {
  it('lists the own live sessions with browser, address and times, this one marked', async () => {
    const username = await newUser();
    const laptop = await browser(username, CHROME_LINUX, '203.0.113.7');
    const desktop = await browser(username, FIREFOX_WINDOWS, '2001:db8::5');
    await browser(await newUser());

    const list = await listOf(desktop);
    expect(list).toHaveLength(2);
    expect(list.find((session) => session.current)).toMatchObject({
      browser: 'Firefox',
      system: 'Windows',
      address: '2001:db8::5',
    });
    expect(list.find((session) => !session.current)).toMatchObject({
      browser: 'Chrome',
      system: 'Linux',
      address: '203.0.113.7',
    });
    for (const session of list) {
      expect(Date.parse(session.createdAt)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(session.lastUsedAt)).toBeLessThanOrEqual(Date.now());
    }
    // The other browser sees the same two, itself marked.
    const fromLaptop = await listOf(laptop);
    expect(fromLaptop.map((session) => session.id).sort()).toEqual(list.map((session) => session.id).sort());
    expect(fromLaptop.find((session) => session.current)?.browser).toBe('Chrome');
  });

  it('names sessions by an id of their own, never the stored hash of the cookie', async () => {
    const client = await browser(await newUser());
    const [listed] = await listOf(client);
    const stored = await t.database.db.select({ id: sessions.id }).from(sessions);
    expect(stored.map((row) => row.id)).not.toContain(listed.id);
    expect(listed.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(JSON.stringify(await listOf(client))).not.toContain(client.cookies.get('tp_session'));
  });

  it('shows a session from before browser and address were kept as unknown', async () => {
    const username = await newUser();
    const old = await browser(username);
    const current = await browser(username);
    const [oldId] = (await listOf(old)).filter((session) => session.current).map((session) => session.id);
    await t.database.db
      .update(sessions)
      .set({ userAgent: null, ipAddress: null })
      .where(eq(sessions.publicId, oldId));
    expect((await listOf(current)).find((session) => session.id === oldId)).toMatchObject({
      browser: null,
      system: null,
      address: null,
      current: false,
    });
  });

  it('keeps at most 512 characters of a User-Agent', async () => {
    const username = await newUser();
    await browser(username, `${CHROME_LINUX} ${'x'.repeat(5000)}`);
    const [row] = await t.database.db
      .select({ userAgent: sessions.userAgent })
      .from(sessions)
      .orderBy(sessions.createdAt)
      .limit(1)
      .where(eq(sessions.userAgent, `${CHROME_LINUX} ${'x'.repeat(5000)}`.slice(0, 512)));
    expect(row.userAgent).toHaveLength(512);
  });

  it('while acting as another user lists the sessions of the one who signed in', async () => {
    const admin = await browser('admin');
    const ownIds = (await listOf(admin)).map((session) => session.id);
    expect((await admin.get('/api/v2/users/me?_impersonate_user=user')).statusCode).toBe(200);
    const whileActing = await listOf(admin);
    expect(whileActing.map((session) => session.id)).toEqual(ownIds);
    expect(whileActing.some((session) => session.current)).toBe(true);
  });

  it('shows a demo account its sessions, withholding the addresses of the others', async () => {
    const first = await browser('demo', CHROME_LINUX, '198.51.100.1');
    const second = await browser('demo', FIREFOX_WINDOWS, '198.51.100.2');
    const list = await listOf(second);
    expect(list.find((session) => session.current)?.address).toBe('198.51.100.2');
    const other = list.find((session) => !session.current && session.browser === 'Chrome');
    expect(other).toMatchObject({ system: 'Linux', address: null });
    // Ending is a change: a demo account's answer is 403, and the other demo browser stays.
    expect((await second.delete(`/api/v2/sessions/${other!.id}`)).statusCode).toBe(403);
    expect((await second.delete('/api/v2/sessions/others')).statusCode).toBe(403);
    expect(await signedIn(first)).toBe(true);
  });

  it('answers 401 without a session', async () => {
    expect((await new TestClient(t.app).get('/api/v2/sessions')).statusCode).toBe(401);
  });
});

describe('DELETE /v2/sessions/:id', () => {
  it('ends another session of the own: its cookie is refused at once', async () => {
    const username = await newUser();
    const lost = await browser(username);
    const here = await browser(username, FIREFOX_WINDOWS);
    expect(await signedIn(lost)).toBe(true);
    const other = (await listOf(here)).find((session) => !session.current)!;
    expect((await here.delete(`/api/v2/sessions/${other.id}`)).statusCode).toBe(204);
    expect((await lost.get('/api/v2/users/me')).statusCode).toBe(401);
    expect(await signedIn(here)).toBe(true);
    expect((await listOf(here)).map((session) => session.id)).not.toContain(other.id);
  });

  it('answers 404 for another user’s session and leaves it alive', async () => {
    const victim = await browser(await newUser());
    const [victimSession] = await listOf(victim);
    const attacker = await browser(await newUser());
    const before = await t.database.db.select().from(sessions);
    expect((await attacker.delete(`/api/v2/sessions/${victimSession.id}`)).statusCode).toBe(404);
    // Not even a master ends someone else's session through this call.
    const master = await browser('master');
    expect((await master.delete(`/api/v2/sessions/${victimSession.id}`)).statusCode).toBe(404);
    const after = await t.database.db.select().from(sessions);
    expect(after.filter((row) => before.some((old) => old.id === row.id))).toEqual(before);
    expect(await signedIn(victim)).toBe(true);
  });

  it('answers 404 for an unknown id or one that is no id at all', async () => {
    const client = await browser(await newUser());
    for (const id of ['00000000-0000-4000-8000-000000000000', '1', 'others-too', 'a'.repeat(64)]) {
      expect((await client.delete(`/api/v2/sessions/${id}`)).statusCode, id).toBe(404);
    }
    expect(await signedIn(client)).toBe(true);
  });

  it('ending this session signs out: the cookie is cleared and refused', async () => {
    const client = await browser(await newUser());
    const cookie = client.cookies.get('tp_session')!;
    const [current] = await listOf(client);
    const response = await client.delete(`/api/v2/sessions/${current.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((set) => set.name === 'tp_session')?.value).toBe('');
    const replay = new TestClient(t.app);
    replay.cookies.set('tp_session', cookie);
    expect((await replay.get('/api/v2/users/me')).statusCode).toBe(401);
  });

  it('needs the anti-forgery token like every change', async () => {
    const username = await newUser();
    const other = await browser(username);
    const client = await browser(username);
    const target = (await listOf(client)).find((session) => !session.current)!;
    const forged = await client.request('DELETE', `/api/v2/sessions/${target.id}`, undefined, {
      [CSRF_HEADER]: 'forged',
    });
    expect(forged.statusCode).toBe(403);
    expect(await signedIn(other)).toBe(true);
  });
});

describe('DELETE /v2/sessions/others', () => {
  it('ends every other session of the user and keeps this one', async () => {
    const username = await newUser();
    const others = [await browser(username), await browser(username, FIREFOX_WINDOWS)];
    const bystander = await browser(await newUser());
    const here = await browser(username);
    const response = await here.delete('/api/v2/sessions/others');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ended: 2 });
    for (const other of others) expect((await other.get('/api/v2/users/me')).statusCode).toBe(401);
    expect(await listOf(here)).toEqual([expect.objectContaining({ current: true })]);
    expect(await signedIn(bystander)).toBe(true);
  });
});

describe('password change', () => {
  it('ends the other sessions: the list keeps only the one that changed it', async () => {
    const username = await newUser();
    const other = await browser(username);
    const here = await browser(username);
    expect(await listOf(here)).toHaveLength(2);
    const change = await here.put('/api/v2/users/me/credentials', {
      current_password: 'tankportal',
      password: 'a fresh and long passphrase',
      password_repeat: 'a fresh and long passphrase',
    });
    expect(change.statusCode).toBe(204);
    expect((await other.get('/api/v2/users/me')).statusCode).toBe(401);
    expect(await listOf(here)).toEqual([expect.objectContaining({ current: true })]);
  });
});
