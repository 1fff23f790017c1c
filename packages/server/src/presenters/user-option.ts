import type { UserOption, UserTreeNode } from '@tankportal/shared/schemas/users-lookup';
import type { UserRow } from '../db/schema.ts';
import type { TreeRow } from '../repositories/users-lookup.ts';

/** A user as pickers list it: "firstName lastName", else the company, else "". */
export function presentUserOption(
  user: Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'company'>,
): UserOption {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.company || '';
  return { id: user.id, username: user.username, name };
}

/** A node of the users tree: the user, its role and state, how many users it has below it. */
export const presentTreeNode = (row: TreeRow): UserTreeNode => ({
  ...presentUserOption(row),
  parentUserId: row.parentUserId,
  role: row.role,
  status: row.status === 'locked' ? 'locked' : 'ok',
  childCount: row.childCount,
});
