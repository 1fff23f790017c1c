import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { passkeyRegistrations, passkeys, pendingSignIns } from '../db/schema.ts';
import { hashToken } from '../policies/tokens.ts';

/** The user's passkeys, oldest first (decision 067). */
export const passkeysOf = (db: Executor, userId: number) =>
  db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));

export type PasskeyRow = typeof passkeys.$inferSelect;

/** One of the user's passkeys by the credential id an assertion names. */
export async function passkeyByCredentialId(db: Executor, userId: number, credentialId: string) {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.credentialId, credentialId)))
    .limit(1);
  return row;
}

/** Keeps the challenge of a registration just offered; a new offer replaces an older one. */
export async function storeRegistrationChallenge(
  db: Executor,
  userId: number,
  challenge: string,
  lifetimeMs: number,
) {
  const expiresAt = new Date(Date.now() + lifetimeMs);
  await db
    .insert(passkeyRegistrations)
    .values({ userId, challenge, expiresAt })
    .onConflictDoUpdate({ target: passkeyRegistrations.userId, set: { challenge, expiresAt } });
}

/** Takes the user's offered registration challenge (once: two answers cannot both use it). */
export async function takeRegistrationChallenge(db: Executor, userId: number): Promise<string | undefined> {
  const [row] = await db
    .delete(passkeyRegistrations)
    .where(and(eq(passkeyRegistrations.userId, userId), gt(passkeyRegistrations.expiresAt, sql`now()`)))
    .returning({ challenge: passkeyRegistrations.challenge });
  return row?.challenge;
}

/** Keeps the challenge a passkey must sign in this pending sign-in. */
export async function storeSignInChallenge(db: Executor, step: string, challenge: string) {
  await db
    .update(pendingSignIns)
    .set({ passkeyChallenge: challenge })
    .where(eq(pendingSignIns.id, hashToken(step)));
}

/** The challenge offered in this pending sign-in, while it has not expired. */
export async function signInChallenge(db: Executor, step: string): Promise<string | undefined> {
  const [row] = await db
    .select({ challenge: pendingSignIns.passkeyChallenge })
    .from(pendingSignIns)
    .where(and(eq(pendingSignIns.id, hashToken(step)), gt(pendingSignIns.expiresAt, sql`now()`)))
    .limit(1);
  return row?.challenge ?? undefined;
}
