import { sql, type SQL } from 'drizzle-orm';
import { hasRole } from '@tankportal/shared/roles';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { UserRow } from '../repositories/users.ts';

type ActorLike = Pick<UserRow, 'id' | 'role'>;

/**
 * SQL select of the ids of the users the actor manages (contracts §2, DESIGN.md [5]): a master
 * every user, everybody else itself and its whole subtree; deleted users never. Differs from
 * device-access's managedOwners on purpose: a plain user manages its sub-users as people (it may
 * grant them access), while only admins own the devices of their subtree as a whole.
 */
export function managedUserIds(actor: ActorLike): SQL {
  if (hasRole(actor.role, 'ROLE_MASTER')) return sql`SELECT id FROM ${users} WHERE status <> 'deleted'`;
  return sql`WITH RECURSIVE subtree(id, depth) AS (
      SELECT ${actor.id}::int, 0
      UNION ALL
      SELECT u.id, s.depth + 1 FROM ${users} u JOIN subtree s ON u.parent_user_id = s.id WHERE s.depth < 64
    ) SELECT s.id FROM subtree s JOIN ${users} u ON u.id = s.id WHERE u.status <> 'deleted'`;
}

/** True when the actor manages `userId` (see managedUserIds). */
export async function userManagedBy(db: Db, actor: ActorLike, userId: number): Promise<boolean> {
  const result = await db.execute<{ managed: boolean }>(
    sql`SELECT ${userId}::int IN (${managedUserIds(actor)}) AS managed`,
  );
  return Boolean(result.rows[0]?.managed);
}
