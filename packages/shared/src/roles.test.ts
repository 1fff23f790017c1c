import { describe, expect, it } from 'vitest';
import { assignableRoles, hasRole } from './roles.ts';

describe('role hierarchy', () => {
  it('includes every lower role', () => {
    expect(hasRole('ROLE_MASTER', 'ROLE_DEMO')).toBe(true);
    expect(hasRole('ROLE_ADMIN', 'ROLE_USER')).toBe(true);
    expect(hasRole('ROLE_USER', 'ROLE_APP_USER')).toBe(true);
    expect(hasRole('ROLE_USER', 'ROLE_ADMIN')).toBe(false);
    expect(hasRole('ROLE_DEMO', 'ROLE_APP_USER')).toBe(false);
  });

  it('lets only superadmins assign admins and only masters assign superadmins', () => {
    expect(assignableRoles('ROLE_ADMIN')).toEqual(['ROLE_DEMO', 'ROLE_APP_USER', 'ROLE_USER']);
    expect(assignableRoles('ROLE_SUPERADMIN')).toContain('ROLE_ADMIN');
    expect(assignableRoles('ROLE_SUPERADMIN')).not.toContain('ROLE_SUPERADMIN');
    expect(assignableRoles('ROLE_MASTER')).toEqual([
      'ROLE_DEMO',
      'ROLE_APP_USER',
      'ROLE_USER',
      'ROLE_ADMIN',
      'ROLE_SUPERADMIN',
    ]);
  });
});
