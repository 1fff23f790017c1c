import { useMutation } from '@tanstack/react-query';
import type { CurrentUser, LoginBody } from '@tankportal/shared/schemas/auth';
import type { PendingSignIn, SignInCodeBody } from '@tankportal/shared/schemas/second-factor';
import { api, ApiError, ensureCsrfToken } from '../../../lib/api-client.ts';
import { lastUsername } from '../../../lib/cookies.ts';
import { useResetSession } from '../../../lib/session.ts';

export type LoginFailure =
  | 'invalidCredentials'
  | 'invalidCode'
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
export function loginFailure(error: unknown, step: 'password' | 'code' = 'password'): LoginFailure {
  if (!(error instanceof ApiError)) return 'unknownError';
  if (error.status === 400) return step === 'code' ? 'invalidCode' : 'invalidCredentials';
  if (error.status === 401 && step === 'code') return 'stepExpired';
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
