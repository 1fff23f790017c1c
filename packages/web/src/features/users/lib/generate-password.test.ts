import { describe, expect, it } from 'vitest';
import { generatePassword } from './generate-password.ts';

describe('generatePassword', () => {
  it('gives 16 unambiguous letters and digits, different each time', () => {
    const passwords = new Set(Array.from({ length: 50 }, () => generatePassword()));
    expect(passwords.size).toBe(50);
    for (const password of passwords) expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{16}$/);
  });

  it('skips random bytes that would favour some characters', () => {
    // First batch: bytes above the limit only (all skipped); then 0..15.
    const batches = [new Array<number>(16).fill(255), Array.from({ length: 16 }, (_, i) => i)];
    const random = () => batches.shift()!;
    expect(generatePassword(random)).toBe('abcdefghijkmnpqr');
  });
});
