import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { passkeys, recoveryCodes, secondFactors, sessions, type UserRow, whitelabels } from '../db/schema.ts';
import { HttpError, invalidFields } from '../http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { verifyPassword } from '../policies/passwords.ts';
import {
  acceptedTimeStep,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  totpUri,
} from '../policies/second-factor.ts';
import { hasRole } from '@tankportal/shared/roles';
import {
  hasActiveSecondFactor,
  removeSecondFactor,
  secondFactorOf,
  whitelabelRequiresSecondFactor,
} from '../repositories/second-factors.ts';
import { passkeysOf } from '../repositories/passkeys.ts';
import type { WhitelabelRow } from '../repositories/whitelabels.ts';
import { changedFields, recordChange, type ChangeAuthor } from './audit-log.ts';

/**
 * The second sign-in factor's writes (decision 067): enrolment in two steps, disabling, a master's
 * reset and the check of a code at sign-in. Each change is recorded in its transaction; the secret
 * and the codes never are.
 */

const alreadyActive = () => new HttpError(409, 'A second factor is active already.');
const wrongCode = (path = 'code') => invalidFields([{ path, code: 'invalid', args: {} }]);

/** The record of a factor switched on or off: only that it changed. */
const factorRecord = (
  userId: number,
  action: 'enable_second_factor' | 'disable_second_factor' | 'reset_second_factor',
  active: boolean,
) => ({
  entityType: 'user' as const,
  entityId: userId,
  subjectUserId: userId,
  action,
  changes: changedFields({ secondFactor: !active }, { secondFactor: active }),
});

/**
 * Begins (or begins again) an enrolment: a new secret that signs in nobody until a first code
 * confirms it. Answers the secret and the URI the authenticator app scans.
 */
export async function beginEnrolment(db: Db, user: UserRow, issuer: string) {
  const factor = await secondFactorOf(db, user.id);
  if (factor?.confirmedAt) throw alreadyActive();
  const secret = newTotpSecret();
  await db
    .insert(secondFactors)
    .values({ userId: user.id, secret })
    .onConflictDoUpdate({
      target: secondFactors.userId,
      set: { secret, lastTimeStep: null, createdAt: new Date() },
    });
  return { secret, uri: totpUri(issuer, user.username, secret) };
}

/**
 * Confirms the begun enrolment with a first code: the factor is active from now on, and the ten
 * recovery codes answered here are never shown again (only their hashes are stored). The user's
 * other sessions end, and this session may use the portal again if it was held back for enrolment.
 */
export async function confirmEnrolment(db: Db, author: ChangeAuthor, code: string): Promise<string[]> {
  const { user, sessionId } = author.actor;
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    const [factor] = await tx
      .select()
      .from(secondFactors)
      .where(eq(secondFactors.userId, user.id))
      .for('update');
    if (!factor) throw new HttpError(409, 'No enrolment was begun.');
    if (factor.confirmedAt) throw alreadyActive();
    const step = acceptedTimeStep(factor.secret, code, null);
    if (step === undefined) throw wrongCode();
    await tx
      .update(secondFactors)
      .set({ confirmedAt: new Date(), lastTimeStep: step })
      .where(eq(secondFactors.userId, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await tx
      .insert(recoveryCodes)
      .values(codes.map((recoveryCode) => ({ userId: user.id, codeHash: hashRecoveryCode(recoveryCode) })));
    if (sessionId)
      await tx
        .update(sessions)
        .set({ secondFactorEnrolmentRequired: false })
        .where(eq(sessions.id, sessionId));
    await recordChange(tx, author, factorRecord(user.id, 'enable_second_factor', true));
  });
  return codes;
}

/** Proof for switching the factor off: a current code or the password. */
export interface DisableProof {
  code?: string;
  password?: string;
}

/** Switches the own factor off after proof; 400 at the field whose proof failed. */
export async function disableSecondFactor(db: Db, author: ChangeAuthor, proof: DisableProof) {
  const { user } = author.actor;
  const factor = await secondFactorOf(db, user.id);
  if (!factor?.confirmedAt) throw new HttpError(409, 'No second factor is active.');
  if (proof.password !== undefined) {
    if (!(await verifyPassword(user.passwordHash, proof.password))) throw wrongCode('password');
  } else if (acceptedTimeStep(factor.secret, proof.code ?? '', factor.lastTimeStep) === undefined) {
    throw wrongCode();
  }
  await db.transaction(async (tx) => {
    await removeSecondFactor(tx, user.id);
    await recordChange(tx, author, factorRecord(user.id, 'disable_second_factor', false));
  });
}

