import { and, asc, count, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.ts';
import {
  passkeys,
  pendingSignIns,
  recoveryCodes,
  rememberedBrowsers,
  secondFactors,
  type UserRow,
  whitelabels,
} from '../db/schema.ts';
import { hashToken, newToken } from '../policies/tokens.ts';

/** The second factor of a user, begun or active (decision 067). */
export async function secondFactorOf(db: Executor, userId: number) {
  const [row] = await db.select().from(secondFactors).where(eq(secondFactors.userId, userId)).limit(1);
  return row;
}

/** True when the user has a second factor: a confirmed TOTP factor or a passkey. */
export async function hasActiveSecondFactor(db: Executor, userId: number): Promise<boolean> {
  return (await activeFactorsOf(db, userId)).any;
}

/** The kinds of second factor the user can sign in with (decision 067). */
export async function activeFactorsOf(db: Executor, userId: number) {
  const [totp, passkey] = await Promise.all([
    db
      .select({ secret: secondFactors.secret })
      .from(secondFactors)
      .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)))
      .limit(1),
    db
      .select({ credentialId: passkeys.credentialId })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.credentialId)),
  ]);
  const code = totp.length > 0;
  return {
    code,
    passkey: passkey.length > 0,
    any: code || passkey.length > 0,
    /**
     * What a remembered browser is bound to besides the password: the TOTP secret and the
     * passkeys as they are now. A new factor of either kind changes it.
     */
    stamp: [totp[0]?.secret ?? '', ...passkey.map((row) => row.credentialId)].join('\n'),
  };
}

export async function unusedRecoveryCodeCount(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row.count;
}

/** Every trace of a user's TOTP factor: the secret, the recovery codes, the browsers that skip it. */
export async function removeSecondFactor(db: Executor, userId: number) {
  await db.delete(secondFactors).where(eq(secondFactors.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(rememberedBrowsers).where(eq(rememberedBrowsers.userId, userId));
}

/** A sign-in waiting for its second factor; answers the cookie value (only its hash is stored). */
export async function createPendingSignIn(db: Db, userId: number, lifetimeMs: number): Promise<string> {
  const token = newToken();
  await db.insert(pendingSignIns).values({
    id: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + lifetimeMs),
  });
  return token;
}

/** The user id of a pending sign-in that has not expired. */
export async function pendingSignInUser(db: Db, token: string): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: pendingSignIns.userId })
    .from(pendingSignIns)
    .where(and(eq(pendingSignIns.id, hashToken(token)), gt(pendingSignIns.expiresAt, sql`now()`)))
    .limit(1);
  return row?.userId;
}

/**
 * Ends a pending sign-in; true only for the one call that ended it, so that two requests with the
 * same step cannot both sign in.
 */
export async function consumePendingSignIn(db: Db, token: string): Promise<boolean> {
  const ended = await db
    .delete(pendingSignIns)
    .where(and(eq(pendingSignIns.id, hashToken(token)), gt(pendingSignIns.expiresAt, sql`now()`)))
    .returning({ id: pendingSignIns.id });
  return ended.length === 1;
}

/**
 * What a remembered browser is bound to besides the user: the password hash and the factors' stamp
 * (`activeFactorsOf`) as they were. A new password or a new factor changes it, and the browser is
 * asked again.
 */
const credentialStamp = (user: Pick<UserRow, 'passwordHash'>, factorStamp: string) =>
  hashToken(`${user.passwordHash}\n${factorStamp}`);

/** Remembers a browser for the user; answers the cookie value (only its hash is stored). */
export async function rememberBrowser(db: Db, user: UserRow, factorStamp: string, lifetimeMs: number) {
  const token = newToken();
  await db.insert(rememberedBrowsers).values({
    id: hashToken(token),
    userId: user.id,
    credentialStamp: credentialStamp(user, factorStamp),
    expiresAt: new Date(Date.now() + lifetimeMs),
  });
  return token;
}

/** True when the cookie is a remembered browser of the user with the password and factors it has now. */
export async function isRememberedBrowser(db: Db, token: string, user: UserRow, factorStamp: string) {
  const [row] = await db
    .select({ id: rememberedBrowsers.id })
    .from(rememberedBrowsers)
    .where(
      and(
        eq(rememberedBrowsers.id, hashToken(token)),
        eq(rememberedBrowsers.userId, user.id),
        eq(rememberedBrowsers.credentialStamp, credentialStamp(user, factorStamp)),
        gt(rememberedBrowsers.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Housekeeping: expired pending sign-ins and remembered browsers (run at start). */
export async function purgeSecondFactorSteps(db: Db) {
  await db.delete(pendingSignIns).where(lt(pendingSignIns.expiresAt, sql`now()`));
  await db.delete(rememberedBrowsers).where(lt(rememberedBrowsers.expiresAt, sql`now()`));
}

/** A white-label's policy: users from admin up need a second factor. */
export async function whitelabelRequiresSecondFactor(db: Executor, whitelabelId: number): Promise<boolean> {
  const [row] = await db
    .select({ required: whitelabels.secondFactorRequired })
    .from(whitelabels)
    .where(eq(whitelabels.id, whitelabelId))
    .limit(1);
  return row?.required ?? false;
}
