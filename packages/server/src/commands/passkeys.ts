import { and, eq } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyRegistrationBody, WebAuthnOptions } from '@tankportal/shared/schemas/passkeys';
import type { Db } from '../db/client.ts';
import { passkeys, rememberedBrowsers, sessions, type UserRow } from '../db/schema.ts';
import { HttpError, invalidFields, notFound } from '../http-error.ts';
import type { RelyingParty } from '../policies/passkeys.ts';
import { verifyPassword } from '../policies/passwords.ts';
import {
  passkeyByCredentialId,
  passkeysOf,
  signInChallenge,
  storeRegistrationChallenge,
  storeSignInChallenge,
  takeRegistrationChallenge,
  type PasskeyRow,
} from '../repositories/passkeys.ts';
import { changedFields, recordChange, type ChangeAuthor } from './audit-log.ts';

/**
 * Passkeys (WebAuthn) as a second factor beside TOTP (decision 067): registration for the signed-in
 * user, removal with the password, and the assertion of the sign-in's pending step. Adding and
 * removing are recorded with the passkey's name, never its key.
 */

/** How long the browser has to answer a registration's options (the sign-in's step has its own). */
const REGISTRATION_MINUTES = 5;

/** The browser's answer as JSON text; anything else is no answer (and is refused as one). */
function parsedCredential<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

const asBytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, 'base64url'));
const credentialsOf = (rows: readonly PasskeyRow[]) =>
  rows.map((row) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransport[] }));

/** The library's options as the answer's schema names them (passed on as they are). */
const asWebAuthnOptions = (options: { challenge: string }): WebAuthnOptions => ({ ...options });

/** A passkey as its owner sees it. */
export const presentPasskey = (row: PasskeyRow) => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** The options for the browser's `create()`; its challenge is kept for the answer, briefly. */
export async function passkeyRegistrationOptions(db: Db, user: UserRow, relyingParty: RelyingParty) {
  const options = await generateRegistrationOptions({
    rpName: relyingParty.name,
    rpID: relyingParty.id,
    userName: user.username,
    attestationType: 'none',
    // The same authenticator twice would be no second passkey.
    excludeCredentials: credentialsOf(await passkeysOf(db, user.id)),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await storeRegistrationChallenge(db, user.id, options.challenge, REGISTRATION_MINUTES * 60_000);
  return asWebAuthnOptions(options);
}

const refusedCredential = () => invalidFields([{ path: 'credential', code: 'invalid', args: {} }]);

/**
 * Stores the passkey the browser made for the offered challenge; from now on it is a second factor.
 * As with TOTP, this session may use the portal again if it was held back for enrolment.
 */
export async function addPasskey(
  db: Db,
  author: ChangeAuthor,
  relyingParty: RelyingParty,
  { name, credential }: PasskeyRegistrationBody,
) {
  const { user, sessionId } = author.actor;
  const challenge = await takeRegistrationChallenge(db, user.id);
  if (challenge === undefined) throw new HttpError(409, 'No passkey registration was begun.');
  const response = parsedCredential<RegistrationResponseJSON>(credential);
  if (!response) throw refusedCredential();
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: relyingParty.origin,
    expectedRPID: relyingParty.id,
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) throw refusedCredential();
  const made = verification.registrationInfo.credential;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: user.id,
        credentialId: made.id,
        publicKey: Buffer.from(made.publicKey).toString('base64url'),
        counter: made.counter,
        transports: made.transports ?? [],
        name,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new HttpError(409, 'This passkey is registered already.');
    if (sessionId)
      await tx
        .update(sessions)
        .set({ secondFactorEnrolmentRequired: false })
        .where(eq(sessions.id, sessionId));
    await recordChange(tx, author, {
      entityType: 'user',
      entityId: user.id,
      subjectUserId: user.id,
      action: 'add_passkey',
      changes: changedFields({ passkey: null }, { passkey: name }),
    });
    return presentPasskey(row);
  });
}

/**
 * Removes one of the own passkeys after the password; the browsers remembered with it are asked
 * again (their stamp no longer matches anyway, the rows go at once).
 */
export async function removePasskey(db: Db, author: ChangeAuthor, passkeyId: number, password: string) {
  const { user } = author.actor;
  if (!(await verifyPassword(user.passwordHash, password)))
    throw invalidFields([{ path: 'password', code: 'invalid', args: {} }]);
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, user.id)))
      .returning({ name: passkeys.name });
    if (!removed) throw notFound();
    await tx.delete(rememberedBrowsers).where(eq(rememberedBrowsers.userId, user.id));
    await recordChange(tx, author, {
      entityType: 'user',
      entityId: user.id,
      subjectUserId: user.id,
      action: 'remove_passkey',
      changes: changedFields({ passkey: removed.name }, { passkey: null }),
    });
  });
}

/** The options for the browser's `get()` in a pending sign-in: the user's passkeys, a new challenge. */
export async function passkeySignInOptions(db: Db, user: UserRow, step: string, relyingParty: RelyingParty) {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    allowCredentials: credentialsOf(await passkeysOf(db, user.id)),
    userVerification: 'preferred',
  });
  await storeSignInChallenge(db, step, options.challenge);
  return asWebAuthnOptions(options);
}

/**
 * Checks a passkey's assertion in a pending sign-in: one of the user's passkeys signed this step's
 * challenge for this origin, and its counter went up (a cloned authenticator lags behind). The
 * counter and the last use are stored. True when it holds.
 */
export async function acceptPasskeyAssertion(
  db: Db,
  user: UserRow,
  step: string,
  relyingParty: RelyingParty,
  credential: PasskeyRegistrationBody['credential'],
): Promise<boolean> {
  const challenge = await signInChallenge(db, step);
  const response = parsedCredential<AuthenticationResponseJSON>(credential);
  if (challenge === undefined || typeof response?.id !== 'string') return false;
  const passkey = await passkeyByCredentialId(db, user.id, response.id);
  if (!passkey) return false;
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: relyingParty.origin,
    expectedRPID: relyingParty.id,
    credential: {
      id: passkey.credentialId,
      publicKey: asBytes(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports as AuthenticatorTransport[],
    },
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) return false;
  // Conditional on the counter read: of two assertions at once, one moves it.
  const moved = await db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
    .returning({ id: passkeys.id });
  return moved.length === 1;
}