/** A master takes a user's factors away (a lost phone): the TOTP factor and every passkey. */
export async function resetSecondFactor(db: Db, author: ChangeAuthor, user: UserRow) {
  const factor = await secondFactorOf(db, user.id);
  const hadPasskeys = (await passkeysOf(db, user.id)).length > 0;
  if (!factor && !hadPasskeys) return false;
  const wasActive = Boolean(factor?.confirmedAt) || hadPasskeys;
  await db.transaction(async (tx) => {
    await removeSecondFactor(tx, user.id);
    await tx.delete(passkeys).where(eq(passkeys.userId, user.id));
    if (wasActive) await recordChange(tx, author, factorRecord(user.id, 'reset_second_factor', false));
  });
  return wasActive;
}

/** The user as the author of what its own sign-in changes (a recovery code used). */
const selfAt = (user: UserRow, address: string): ChangeAuthor => {
  const actor: Actor = { user, realUser: user, sessionId: null, via: 'session' };
  return { actor, address };
};

/**
 * Checks the second step of a sign-in: a 6-digit code of the active factor (each time step once)
 * or an unused recovery code, which is used up here and recorded. True when it holds.
 */
export async function acceptSignInCode(
  db: Db,
  user: UserRow,
  code: string,
  address: string,
): Promise<boolean> {
  const factor = await secondFactorOf(db, user.id);
  if (!factor?.confirmedAt) return false;
  if (looksLikeRecoveryCode(code)) {
    return db.transaction(async (tx) => {
      const used = await tx
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(recoveryCodes.userId, user.id),
            eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      if (used.length === 0) return false;
      await recordChange(tx, selfAt(user, address), {
        entityType: 'user',
        entityId: user.id,
        subjectUserId: user.id,
        action: 'use_recovery_code',
      });
      return true;
    });
  }
  const step = acceptedTimeStep(factor.secret, code.replace(/\s/g, ''), factor.lastTimeStep);
  if (step === undefined) return false;
  // Only one request can move the step forward: the same code sent twice at once signs in once.
  const moved = await db
    .update(secondFactors)
    .set({ lastTimeStep: step })
    .where(
      and(
        eq(secondFactors.userId, user.id),
        or(isNull(secondFactors.lastTimeStep), lt(secondFactors.lastTimeStep, step)),
      ),
    )
    .returning({ userId: secondFactors.userId });
  return moved.length === 1;
}

/**
 * True when the user must enrol a second factor before using the portal: the user's white-label
 * (else the request host's) requires one from admin up, and the user has none active.
 */
export async function mustEnrolSecondFactor(db: Db, user: UserRow, hostWhitelabelId: number | undefined) {
  if (!hasRole(user.role, 'ROLE_ADMIN')) return false;
  const whitelabelId = user.whitelabelId ?? hostWhitelabelId;
  if (whitelabelId === undefined || !(await whitelabelRequiresSecondFactor(db, whitelabelId))) return false;
  return !(await hasActiveSecondFactor(db, user.id));
}

/** A master sets whether the white-label's users from admin up need a second factor. */
export async function setSecondFactorPolicy(
  db: Db,
  author: ChangeAuthor,
  whitelabel: Pick<WhitelabelRow, 'id' | 'secondFactorRequired'>,
  required: boolean,
) {
  if (whitelabel.secondFactorRequired === required) return;
  await db.transaction(async (tx) => {
    await tx
      .update(whitelabels)
      .set({ secondFactorRequired: required })
      .where(eq(whitelabels.id, whitelabel.id));
    await recordChange(tx, author, {
      entityType: 'whitelabel',
      entityId: whitelabel.id,
      action: 'update_second_factor_policy',
      changes: changedFields(
        { secondFactorRequired: whitelabel.secondFactorRequired },
        { secondFactorRequired: required },
      ),
    });
  });
}
