import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../constants.ts';
import { requiredText, text } from './common.ts';

/**
 * Passkeys (WebAuthn) as a second sign-in factor beside TOTP (decision 067): the own passkeys, their
 * registration and the sign-in's assertion. The WebAuthn options and answers are passed on as the
 * browser and @simplewebauthn make them; only what the portal reads is named here.
 */

export const PASSKEY_NAME_MAX_LENGTH = 60;

/** A passkey as its owner sees it; never its key. */
export const passkeySummary = z.object({
  id: z.number(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

export const passkeyList = z.array(passkeySummary);

/** The options for `navigator.credentials.create()` or `.get()`, as @simplewebauthn makes them. */
export const webAuthnOptions = z.looseObject({ challenge: z.string() });
export type WebAuthnOptions = z.infer<typeof webAuthnOptions>;

/**
 * What the browser answers to `create()` or `get()`, as @simplewebauthn/browser encodes it, sent as
 * JSON text: its keys (`clientDataJSON`) are WebAuthn's own and stay out of the API's conversion
 * between snake_case and camelCase.
 */
const webAuthnCredential = z.string().min(2).max(32_000);

/** A new passkey: its name and the browser's answer to the registration options. */
export const passkeyRegistrationBody = z.object({
  name: requiredText().max(PASSKEY_NAME_MAX_LENGTH),
  credential: webAuthnCredential,
});
export type PasskeyRegistrationBody = z.infer<typeof passkeyRegistrationBody>;

/** The second step of a sign-in with a passkey. */
export const passkeySignInBody = z.object({
  credential: webAuthnCredential,
  /** Skip the second factor in this browser for 30 days. */
  rememberBrowser: z.boolean().default(false),
});
export type PasskeySignInBody = z.input<typeof passkeySignInBody>;

/** Removing a passkey takes the password. */
export const removePasskeyBody = z.object({
  password: text().min(1, { error: 'required' }).max(MAX_PASSWORD_LENGTH),
});
export type RemovePasskeyBody = z.infer<typeof removePasskeyBody>;
