import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../constants.ts';
import { requiredText, text } from './common.ts';

/**
 * The second sign-in factor (TOTP, decision 067): its state, the enrolment, the sign-in step and a
 * white-label's policy.
 */

/** A 6-digit code or a recovery code as typed (spaces and dashes allowed). */
const code = () => requiredText().max(32);

/** The own TOTP factor: active or not, how many recovery codes are left (passkeys: schemas/passkeys). */
export const secondFactorStatus = z.object({
  active: z.boolean(),
  recoveryCodesLeft: z.number(),
  /** The white-label requires a factor of this user's role. */
  required: z.boolean(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatus>;

/** A begun enrolment: the secret as text and as the QR code (an SVG data URL) of its otpauth:// URI. */
export const secondFactorEnrolment = z.object({
  secret: z.string(),
  uri: z.string(),
  qrCode: z.string(),
});
export type SecondFactorEnrolment = z.infer<typeof secondFactorEnrolment>;

export const secondFactorCodeBody = z.object({ code: code() });
export type SecondFactorCodeBody = z.infer<typeof secondFactorCodeBody>;

/** Shown once, right after the enrolment is confirmed. */
export const recoveryCodesAnswer = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesAnswer = z.infer<typeof recoveryCodesAnswer>;

/** Switching the own factor off takes a current code or the password. */
export const disableSecondFactorBody = z
  .object({
    code: code().optional(),
    password: text().min(1, { error: 'required' }).max(MAX_PASSWORD_LENGTH).optional(),
  })
  .refine((body) => body.code !== undefined || body.password !== undefined, {
    path: ['code'],
    error: 'required',
  });
export type DisableSecondFactorBody = z.infer<typeof disableSecondFactorBody>;

/** The second step of a sign-in. */
export const signInCodeBody = z.object({
  code: code(),
  /** Skip the second factor in this browser for 30 days. */
  rememberBrowser: z.boolean().default(false),
});
export type SignInCodeBody = z.input<typeof signInCodeBody>;

/**
 * The answer to a right password when a second factor must follow (HTTP 202), with the kinds the
 * user has: a code (TOTP or a recovery code) and/or a passkey.
 */
export const pendingSignIn = z.object({
  secondFactorRequired: z.literal(true),
  code: z.boolean(),
  passkey: z.boolean(),
});
export type PendingSignIn = z.infer<typeof pendingSignIn>;

/** A white-label's policy: users from admin up must have a second factor. */
export const secondFactorPolicy = z.object({ requiredFromAdmin: z.boolean() });
export type SecondFactorPolicy = z.infer<typeof secondFactorPolicy>;
