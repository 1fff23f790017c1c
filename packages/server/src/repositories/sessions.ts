import { and, desc, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db, Executor } from '../db/client.ts';
import { sessions, type UserRow, users } from '../db/schema.ts';
import { hashToken, newToken } from '../policies/tokens.ts';
import { purgeSecondFactorSteps } from './second-factors.ts';
import { findUserById } from './users.ts';

export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

/** Where a session was opened from, as the request said it (decision 065). */
export interface SessionClient {
  userAgent: string | undefined;
  ipAddress: string;
  /** The white-label requires a second factor the user has not enrolled yet (decision 067). */
  secondFactorEnrolmentRequired?: boolean;
}

/** Enough to recognise a browser; a header of kilobytes is not kept whole in every session row. */
const USER_AGENT_MAX = 512;
const IP_ADDRESS_MAX = 64;

/** A live session of a user's own list (GET /v2/sessions). */
export type OwnSessionRow = Pick<
  typeof sessions.$inferSelect,
  'id' | 'publicId' | 'userAgent' | 'ipAddress' | 'createdAt' | 'lastSeenAt'
>;

export interface ResolvedSession {
  id: string;
  user: UserRow;
  impersonatedUserId: number | null;
  /** The user acted as while impersonating, when still active. */
  impersonated: UserRow | undefined;
  lastSeenAt: Date;
  expiresAt: Date;
  secondFactorEnrolmentRequired: boolean;
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
  async create(userId: number, client: SessionClient): Promise<string> {
    const token = newToken();
    await this.db.insert(sessions).values({
      id: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + this.limits.maxHours * 3_600_000),
      // Header values reach Node as Latin-1 text: cutting them cannot split a character.
      userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) || null,
      ipAddress: client.ipAddress.slice(0, IP_ADDRESS_MAX),
      secondFactorEnrolmentRequired: client.secondFactorEnrolmentRequired ?? false,
    });
    return token;
  }

  /** A user's sessions that still work (not expired, not idle too long), last used first. */
  async liveSessionsOf(userId: number): Promise<OwnSessionRow[]> {
    return this.db
      .select({
        id: sessions.id,
        publicId: sessions.publicId,
        userAgent: sessions.userAgent,
        ipAddress: sessions.ipAddress,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
      })
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, userId),
          gt(sessions.expiresAt, sql`now()`),
          gt(sessions.lastSeenAt, this.idleSince()),
        ),
      )
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  }

  /**
   * Ends one session of a user by its API id; answers the stored id of the session it ended, or
   * undefined when the user has no such session (another user's is never touched).
   */
  async destroyOwn(
    userId: number,
    publicId: string,
    executor: Executor = this.db,
  ): Promise<string | undefined> {
    const [ended] = await executor
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
      .returning({ id: sessions.id });
    if (ended) this.cache.delete(ended.id);
    return ended?.id;
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
      secondFactorEnrolmentRequired: row.session.secondFactorEnrolmentRequired,
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

  /**
   * After a password change, or asked for in the own session list: only the session that asked
   * stays signed in (every one of the user's, when the request came without one). Answers how many
   * ended.
   */
  async destroyOthers(userId: number, keepId: string | null, executor: Executor = this.db): Promise<number> {
    const ended = await executor
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), keepId === null ? undefined : ne(sessions.id, keepId)))
      .returning({ id: sessions.id });
    this.forgetUser(userId);
    return ended.length;
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

  /** Housekeeping: expired and idle sessions go (run at start), and the expired second-factor steps. */
  async purge() {
    await this.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, sql`now()`), lt(sessions.lastSeenAt, this.idleSince())));
    await purgeSecondFactorSteps(this.db);
  }

  private idleSince() {
    return new Date(Date.now() - this.limits.idleMinutes * 60_000);
  }

  private isLive(session: ResolvedSession) {
    return session.expiresAt.getTime() > Date.now() && session.lastSeenAt > this.idleSince();
  }
}
