import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, TestClient, type TestApp } from '../testing/test-app.ts';
import { users } from '../db/schema.ts';

// What the server's log may not contain.
const lines: string[] = [];
const logged = () => lines.join('');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info', SMS_LIONEL_WEBHOOK_TOKEN: 'webhook-token-4711' },
    { logStream: { write: (line) => lines.push(line) } },
  );
});
afterAll(() => t.close());

describe('server log', () => {
  it('logs a failed query with its SQL and error code, never its parameter values', async () => {
    const typed = 'typed-username-7f3a9c';
    // The users table loses the column the login looks the name up by: the query fails (500).
    await t.database.db.execute(sql`ALTER TABLE users RENAME COLUMN username TO username_gone`);
    try {
      const client = new TestClient(t.app);
      await client.get('/api/v2/whitelabels/current');
      lines.length = 0;
      const response = await client.post('/api/v2/login', { username: typed, password: 'typed-password-1x' });
      expect(response.statusCode).toBe(500);
    } finally {
      await t.database.db.execute(sql`ALTER TABLE users RENAME COLUMN username_gone TO username`);
    }
    const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.err);
    expect(failure.err.message).toMatch(/^Failed query: select .*"users"/);
    expect(failure.err.code).toBe('42703');
    expect(logged()).not.toContain(typed);
    expect(logged()).not.toContain('typed-password-1x');
  });

  it('keeps the values of a failed insert out of the error wherever it is written', async () => {
    const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$secret-hash-of-a-password';
    const [master] = await t.database.db.select().from(users).where(eq(users.username, 'master'));
    const error = await t.database.db
      .insert(users)
      .values({ username: 'master', role: 'ROLE_USER', passwordHash, parentUserId: master.id })
      .catch((failure: Error) => failure);
    expect(error).toBeInstanceOf(Error);
    const everything = [
      (error as Error).message,
      (error as Error).stack,
      inspect(error, { depth: 5 }),
      JSON.stringify(error),
    ].join('\n');
    expect(everything).toContain('insert into "users"');
    expect(everything).toContain('23505');
    expect(everything).not.toContain(passwordHash);
    expect(everything).not.toContain('secret-hash-of-a-password');
    // PostgreSQL's detail quotes the key's value ("Key (username)=(master) already exists").
    expect(everything).not.toContain('=(master)');
  });

  it('logs URLs without status-page tokens or secret query values', async () => {
    lines.length = 0;
    const token = 'status-token-9d2e41b7c0';
    for (const url of [
      `/api/v2/public/devices/${token}`,
      `/%61pi/v2/%70ublic/devices/${token}`,
      `/public/${token}`,
      `/api/v2/devices?token=${token}&limit=5`,
    ])
      await t.app.inject({ method: 'GET', url });
    const urls = lines.map((line) => JSON.parse(line)).flatMap((entry) => (entry.req ? [entry.req.url] : []));
    expect(urls).toContain('/api/v2/public/devices/[redacted]');
    expect(urls).toContain('/public/[redacted]');
    expect(urls).toContain('/api/v2/devices?token=[redacted]&limit=5');
    expect(logged()).not.toContain(token);
  });

  it('logs neither credentials in headers nor passwords in bodies', async () => {
    lines.length = 0;
    const client = new TestClient(t.app);
    await client.login('user');
    await client.get('/api/v2/me', { authorization: 'Bearer bearer-secret-55' });
    await t.app.inject({
      method: 'POST',
      url: '/ingest/sms/lionel',
      headers: { 'x-webhook-token': 'webhook-token-4711' },
      payload: { messageId: 'h-1', from: '+4915550077', text: 'hi' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/ingest/net/v1',
      payload: { identCode: 'NET-NOBODY', secret: 'device-secret-66' },
    });
    const session = [...client.cookies.values()];
    expect(session.length).toBeGreaterThan(0);
    for (const secret of [
      'tankportal',
      'bearer-secret-55',
      'webhook-token-4711',
      'device-secret-66',
      client.csrfToken!,
      ...session,
    ])
      expect(logged()).not.toContain(secret);
    expect(lines.length).toBeGreaterThan(0);
  });
});
