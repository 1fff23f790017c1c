import type { CurrentUser } from '@tankportal/shared/schemas/auth';
import { assignableRoles } from '@tankportal/shared/roles';
import type { Actor } from '../policies/actor.ts';
import { type UserRow } from '../db/schema.ts';

export function displayName(user: Pick<UserRow, 'firstName' | 'lastName' | 'username'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
}

export function presentCurrentUser(actor: Actor): CurrentUser {
  const { user, realUser } = actor;
  return {
    id: user.id,
    username: user.username,
    name: displayName(user),
    firstName: user.firstName,
    lastName: user.lastName,
    company: user.company,
    role: user.role,
    status: user.status,
    parentUserId: user.parentUserId,
    assignableRoles: assignableRoles(user.role),
    impersonator:
      realUser.id === user.id ? null : { id: realUser.id, username: realUser.username, role: realUser.role },
    secondFactorEnrolmentRequired: actor.secondFactorEnrolmentRequired ?? false,
  };
}
