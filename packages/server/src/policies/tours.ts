import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { hasRole } from '@tankportal/shared/roles';
import type { UserRow } from '../db/schema.ts';
import { subtreeIds } from './user-tree.ts';

/**
 * A dealer's depots, trucks and tours (docs/product/tours.md) belong to the admin or master who made
 * them (`owner_user_id`): that user and the users above it see and change them, a master all of
 * them; anybody else gets 404, as for an object that does not exist.
 */
export function dealerOwned(actor: Pick<UserRow, 'id' | 'role'>, ownerColumn: AnyColumn): SQL {
  if (hasRole(actor.role, 'ROLE_MASTER')) return sql`true`;
  return sql`${ownerColumn} IN (${subtreeIds(actor.id, { self: 'include', deleted: 'include' })})`;
}
