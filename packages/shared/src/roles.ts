/**
 * Role hierarchy: each role includes every role below it.
 * Used by the server's guards and by the web's route guards alike.
 */
export const ROLES = [
  'ROLE_DEMO',
  'ROLE_APP_USER',
  'ROLE_USER',
  'ROLE_ADMIN',
  'ROLE_SUPERADMIN',
  'ROLE_MASTER',
] as const;

export type Role = (typeof ROLES)[number];

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** True when `role` is `minimum` or above it. */
export function hasRole(role: Role, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}

/** Roles a user may assign to others. */
export function assignableRoles(role: Role): Role[] {
  const roles: Role[] = ['ROLE_DEMO', 'ROLE_APP_USER', 'ROLE_USER'];
  if (hasRole(role, 'ROLE_SUPERADMIN')) roles.push('ROLE_ADMIN');
  if (hasRole(role, 'ROLE_MASTER')) roles.push('ROLE_SUPERADMIN');
  return roles;
}

/**
 * Master and admin may act as a user below them in rank (admins: in their own
 * subtree). The server decides; the web shows the button by the same rule.
 */
export function mayImpersonate(
  real: { role: Role; id: number },
  target: { role: Role; id: number },
  targetIsInSubtreeOfReal: boolean,
): boolean {
  if (real.id === target.id || roleRank(target.role) >= roleRank(real.role)) return false;
  if (hasRole(real.role, 'ROLE_MASTER')) return true;
  return hasRole(real.role, 'ROLE_ADMIN') && targetIsInSubtreeOfReal;
}

/** Short forms used by screens and route tables. */
export const SHORT_ROLE = {
  demo: 'ROLE_DEMO',
  user: 'ROLE_USER',
  admin: 'ROLE_ADMIN',
  master: 'ROLE_MASTER',
} as const satisfies Record<string, Role>;
