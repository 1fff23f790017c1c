import { setTimeout as sleep } from 'node:timers/promises';
import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import { devices, queries, sendPacing } from '../db/schema.ts';
import type { JobDeps } from '../queue/deps.ts';
import type { JobKind } from '../queue/queue.ts';
import { address, handOverQuery, type Addressing, type QueryRow } from './send-query.ts';
import type { GatewayLookups } from './outbound-gateway.ts';

/**
 * The job that hands waiting queries over (its handler: jobs/definitions/dispatch-queries.ts).
 * Payload version 1: nothing; the job hands over whatever queries wait.
 */
export const DISPATCH_QUERIES: JobKind<{ v: 1 }> = {
  name: 'dispatch-queries',
  payload: z.object({ v: z.literal(1) }),
  maxAttempts: 10,
};

/** Queries taken per round: small enough that a round of one slow gateway stays short. */
const CHUNK = 100;
/** A dispatcher job hands over for this long, then leaves the rest to a fresh job (within its lease). */
export const DISPATCH_BUDGET_MS = 2 * 60_000;

/** The dispatcher's clock: real in production, controlled in tests. */
export interface DispatchClock {
  now(): number;
  sleepUntil(at: number): Promise<void>;
}

const realClock: DispatchClock = {
  now: () => Date.now(),
  sleepUntil: async (at) => {
    const wait = at - Date.now();
    if (wait > 0) await sleep(wait);
  },
};

/** Who asks, and on behalf of what: a block query or a reference-date query's run. */
export interface QueryOrigin {
  userId: number;
  blockQueryId?: number;
  refDateQueryId?: number;
}

/**
 * Records one waiting (`pending`) query per device, in the caller's transaction; the dispatcher
 * (the `dispatch-queries` job the caller enqueues with them) hands them over paced.
 */
export async function queueQueries(
  tx: Db | Tx,
  deviceIds: number[],
  origin: QueryOrigin,
): Promise<QueryRow[]> {
  if (deviceIds.length === 0) return [];
  return tx
    .insert(queries)
    .values(deviceIds.map((deviceId) => ({ deviceId, ...origin, status: 'pending' as const })))
    .returning();
}

/**
 * Takes up to `limit` waiting queries, oldest first, and marks them sent: several dispatchers (in
 * several processes, or one whose lease ran out) never take the same query. A report of the device
 * from now on answers it (complete-queries.ts).
 */
async function claimPendingQueries(db: Db, limit: number): Promise<QueryRow[]> {
  const waiting = db
    .select({ id: queries.id })
    .from(queries)
    .where(eq(queries.status, 'pending'))
    .orderBy(queries.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(queries)
    .set({ status: 'sent', sentAt: sql`now()` })
    .where(inArray(queries.id, waiting))
    .returning();
}

/**
 * Reserves `count` consecutive send slots `intervalMs` apart on a lane, shared by every process
 * through the `send_pacing` row; answers the first slot's time. A lane idle for a while starts now,
 * never in the past, so a burst after a quiet night is paced like any other.
 */
export async function reserveSlots(
  db: Db,
  lane: string,
  count: number,
  intervalMs: number,
  now: number,
): Promise<number> {
  const from = new Date(now).toISOString();
  await db
    .insert(sendPacing)
    .values({ lane, nextAt: new Date(now) })
    .onConflictDoNothing();
  const [row] = await db
    .update(sendPacing)
    .set({
      nextAt: sql`GREATEST(${sendPacing.nextAt}, ${from}::timestamptz) + ${count * intervalMs} * interval '1 millisecond'`,
    })
    .where(eq(sendPacing.lane, lane))
    .returning({ nextAt: sendPacing.nextAt });
  return row!.nextAt.getTime() - count * intervalMs;
}

/** Hand-overs per second on a lane: each SMS gateway has its own, the broker another. */
function perSecond(lane: string, config: JobDeps['config']): number {
  return lane === 'mqtt' ? config.queryMqttPerSecond : config.querySmsPerSecond;
}

/**
 * Hands the waiting queries to the gateways and the broker, each lane at its configured rate
 * (QUERY_SMS_PER_SECOND per gateway, QUERY_MQTT_PER_SECOND), through the same path as a manual
 * query (send-query.ts): logged as outgoing messages, failed with the reason when refused.
 * Answers 'drained' when nothing waits any more, 'more' when its budget ran out first.
 */
export async function dispatchPendingQueries(
  { db, config, deviceChannels }: JobDeps,
  clock: DispatchClock = realClock,
  budgetMs = DISPATCH_BUDGET_MS,
): Promise<'drained' | 'more'> {
  const started = clock.now();
  while (clock.now() - started < budgetMs) {
    const claimed = await claimPendingQueries(db, CHUNK);
    if (claimed.length === 0) return 'drained';
    const deviceIds = [...new Set(claimed.map((query) => query.deviceId))];
    const rows = await db.select().from(devices).where(inArray(devices.id, deviceIds));
    const byId = new Map(rows.map((device) => [device.id, device]));
    const lanes = new Map<string, { query: QueryRow; addressing: Addressing }[]>();
    const lookups: GatewayLookups = new Map();
    for (const query of claimed) {
      const device = byId.get(query.deviceId);
      if (!device) continue; // deleted meanwhile: its queries went with it
      const addressing = await address(db, deviceChannels, device, query.id, lookups);
      // What cannot be sent (no address) fails at once, without waiting for a slot.
      if (!addressing.ok) {
        await handOverQuery(db, addressing, query);
        continue;
      }
      const lane = addressing.outgoing.lane;
      lanes.set(lane, [...(lanes.get(lane) ?? []), { query, addressing }]);
    }
    await Promise.all(
      [...lanes].map(async ([lane, items]) => {
        const intervalMs = 1000 / perSecond(lane, config);
        const first = await reserveSlots(db, lane, items.length, intervalMs, clock.now());
        for (const [index, { query, addressing }] of items.entries()) {
          await clock.sleepUntil(first + index * intervalMs);
          await handOverQuery(db, addressing, query);
        }
      }),
    );
  }
  return 'more';
}
