import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { readConfig } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { Readiness, type BrokerStatus } from './readiness.ts';

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  // A built web app, whose fallback answers every other GET with index.html.
  webDist = mkdtempSync(path.join(tmpdir(), 'tp-health-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Tank Portal</title>');
  t = await createTestApp({}, { webDist });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const quietLog = { info() {}, warn() {} };

describe('liveness and readiness', () => {
  it('answers /livez and /readyz itself, as JSON nobody keeps, without a session or token', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.headers['content-type']).toContain('application/json');
    expect(live.headers['cache-control']).toBe('no-store');
    expect(live.json()).toEqual({ status: 'ok' });
    // The fallback is there for the pages of the web app.
    const page = await t.app.inject({ method: 'GET', url: '/devices' });
    expect(page.headers['content-type']).toContain('text/html');

    // An unknown session cookie is not looked up (nor cleared): the probes are not API routes.
    const ready = await t.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { cookie: 'tp_session=not-a-session' },
    });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['content-type']).toContain('application/json');
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.headers['set-cookie']).toBeUndefined();
    expect(ready.headers['x-csrf-token']).toBeUndefined();
    expect(ready.headers['retry-after']).toBeUndefined();
    // No broker in a test app: no mqtt check.
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true }, shutdown: { ok: true } },
    });
  });

  it('answers the names load balancers and orchestrators ask by default the same way, not with the web app', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/livez' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    for (const [url, same] of [
      ['/healthz', live],
      ['/health', ready],
      ['/ready', ready],
    ] as const) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(same.statusCode);
      expect(answer.headers['content-type'], url).toContain('application/json');
      expect(answer.headers['cache-control'], url).toBe('no-store');
      expect(answer.json(), url).toEqual(same.json());
    }
  });

  it('answers many probes in a row without a limit, and HEAD too', async () => {
    for (let i = 0; i < 30; i++)
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const head = await t.app.inject({ method: 'HEAD', url: '/livez' });
    expect(head.statusCode).toBe(200);
  });

  it('names a database behind the code, and one ahead of it', async () => {
    const db = t.database.db;
    const [newest] = (
      await db.execute(
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )
    ).rows as { id: number; hash: string; created_at: string }[];
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest.id}`);
    try {
      const behind = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(behind.statusCode).toBe(503);
      expect(behind.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
      expect(behind.json()).toMatchObject({
        status: 'not ready',
        checks: {
          database: { ok: true },
          migrations: {
            ok: false,
            reason: expect.stringMatching(/^the database is at 0\d+_\w+; this code needs 0\d+_\w+$/),
          },
          shutdown: { ok: true },
        },
      });
    } finally {
      await db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest.id}, ${newest.hash}, ${newest.created_at})`,
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    const later = Number(newest.created_at) + 1000;
    await db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from a newer release', ${later})`,
    );
    try {
      const ahead = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ahead.statusCode).toBe(503);
      expect(ahead.json().checks.migrations).toEqual({
        ok: false,
        reason: expect.stringContaining('newer than this code'),
      });
    } finally {
      await db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = ${later}`);
    }
  });

  it('names a database that was never migrated', async () => {
    const db = t.database.db;
    await db.execute(sql`alter table drizzle.__drizzle_migrations rename to migrations_elsewhere`);
    try {
      const never = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(never.statusCode).toBe(503);
      expect(never.json().checks.migrations).toEqual({
        ok: false,
        reason: expect.stringMatching(/^no migrations applied; this code needs 0\d+_\w+$/),
      });
      // A load balancer asking /health takes the process out of the rotation all the same.
      const balancer = await t.app.inject({ method: 'GET', url: '/health' });
      expect(balancer.statusCode).toBe(503);
      expect(balancer.headers['retry-after']).toBe('5');
    } finally {
      await db.execute(sql`alter table drizzle.migrations_elsewhere rename to __drizzle_migrations`);
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('is not ready once shutting down', async () => {
    const readiness = new Readiness(t.database.db, { externalBroker: false, log: quietLog });
    readiness.shutDown();
    expect(await readiness.check()).toEqual({
      ready: false,
      checks: {
        database: { ok: true },
        migrations: { ok: true },
        shutdown: { ok: false, reason: 'shutting down' },
      },
    });
  });
});

describe('readiness without its database', () => {
  it('names the database when it is gone (PGlite closed, PostgreSQL dropped), and stays alive', async () => {
    const { database, drop } = await openTestDatabase();
    const app = await buildApp(database.db, readConfig({ LOG_LEVEL: 'silent' }), { logger: false });
    await app.ready();
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      // PostgreSQL: DROP DATABASE ... WITH (FORCE) ends the pool's connections, and new ones are
      // refused ("database does not exist"). PGlite: the embedded database is closed.
      if (database.kind === 'postgres') await drop();
      else await database.close();
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['content-type']).toContain('application/json');
      expect(ready.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
      expect(ready.json()).toEqual({
        status: 'not ready',
        checks: {
          database: { ok: false, reason: 'the database refused the query' },
          migrations: { ok: false, reason: 'not checked: the database does not answer' },
          shutdown: { ok: true },
        },
      });
      // The driver's message (host, user, database names) stays out of the public answer.
      expect(ready.body).not.toMatch(/tp_test_|does not exist|closed/i);
      const live = await app.inject({ method: 'GET', url: '/livez' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
    } finally {
      // The live updates' UNLISTEN fails on the closed PGlite: the close is all that is left to do.
      await app.close().catch(() => {});
      await database.close().catch(() => {});
      await drop();
    }
  });

  it('names a database that does not answer within 2 s, and probes it once for concurrent asks', async () => {
    let queries = 0;
    const hanging = {
      execute: () => {
        queries++;
        return new Promise(() => {});
      },
    } as unknown as Db;
    const warnings: string[] = [];
    const readiness = new Readiness(hanging, {
      externalBroker: false,
      log: { info() {}, warn: (message) => warnings.push(message) },
    });
    const started = Date.now();
    const [first, second] = await Promise.all([readiness.check(), readiness.check()]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(queries).toBe(1);
    expect(first).toEqual(second);
    expect(first).toEqual({
      ready: false,
      checks: {
        database: { ok: false, reason: 'no answer within 2 s' },
        migrations: { ok: false, reason: 'not checked: the database does not answer' },
        shutdown: { ok: true },
      },
    });
    expect(warnings).toEqual([
      expect.stringMatching(/^Readiness: not ready: database: no answer within 2 s/),
    ]);
  });
});

describe('readiness of the MQTT broker', () => {
  it('counts an external broker connected and subscribed, the embedded one while it listens', async () => {
    const changes: string[] = [];
    const log = { info: (m: string) => changes.push(m), warn: (m: string) => changes.push(m) };
    const readiness = new Readiness(t.database.db, { externalBroker: true, log });
    const mqttOf = async () => (await readiness.check()).checks.mqtt;

    expect(await mqttOf()).toEqual({ ok: false, reason: 'not connected to the broker yet' });
    let status: BrokerStatus = { connected: false, subscribed: false };
    readiness.watchBroker(() => status);
    expect(await mqttOf()).toEqual({ ok: false, reason: 'not connected to the broker' });
    status = { connected: true, subscribed: false };
    expect(await mqttOf()).toEqual({ ok: false, reason: 'connected, not yet subscribed to the reports' });
    status = { connected: true, subscribed: true };
    expect(await mqttOf()).toEqual({ ok: true });
    expect((await readiness.check()).ready).toBe(true);
    // Each change once in the log, not each probe.
    expect(changes).toEqual([
      'Readiness: not ready: mqtt: not connected to the broker yet',
      'Readiness: not ready: mqtt: not connected to the broker',
      'Readiness: not ready: mqtt: connected, not yet subscribed to the reports',
      'Readiness: ready',
    ]);

    const embedded = new Readiness(t.database.db, { externalBroker: false, log: quietLog });
    let listening = true;
    embedded.watchBroker(() => ({ listening }));
    expect((await embedded.check()).checks.mqtt).toEqual({ ok: true });
    listening = false;
    expect((await embedded.check()).checks.mqtt).toEqual({
      ok: false,
      reason: 'the embedded broker does not listen',
    });
  });
});
