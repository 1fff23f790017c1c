import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../app.ts';
import { openDatabase, type Database } from '../../../db/client.ts';
import { announceDeviceReports, deviceReportPayloads } from '../../../db/device-report-channel.ts';
import { users } from '../../../db/schema.ts';
import { hashToken } from '../../../policies/tokens.ts';
import { buildDevice, buildUser, grant } from '../../../testing/factories.ts';
import { createTestApp, TestClient, type TestApp } from '../../../testing/test-app.ts';

const SECRET = 'live-secret';

interface LiveEvent {
  event: string;
  data: string;
  receivedAt: number;
}

/** An EventSource stand-in: the raw stream over HTTP, its events collected as they arrive. */
class LiveStream {
  readonly events: LiveEvent[] = [];
  status = 0;
  ended = false;
  private request!: http.ClientRequest;
  private waiters: (() => void)[] = [];

  static open(baseUrl: string, client: TestClient): Promise<LiveStream> {
    const stream = new LiveStream();
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return new Promise((resolve, reject) => {
      stream.request = http.get(`${baseUrl}/api/v2/live`, { headers: { cookie } }, (response) => {
        stream.status = response.statusCode ?? 0;
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = block.split('\n');
            const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
            const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
            if (event && data !== undefined) stream.events.push({ event, data, receivedAt: Date.now() });
            stream.wake();
          }
        });
        response.on('end', () => {
          stream.ended = true;
          stream.wake();
        });
        response.on('close', () => {
          stream.ended = true;
          stream.wake();
        });
        // The first comment line arrives at once: the stream is registered by then.
        response.once('data', () => resolve(stream));
        if (stream.status !== 200) response.resume();
      });
      stream.request.on('error', reject);
    });
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** The device ids of every `device-reports` event so far. */
  deviceIds(): number[] {
    return this.events
      .filter((event) => event.event === 'device-reports')
      .flatMap((event) => (JSON.parse(event.data) as { deviceIds: number[] }).deviceIds);
  }

  async until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; events: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    this.request.destroy();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Longer than the hub gathers announcements: what has not arrived by then is not coming. */
const QUIET_MS = 400;

