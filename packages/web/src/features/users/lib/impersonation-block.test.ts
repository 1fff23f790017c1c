import { describe, expect, it } from 'vitest';
import { impersonationBlock } from './impersonation-block.ts';

const admin = { id: 2, role: 'ROLE_ADMIN' } as const;

describe('why a user page offers no impersonation', () => {
  it('names the own page, a role not below the actor and a locked user', () => {
    expect(impersonationBlock(admin, { ...admin, status: 'ok' })).toBe('self');
    expect(impersonationBlock(admin, { id: 3, role: 'ROLE_ADMIN', status: 'ok' })).toBe('role');
    expect(impersonationBlock(admin, { id: 4, role: 'ROLE_USER', status: 'locked' })).toBe('locked');
  });

  it('has no reason for an active user below the actor', () => {
    expect(impersonationBlock(admin, { id: 4, role: 'ROLE_USER', status: 'ok' })).toBeNull();
    expect(impersonationBlock({ id: 1, role: 'ROLE_MASTER' }, { ...admin, status: 'ok' })).toBeNull();
  });
});
