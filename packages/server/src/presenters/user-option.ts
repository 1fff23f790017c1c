import type { UserOption } from '@tankportal/shared/schemas/users-lookup';
import { type UserRow } from '../db/schema.ts';

/** A user as pickers list it: "firstName lastName", else the company, else "". */
export function presentUserOption(
  user: Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'company'>,
): UserOption {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.company || '';
  return { id: user.id, username: user.username, name };
}
