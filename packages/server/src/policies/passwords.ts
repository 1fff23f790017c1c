import { hash, verify } from '@node-rs/argon2';

// OWASP/ASVS minimum for argon2id: 19 MiB memory, 2 iterations, parallelism 1.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// A valid hash of a random secret, so that unknown usernames cost as much as known ones.
const dummyHash = hashPassword(crypto.randomUUID());

/** Verifies against the stored hash, or burns the same time when there is no user. */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
