import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../db/client.ts';
import { users, type UserRow } from '../db/schema.ts';

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export const findUsersByIds = (db: Db, ids: number[]): Promise<UserRow[]> =>
  db.select().from(users).where(inArray(users.id, ids));

/** How many users sit directly below the user, deleted ones not counted. */
export async function countSubUsers(db: Db | Tx, userId: number): Promise<number> {
  const [{ subUsers }] = await db
    .select({ subUsers: count() })
    .from(users)
    .where(and(eq(users.parentUserId, userId), ne(users.status, 'deleted')));
  return subUsers;
}

/** The active (status ok) user whose API token has this hash, if any. */
export async function findActiveUserByTokenHash(db: Db, tokenHash: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.authTokenHash, tokenHash), eq(users.status, 'ok')))
    .limit(1);
  return row;
}

export async function updatePasswordHash(db: Executor, userId: number, passwordHash: string) {
  await db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, userId)));
}

/**
 * Locks, deletes or reactivates a user; its sessions follow at once. `sessions` is the SessionStore,
 * named by the one method used: sessions.ts imports this module, and modules never import in a circle.
 */
export async function setUserStatus(
  db: Db,
  sessions: { forgetUser(userId: number): void },
  userId: number,
  status: UserRow['status'],
) {
  await db.update(users).set({ status }).where(eq(users.id, userId));
  sessions.forgetUser(userId);
}
