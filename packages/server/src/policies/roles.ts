import type { Role } from '@tankportal/shared/roles';
import { hasRole } from '@tankportal/shared/roles';
import { forbidden, unauthorized } from '../http-error.ts';
import type { Actor } from './actor.ts';

/** Throws 401 without an actor and 403 below the minimum role; returns the actor otherwise. */
export function requireRole(actor: Actor | null, minimum: Role): Actor {
  if (!actor) throw unauthorized();
  if (!hasRole(actor.user.role, minimum)) throw forbidden();
  return actor;
}

/**
 * Demo accounts (one login shared in public) look at what they may see and change nothing: every
 * state-changing API call of theirs but signing in and out answers 403 (plugins/auth.ts).
 */
export function isReadOnlyAccount(actor: Actor): boolean {
  return !hasRole(actor.user.role, 'ROLE_APP_USER');
}
