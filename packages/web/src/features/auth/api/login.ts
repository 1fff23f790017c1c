import { useMutation } from '@tanstack/react-query';
import type { CurrentUser, LoginBody } from '@tankportal/shared/schemas/auth';
import { api, ApiError, ensureCsrfToken } from '../../../lib/api-client.ts';
import { lastUsername } from '../../../lib/cookies.ts';
import { useResetSession } from '../../../lib/session.ts';

export type LoginFailure = 'invalidCredentials' | 'tooMany' | 'serverError' | 'network' | 'unknownError';

/**
 * 400 is invalid credentials, any other answer a server error; the login also
 * tells the login limit (429) and a missing connection apart from a server error.
 */
export function loginFailure(error: unknown): LoginFailure {
  if (!(error instanceof ApiError)) return 'unknownError';
  if (error.status === 400) return 'invalidCredentials';
  if (error.status === 429) return 'tooMany';
  return error.status === 0 ? 'network' : 'serverError';
}

export function useLogin() {
  const resetSession = useResetSession();
  return useMutation({
    mutationFn: async (credentials: LoginBody) => {
      await ensureCsrfToken();
      return api<CurrentUser>('POST', '/v2/login', { body: credentials, allowUnauthorized: true });
    },
    // The login page shows its own texts (loginFailure).
    meta: { errorToast: false },
    onSuccess: (user, credentials) => {
      // The demo login must not replace the username the person signs in with.
      if (user.role !== 'ROLE_DEMO') lastUsername.set(credentials.username);
      resetSession(user);
    },
  });
}
