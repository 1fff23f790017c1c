import { useMutation } from '@tanstack/react-query';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { CurrentUser, LoginBody } from '@tankportal/shared/schemas/auth';
import type { WebAuthnOptions } from '@tankportal/shared/schemas/passkeys';
import type { PendingSignIn, SignInCodeBody } from '@tankportal/shared/schemas/second-factor';
import { api, ApiError, ensureCsrfToken } from '../../../lib/api-client.ts';
import { lastUsername } from '../../../lib/cookies.ts';
import { useResetSession } from '../../../lib/session.ts';

export type LoginFailure =
  | 'invalidCredentials'
  | 'invalidCode'
  | 'invalidPasskey'
  | 'passkeyNotConfirmed'
  | 'stepExpired'
  | 'tooMany'
  | 'serverError'
  | 'network'
  | 'unknownError';

/**
 * 400 is invalid credentials (or, in the second step, a wrong code), any other answer a server
 * error; the login also tells the login limit (429), an expired second step (401) and a missing
 * connection apart from a server error.
 */
export function loginFailure(
  error: unknown,
  step: 'password' | 'code' | 'passkey' = 'password',
): LoginFailure {
  // A passkey the browser did not give (cancelled, timed out, none on this device).
  if (!(error instanceof ApiError)) return step === 'passkey' ? 'passkeyNotConfirmed' : 'unknownError';
  if (error.status === 400)
    return { password: 'invalidCredentials', code: 'invalidCode', passkey: 'invalidPasskey' }[
      step
    ] as LoginFailure;
  if (error.status === 401 && step !== 'password') return 'stepExpired';
  if (error.status === 429) return 'tooMany';
  return error.status === 0 ? 'network' : 'serverError';
}

/** The password was right and the second factor must follow (HTTP 202): no session yet. */
export const needsSecondFactor = (answer: CurrentUser | PendingSignIn): answer is PendingSignIn =>
  'secondFactorRequired' in answer;

export function useLogin() {
  const resetSession = useResetSession();
  return useMutation({
    mutationFn: async (credentials: LoginBody) => {
      await ensureCsrfToken();
      return api<CurrentUser | PendingSignIn>('POST', '/v2/login', {
        body: credentials,
        allowUnauthorized: true,
      });
    },
    // The login page shows its own texts (loginFailure).
    meta: { errorToast: false },
    onSuccess: (answer, credentials) => {
      // The demo login must not replace the username the person signs in with (it has no factor).
      if (needsSecondFactor(answer) || answer.role !== 'ROLE_DEMO') lastUsername.set(credentials.username);
      if (!needsSecondFactor(answer)) resetSession(answer);
    },
  });
}

/** POST /v2/login/second-factor: the code (or a recovery code) after the password; then signed in. */
export function useSecondFactorSignIn() {
  const resetSession = useResetSession();
  return useMutation({
    mutationFn: (body: SignInCodeBody) =>
      api<CurrentUser>('POST', '/v2/login/second-factor', { body, allowUnauthorized: true }),
    meta: { errorToast: false },
    onSuccess: (user) => resetSession(user),
  });
}

/**
 * The second step with a passkey: the server's options for this step, the browser's `get()` (the
 * person confirms with the device), the answer sent as JSON text; then signed in.
 */
export function usePasskeySignIn() {
  const resetSession = useResetSession();
  return useMutation({
    mutationFn: async ({ rememberBrowser }: { rememberBrowser: boolean }) => {
      const options = await api<WebAuthnOptions>('POST', '/v2/login/passkey-options', {
        allowUnauthorized: true,
      });
      const answer = await startAuthentication({
        optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      });
      return api<CurrentUser>('POST', '/v2/login/passkey', {
        body: { credential: JSON.stringify(answer), rememberBrowser },
        allowUnauthorized: true,
      });
    },
    meta: { errorToast: false },
    onSuccess: (user) => resetSession(user),
  });
}
