import { lt, sql } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/client.ts';
import { loginAttempts } from '../db/schema.ts';
import { HttpError } from '../http-error.ts';

export interface LoginLimits {
  maxFailuresPerUsername: number;
  maxFailuresPerIp: number;
  blockMinutes: number;
}

/**
 * Limits password checks per username and per IP address (docs/decisions/004-login-rate-limit.md).
 * An attempt is counted before its password is checked, in one atomic upsert in the database, so
 * that neither parallel requests nor several server processes get more checks than the limit. A
 * failed attempt keeps its count; a successful one clears the username's count and gives the
 * address its attempt back (an address counts failures only).
 */
export class LoginRateLimit {
  private readonly db: Db;
  private readonly byUsername: RateLimiterDrizzle;
  private readonly byIp: RateLimiterDrizzle;

  constructor(db: Db, limits: LoginLimits) {
    this.db = db;
    const duration = limits.blockMinutes * 60;
    // Expired counters restart on their next use; purge() removes the rest at start.
    const store = { storeClient: db, schema: loginAttempts, duration, clearExpiredByTimeout: false };
    this.byUsername = new RateLimiterDrizzle({
      ...store,
      keyPrefix: 'user',
      points: limits.maxFailuresPerUsername,
    });
    this.byIp = new RateLimiterDrizzle({ ...store, keyPrefix: 'ip', points: limits.maxFailuresPerIp });
  }

  /** Counts an attempt; throws 429 with Retry-After when the username or the address has none left. */
  async reserve(username: string, ip: string) {
    const keys = [
      [this.byUsername, username.toLowerCase()],
      [this.byIp, ip],
    ] as const;
    const results = await Promise.allSettled(keys.map(([limiter, key]) => limiter.consume(key)));
    const refusals: RateLimiterRes[] = [];
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
      refusals.push(result.reason);
    }
    if (refusals.length === 0) return;
    // A refused attempt checks no password: the key that still had room gets its count back.
    await Promise.all(
      results.map((result, index) =>
        result.status === 'fulfilled' ? keys[index][0].reward(keys[index][1]) : undefined,
      ),
    );
    const waitMs = Math.max(...refusals.map((refusal) => refusal.msBeforeNext));
    throw new HttpError(429, 'Too many failed logins. Please try again later.', [], {
      'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    });
  }

  async recordSuccess(username: string, ip: string) {
    await Promise.all([this.byUsername.delete(username.toLowerCase()), this.byIp.reward(ip)]);
  }

  /** Housekeeping: counters whose window has ended (run at start). */
  async purge() {
    await this.db.delete(loginAttempts).where(lt(loginAttempts.expire, sql`now()`));
  }
}
