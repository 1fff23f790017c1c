import { mayImpersonate, type Role } from '@tankportal/shared/roles';

/** Why a user's page offers no impersonation: the own page, a role not below the actor's, a locked user. */
export type ImpersonationBlock = 'self' | 'role' | 'locked';

/**
 * The reason the "act as" button is disabled, null when it is not. The page shows only users the
 * actor manages, so the subtree rule of `mayImpersonate` holds.
 */
export function impersonationBlock(
  actor: { id: number; role: Role },
  user: { id: number; role: Role; status: string },
): ImpersonationBlock | null {
  if (user.id === actor.id) return 'self';
  if (!mayImpersonate(actor, user, true)) return 'role';
  if (user.status !== 'ok') return 'locked';
  return null;
}
