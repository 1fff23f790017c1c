import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import { hashToken } from './tokens.ts';

/**
 * The second sign-in factor's rules (decision 067): TOTP as RFC 6238 and the authenticator apps
 * have it (SHA-1, 6 digits, 30 seconds), and one-time recovery codes.
 */

/** A code of the step before or after the present one is still accepted: clocks drift. */
const TOLERANCE_SECONDS = 30;

/** A new TOTP secret: 160 random bits, Base32. */
export const newTotpSecret = (): string => generateSecret();

/** What the authenticator app scans: the white-label as issuer, the username as the account. */
export const totpUri = (issuer: string, username: string, secret: string): string =>
  generateURI({ issuer, label: username, secret });

/**
 * The time step a code is valid for, or undefined when it is not: wrong, too old, or of a step
 * already used (`afterTimeStep`), so that a code seen once cannot be replayed.
 */
export function acceptedTimeStep(secret: string, code: string, afterTimeStep: number | null) {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = verifySync({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  // A TOTP result names its time step (the union type also covers HOTP's, which has none).
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L). */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const RECOVERY_GROUPS = 3;
const RECOVERY_GROUP_LENGTH = 4;

/** A recovery code as shown: three groups of four (about 59 random bits), e.g. `K7QM-3XPA-W9RT`. */
function newRecoveryCode(): string {
  const group = () =>
    Array.from(
      { length: RECOVERY_GROUP_LENGTH },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
  return Array.from({ length: RECOVERY_GROUPS }, group).join('-');
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);

/** True when the input has the form of a recovery code rather than a 6-digit code. */
export const looksLikeRecoveryCode = (input: string) =>
  normalisedRecoveryCode(input).length === RECOVERY_GROUPS * RECOVERY_GROUP_LENGTH;

/** Spaces, dashes and case do not matter when a code is typed. */
const normalisedRecoveryCode = (input: string) => input.toUpperCase().replace(/[\s-]/g, '');

/**
 * Stored as SHA-256, like session cookies and API tokens (policies/tokens.ts): the codes are random,
 * and each try at sign-in counts against the login limit.
 */
export const hashRecoveryCode = (input: string) => hashToken(normalisedRecoveryCode(input));
