import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';
import { messages, queries, sendPacing, users } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { buildDevice } from '../testing/factories.ts';
import { FakeSmsGateway } from '../testing/fake-sms-gateway.ts';
import type { JobDeps } from '../queue/deps.ts';
import { dispatchPendingQueries, queueQueries, type DispatchClock } from './dispatch-queries.ts';

let gateway: FakeSmsGateway;
let t: TestApp;
/** A second server process: its own connection pool on PostgreSQL (PGlite: the same connection). */
let other: Database | null = null;
const deviceIds: number[] = [];
let userId: number;

beforeAll(async () => {
  gateway = await FakeSmsGateway.start();
  t = await createTestApp({ SMS_LIONEL_API_URL: gateway.url, SMS_LIONEL_API_TOKEN: 'token' });
  const client = (t.database.db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool)
    other = await openDatabase({ url: client.options.connectionString!, onConnectionError: () => {} });
  const [user] = await t.database.db.select().from(users).where(eq(users.username, 'user'));
  userId = user!.id;
  for (let i = 0; i < 40; i++)
    deviceIds.push(
      (
        await buildDevice(t.database.db, userId, {
          type: 'sms',
          identType: 'cell_number',
          identCode: null,
          cellNumber: `+4917677${String(i).padStart(5, '0')}`,
        })
      ).id,
    );
});
afterAll(async () => {
  await other?.close();
  await t?.close();
  await gateway?.stop();
});

describe('dispatching waiting queries', () => {
  it('two processes dispatching at once send each query once and share one gateway rate', async () => {
    const db = t.database.db;
    await db.delete(sendPacing);
    const queued = await queueQueries(db, deviceIds, { userId });
    const start = Date.now();
    // One clock for both: it stands still, so every slot is a reservation in the database.
    const slots: number[] = [];
    const clock: DispatchClock = { now: () => start, sleepUntil: async (at) => void slots.push(at) };
    const config = { ...t.config, querySmsPerSecond: 10 };
    const deps = (each: Database['db']): JobDeps => ({
      ...t.app.context,
      db: each,
      config,
      mailer: undefined as never,
    });
    const before = gateway.requests.length;
    const results = await Promise.all(
      [db, other?.db ?? db].map((each) => dispatchPendingQueries(deps(each), clock)),
    );
    expect(results).toEqual(['drained', 'drained']);

    const sent = gateway.requests.slice(before).map((request) => (request.body as { text: string }).text);
    expect(sent.sort()).toEqual(queued.map((query) => `TP1;Q;${query.id}`).sort());
    // 40 slots 100 ms apart from the start, none taken twice, whichever process took which.
    expect(slots.sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => start + index * 100),
    );
    const states = await db
      .select({ status: queries.status })
      .from(queries)
      .where(eq(queries.userId, userId));
    expect(new Set(states.map((row) => row.status))).toEqual(new Set(['sent']));
    expect(await db.select().from(messages).where(like(messages.content, 'TP1;Q;%'))).toHaveLength(40);
  });

  it('stops once its budget is spent and leaves a successor, which sends nothing twice', async () => {
    const db = t.database.db;
    await db.delete(sendPacing);
    await db.delete(queries);
    await queueQueries(db, deviceIds.slice(0, 5), { userId });
    let now = Date.parse('2027-01-10T10:00:00Z');
    const clock: DispatchClock = {
      now: () => now,
      sleepUntil: async (at) => void (now = Math.max(now, at) + 1),
    };
    const deps: JobDeps = {
      ...t.app.context,
      config: { ...t.config, querySmsPerSecond: 1 },
      mailer: undefined as never,
    };
    const before = gateway.requests.length;
    // A budget of one second: the first round (five queries, one per second) overruns it.
    expect(await dispatchPendingQueries(deps, clock, 1000)).toBe('more');
    expect(gateway.requests.length - before).toBe(5);
    expect(await dispatchPendingQueries(deps, clock, 1000)).toBe('drained');
    expect(gateway.requests.length - before).toBe(5);
  });
});
