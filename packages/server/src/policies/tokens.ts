import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session cookies and API tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored hashed; SHA-256 suffices for high-entropy random values. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