async function listenOn(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

let t: TestApp;
let baseUrl: string;
const ids: Record<string, number> = {};
const idents: Record<number, string> = {};
let reportNumber = 0;

async function netReport(app: FastifyInstance, deviceId: number, value = 5_000 + reportNumber) {
  const response = await app.inject({
    method: 'POST',
    url: '/ingest/net/v1',
    payload: {
      identCode: idents[deviceId],
      secret: SECRET,
      messageId: `live-${reportNumber++}`,
      measuredAt: new Date(Date.now() + reportNumber).toISOString(),
      sensors: [{ sequence: 1, value }],
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return Date.now();
}

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenOn(t.app);
  const db = t.database.db;
  const [user] = await db.select().from(users).where(eq(users.username, 'user'));
  const stranger = await buildUser(db, { username: 'live-stranger', role: 'ROLE_USER', parent: 'master' });
  const consumptionOnly = await buildUser(db, { username: 'live-consumption', role: 'ROLE_USER' });
  await buildUser(db, { username: 'live-process', role: 'ROLE_USER' });
  const device = async (name: string, ownerId: number) => {
    const identCode = `NET-LIVE-${name}`;
    const row = await buildDevice(db, ownerId, { identCode, secretHash: hashToken(SECRET) });
    ids[name] = row.id;
    idents[row.id] = identCode;
  };
  await device('own', user.id);
  await device('foreign', stranger.id);
  await device('shared', stranger.id);
  await grant(db, ids.shared, consumptionOnly.id, ['VIEW_CONSUMPTION']);
  const [processViewer] = await db.select().from(users).where(eq(users.username, 'live-process'));
  await grant(db, ids.shared, processViewer.id, ['VIEW_PROCESS']);
});
afterAll(() => t.close());

describe('GET /v2/live', () => {
  it('answers 401 without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v2/live' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401 });
  });

  it('is an unbuffered event stream with the security headers', async () => {
    const client = await t.signIn('user');
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      const request = http.get(`${baseUrl}/api/v2/live`, { headers: { cookie } }, (response) => {
        resolve(response.headers);
        request.destroy();
      });
      request.on('error', reject);
    });
    expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-length']).toBeUndefined();
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain("object-src 'none'");
  });

  it('tells a viewer of a device of its new report within a second of the commit, and nobody else', async () => {
    const [owner, master, stranger] = await Promise.all(
      ['user', 'master', 'live-stranger'].map(async (name) => LiveStream.open(baseUrl, await t.signIn(name))),
    );
    try {
      const committed = await netReport(t.app, ids.own);
      await owner.until(() => owner.deviceIds().includes(ids.own));
      await master.until(() => master.deviceIds().includes(ids.own));
      const event = owner.events.find((e) => e.event === 'device-reports')!;
      expect(event.receivedAt - committed).toBeLessThan(1_000);
      // Only ids and a time: the page loads the rest through the API, which checks every right.
      expect(Object.keys(JSON.parse(event.data)).sort()).toEqual(['at', 'deviceIds']);
      await pause(QUIET_MS);
      expect(stranger.deviceIds()).toEqual([]);

      await netReport(t.app, ids.foreign);
      await stranger.until(() => stranger.deviceIds().includes(ids.foreign));
      await pause(QUIET_MS);
      expect(owner.deviceIds()).not.toContain(ids.foreign);
    } finally {
      for (const stream of [owner, master, stranger]) stream.close();
    }
  });

  it('needs VIEW_STATUS or VIEW_PROCESS on the device: an access entry for consumption alone is not enough', async () => {
    const [consumption, process] = await Promise.all(
      ['live-consumption', 'live-process'].map(async (name) =>
        LiveStream.open(baseUrl, await t.signIn(name)),
      ),
    );
    try {
      await netReport(t.app, ids.shared);
      await process.until(() => process.deviceIds().includes(ids.shared));
      await pause(QUIET_MS);
      expect(consumption.deviceIds()).toEqual([]);
    } finally {
      consumption.close();
      process.close();
    }
  });

  it('ends the stream of a session that has ended', async () => {
    const client = await t.signIn('user');
    const stream = await LiveStream.open(baseUrl, client);
    const other = await LiveStream.open(baseUrl, await t.signIn('user'));
    try {
      expect((await client.post('/api/v2/logout')).statusCode).toBe(204);
      await netReport(t.app, ids.own);
      await other.until(() => other.deviceIds().includes(ids.own));
      await stream.until(() => stream.ended);
      expect(stream.deviceIds()).toEqual([]);
    } finally {
      stream.close();
      other.close();
    }
  });

  it('forgets a stream whose client has gone', async () => {
    const count = () => t.app.context.liveUpdates.connectionCount;
    // The streams of the tests before, closed by their clients, are gone too.
    await expect.poll(count).toBe(0);
    const stream = await LiveStream.open(baseUrl, await t.signIn('user'));
    expect(count()).toBe(1);
    stream.close();
    await expect.poll(count).toBe(0);
  });

  it('gathers a burst of reports into few events', async () => {
    const stream = await LiveStream.open(baseUrl, await t.signIn('master'));
    try {
      const before = stream.events.length;
      await Promise.all(
        Array.from({ length: 60 }, (_, n) => netReport(t.app, [ids.own, ids.foreign, ids.shared][n % 3])),
      );
      await stream.until(() =>
        [ids.own, ids.foreign, ids.shared].every((id) => stream.deviceIds().includes(id)),
      );
      await pause(QUIET_MS);
      expect(stream.events.length - before).toBeLessThanOrEqual(10);
    } finally {
      stream.close();
    }
  });

  it('sends nothing for a transaction that is rolled back', async () => {
    const stream = await LiveStream.open(baseUrl, await t.signIn('master'));
    try {
      await expect(
        t.database.db.transaction(async (tx) => {
          await announceDeviceReports(tx, [ids.own]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await pause(QUIET_MS);
      expect(stream.deviceIds()).toEqual([]);
      // The same announcement committed does arrive: the silence above was the rollback's.
      await t.database.db.transaction((tx) => announceDeviceReports(tx, [ids.own]));
      await stream.until(() => stream.deviceIds().includes(ids.own));
    } finally {
      stream.close();
    }
  });
});

describe('announcement payloads', () => {
  it('stay below PostgreSQL’s 8000 bytes, each id once', () => {
    const all = Array.from({ length: 3_000 }, (_, n) => 2_000_000_000 + n);
    const payloads = deviceReportPayloads([...all, ...all]);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(payload.length).toBeLessThan(8_000);
    expect(payloads.join(',').split(',').map(Number)).toEqual(all);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('several server processes on one PostgreSQL', () => {
  let second: FastifyInstance;
  let secondDatabase: Database;
  let secondUrl: string;

  beforeAll(async () => {
    // A second instance with a pool of its own on the same database: another process as far as
    // PostgreSQL can tell.
    const pool = (t.database.db as unknown as { $client: pg.Pool }).$client;
    const url = (pool as unknown as { options: { connectionString: string } }).options.connectionString;
    secondDatabase = await openDatabase({ url, onConnectionError: () => {} });
    second = await buildApp(secondDatabase.db, t.config, { logger: false });
    secondUrl = await listenOn(second);
  });
  afterAll(async () => {
    await second?.close();
    await secondDatabase?.close();
  });

  it("a report committed through one instance reaches the other instance's viewers, within a second", async () => {
    const client = new TestClient(second);
    await client.login('user');
    const stream = await LiveStream.open(secondUrl, client);
    try {
      const committed = await netReport(t.app, ids.own);
      await stream.until(() => stream.deviceIds().includes(ids.own));
      const event = stream.events.find((e) => e.event === 'device-reports')!;
      expect(event.receivedAt - committed).toBeLessThan(1_000);
    } finally {
      stream.close();
    }
  });

  it("the other instance's viewer who may not see the device gets nothing, nor from a rollback", async () => {
    const client = new TestClient(second);
    await client.login('live-stranger');
    const stream = await LiveStream.open(secondUrl, client);
    try {
      await netReport(t.app, ids.own);
      await t.database.db
        .transaction(async (tx) => {
          await announceDeviceReports(tx, [ids.foreign]);
          throw new Error('rolled back');
        })
        .catch(() => {});
      await pause(QUIET_MS);
      expect(stream.deviceIds()).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('listens again after losing its connection, and tells its viewers to load again', async () => {
    const client = new TestClient(second);
    await client.login('user');
    const stream = await LiveStream.open(secondUrl, client);
    try {
      await secondDatabase.db.execute(
        sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query = 'LISTEN device_reports'`,
      );
      await stream.until(() => stream.events.some((event) => event.event === 'resync'), 10_000);
      await netReport(t.app, ids.own);
      await stream.until(() => stream.deviceIds().includes(ids.own));
    } finally {
      stream.close();
    }
  });
});
