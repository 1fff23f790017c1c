import { describe, expect, it } from 'vitest';
import { impersonationReturnPath, rememberImpersonationStart } from './impersonation-return.ts';

const memoryStore = () => {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
};

describe('the way back from an impersonation', () => {
  it("leads to the user's page it was started from, once", () => {
    const store = memoryStore();
    rememberImpersonationStart('/users/12/access', store);
    expect(impersonationReturnPath(12, store)).toBe('/users/12/access');
    expect(impersonationReturnPath(12, store)).toBe('/users/12');
  });

  it("leads to the impersonated user's page when the start is unknown or another user's", () => {
    const store = memoryStore();
    expect(impersonationReturnPath(7, store)).toBe('/users/7');
    rememberImpersonationStart('/users/70/account', store);
    expect(impersonationReturnPath(7, store)).toBe('/users/7');
  });
});
