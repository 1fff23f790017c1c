import { sql, type SQL } from 'drizzle-orm';
import { hasRole } from '@tankportal/shared/roles';
import type { Executor } from '../db/client.ts';
import { type UserRow, users } from '../db/schema.ts';

/**
 * The tree of users (`users.parent_user_id`) and the views of it the policies use.
 * They differ on purpose, and each difference is an option or a function here, so no caller writes
 * its own recursive query:
 *
 * - **Device owners** (device-access.ts): an admin owns the devices of its whole subtree, itself
 *   included; deleted users count, so their devices stay with the admins above them.
 * - **Managed users** (`managedUserIds`, `checkManagedUsers`): the people an actor may pick as an
 *   access entry's grantee or a device's owner and look up: a master everybody, everybody else
 *   itself and its subtree (a plain user manages its sub-users too); deleted users never.
 * - **Strict ancestry** (`isInSubtree`): whether one user sits anywhere below another, the user
 *   itself not counted, deleted users walked like the others (impersonation checks the target's
 *   status itself). Walked upwards: a chain of ancestors is short, a subtree may be large.
 */

/**
 * How far a walk goes. Nothing in the schema forbids a cycle in `parent_user_id`; the limit ends a
 * walk around one. A tree of customers below customers is nowhere near this deep.
 */
export const MAX_TREE_DEPTH = 64;

export interface TreeWalk {
  /** Whether the user the walk starts from is part of the answer. */
  self: 'include' | 'exclude';
  /**
   * Whether deleted users are part of the answer. The walk goes through them either way: the users
   * below a deleted user stay in the tree.
   */
  deleted: 'include' | 'exclude';
}

type ActorLike = Pick<UserRow, 'id' | 'role'>;

/** The answer of a walk from its rows `walk(id, depth)`: the start at depth 0, deleted users joined out. */
function selectWalked(walk: SQL, { self, deleted }: TreeWalk): SQL {
  const notDeleted =
    deleted === 'exclude' ? sql` JOIN ${users} u ON u.id = w.id AND u.status <> 'deleted'` : sql``;
  const notSelf = self === 'exclude' ? sql` WHERE w.depth > 0` : sql``;
  return sql`WITH RECURSIVE ${walk} SELECT w.id FROM walk w${notDeleted}${notSelf}`;
}

/** SQL select (one column, `id`) of the users below `rootId`, at any depth up to MAX_TREE_DEPTH. */
export function subtreeIds(rootId: number, options: TreeWalk): SQL {
  return selectWalked(
    sql`walk(id, depth) AS (
      SELECT ${rootId}::int, 0
      UNION ALL
      SELECT u.id, w.depth + 1 FROM ${users} u JOIN walk w ON u.parent_user_id = w.id
      WHERE w.depth < ${sql.raw(String(MAX_TREE_DEPTH))}
    )`,
    options,
  );
}

/** SQL select (one column, `id`) of the users above `userId`: its parent, the parent's parent … */
export function ancestorIds(userId: number, options: TreeWalk): SQL {
  return selectWalked(
    sql`walk(id, parent_user_id, depth) AS (
      SELECT id, parent_user_id, 0 FROM ${users} WHERE id = ${userId}::int
      UNION ALL
      SELECT u.id, u.parent_user_id, w.depth + 1 FROM ${users} u JOIN walk w ON u.id = w.parent_user_id
      WHERE w.depth < ${sql.raw(String(MAX_TREE_DEPTH))}
    )`,
    options,
  );
}

/** True when `descendantId` sits anywhere below `ancestorId` (strict ancestry, see above). */
export async function isInSubtree(db: Executor, ancestorId: number, descendantId: number): Promise<boolean> {
  const result = await db.execute<{ found: boolean }>(
    sql`SELECT ${ancestorId}::int IN (${ancestorIds(descendantId, { self: 'exclude', deleted: 'include' })}) AS found`,
  );
  return Boolean(result.rows[0]?.found);
}

/**
 * SQL select (one column, `id`) of the users the actor manages: a
 * master every user, everybody else itself and its whole subtree; deleted users never. Wider than
 * device-access's owners on purpose: a plain user manages its sub-users as people (it may grant
 * them access), while only admins own the devices of their subtree as a whole.
 */
export function managedUserIds(actor: ActorLike): SQL {
  if (hasRole(actor.role, 'ROLE_MASTER')) return sql`SELECT id FROM ${users} WHERE status <> 'deleted'`;
  return subtreeIds(actor.id, { self: 'include', deleted: 'exclude' });
}

/**
 * SQL select (one column, `id`) of the users matching `condition` (on `users`) that the actor
 * manages: the same answer as `managedUserIds` filtered by the condition, but walked upwards from
 * the matches in one set-based recursion. For searches: the matches are few, while an admin's
 * subtree may hold 10,000 users (bench/results/users-tree.md); a chain of ancestors is a handful.
 */
export function managedMatching(actor: ActorLike, condition: SQL): SQL {
  if (hasRole(actor.role, 'ROLE_MASTER'))
    return sql`SELECT id FROM ${users} WHERE status <> 'deleted' AND ${condition}`;
  return sql`WITH RECURSIVE up(match_id, id, depth) AS (
      SELECT id, id, 0 FROM ${users} WHERE status <> 'deleted' AND ${condition}
      UNION ALL
      SELECT up.match_id, p.parent_user_id, up.depth + 1 FROM up JOIN ${users} p ON p.id = up.id
      WHERE p.parent_user_id IS NOT NULL AND up.id <> ${actor.id}::int
        AND up.depth < ${sql.raw(String(MAX_TREE_DEPTH))}
    )
    SELECT match_id AS id FROM up WHERE id = ${actor.id}::int`;
}

/** A user id is a PostgreSQL integer; anything else names nobody and would fail the `::int` cast. */
const isUserId = (id: number) => Number.isInteger(id) && id >= -2_147_483_648 && id <= 2_147_483_647;

/**
 * The subset of `userIds` the actor manages (see managedUserIds), in one query: the bulk shape
 * lists, pickers and batch actions need (Immich's access checks). Ids of nobody are left out.
 */
export async function checkManagedUsers(
  db: Executor,
  actor: ActorLike,
  userIds: Iterable<number>,
): Promise<Set<number>> {
  const ids = [...new Set(userIds)].filter(isUserId);
  if (ids.length === 0) return new Set();
  const result = await db.execute<{ id: number }>(
    sql`SELECT DISTINCT m.id FROM (${managedUserIds(actor)}) m WHERE m.id IN (${sql.join(
      ids.map((id) => sql`${id}::int`),
      sql`, `,
    )})`,
  );
  return new Set(result.rows.map((row) => row.id));
}

/** True when the actor manages `userId` (see managedUserIds). */
export async function userManagedBy(db: Executor, actor: ActorLike, userId: number): Promise<boolean> {
  return (await checkManagedUsers(db, actor, [userId])).has(userId);
}
