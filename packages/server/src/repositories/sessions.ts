import { and, eq, lt, or, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.ts';
import { sessions, type UserRow, users } from '../db/schema.ts';
import { hashToken, newToken } from '../policies/tokens.ts';
import { findUserById } from './users.ts';

export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

export interface ResolvedSession {
  id: string;
  user: UserRow;
  impersonatedUserId: number | null;
  /** The user acted as while impersonating, when still active. */
  impersonated: UserRow | undefined;
  lastSeenAt: Date;
  expiresAt: Date;
}

/**
 * Sessions in the database, with a short-lived in-process cache in front: every authenticated
 * request resolves its session, and a database round trip per request would cost most of the API's
 * throughput (bench/results/users-me.md). Every change made through this store evicts at once;
 * another server process sees a change after at most CACHE_TTL_MS (docs/decisions/003).
 */
export class SessionStore {
  static readonly CACHE_TTL_MS = 5_000;
  private readonly cache = new LRUCache<string, ResolvedSession>({
    max: 50_000,
    ttl: SessionStore.CACHE_TTL_MS,
  });
  private readonly db: Db;
  private readonly limits: SessionLimits;

  constructor(db: Db, limits: SessionLimits) {
    this.db = db;
    this.limits = limits;
  }

  /** Creates a session and returns the cookie value (only its hash is stored). */
  async create(userId: number): Promise<string> {
    const token = newToken();
    await this.db.insert(sessions).values({
      id: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + this.limits.maxHours * 3_600_000),
    });
    return token;
  }

  /** The live session of a cookie value: not expired, not idle too long, user still active. */
  async resolve(token: string): Promise<ResolvedSession | undefined> {
    const id = hashToken(token);
    const cached = this.cache.get(id);
    if (cached && this.isLive(cached)) return cached;
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, id), eq(users.status, 'ok')))
      .limit(1);
    if (!row) return undefined;
    const impersonatedUserId = row.session.impersonatedUserId;
    const impersonated = impersonatedUserId ? await findUserById(this.db, impersonatedUserId) : undefined;
    const session = {
      id,
      user: row.user,
      impersonatedUserId,
      impersonated: impersonated?.status === 'ok' ? impersonated : undefined,
      lastSeenAt: row.session.lastSeenAt,
      expiresAt: row.session.expiresAt,
    };
    if (!this.isLive(session)) return undefined;
    this.cache.set(id, session);
    return session;
  }

  /** Records activity (callers throttle it: see plugins/auth.ts). */
  async touch(session: ResolvedSession) {
    session.lastSeenAt = new Date();
    await this.db.update(sessions).set({ lastSeenAt: session.lastSeenAt }).where(eq(sessions.id, session.id));
  }

  async setImpersonation(id: string, impersonatedUserId: number | null) {
    await this.db.update(sessions).set({ impersonatedUserId }).where(eq(sessions.id, id));
    this.cache.delete(id);
  }

  async destroy(id: string) {
    await this.db.delete(sessions).where(eq(sessions.id, id));
    this.cache.delete(id);
  }

  /** After a password change only the session that changed it stays signed in. */
  async destroyOthers(userId: number, keepId: string) {
    await this.db.delete(sessions).where(and(eq(sessions.userId, userId), sql`${sessions.id} <> ${keepId}`));
    this.forgetUser(userId);
  }

  /** A user locked or deleted: every session of it ends now (and none comes back if it is unlocked). */
  async destroyAll(userId: number) {
    await this.db.delete(sessions).where(eq(sessions.userId, userId));
    this.forgetUser(userId);
  }

  /** Drops cached sessions of a user (or impersonating that user) whose row or status changed. */
  forgetUser(userId: number) {
    for (const [id, session] of this.cache.entries()) {
      if (session.user.id === userId || session.impersonatedUserId === userId) this.cache.delete(id);
    }
  }

  /** Housekeeping: expired and idle sessions go (run at start). */
  async purge() {
    await this.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, sql`now()`), lt(sessions.lastSeenAt, this.idleSince())));
  }

  private idleSince() {
    return new Date(Date.now() - this.limits.idleMinutes * 60_000);
  }

  private isLive(session: ResolvedSession) {
    return session.expiresAt.getTime() > Date.now() && session.lastSeenAt > this.idleSince();
  }
}
